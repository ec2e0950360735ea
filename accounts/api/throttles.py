"""Sign-in throttling at the edges: the client address, and the wrappers the API views and
the Django admin's sign-in page go through. The limits themselves (per account and address,
per address, an account under attack) and the bounded hashing pool are in
accounts/api/sign_in_limits.py.

The client address is the socket's peer unless TRUSTED_PROXIES says how many proxies append
to X-Forwarded-For: a header the client writes itself must not pick its own throttle bucket.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse

from accounts.api.sign_in_limits import (
    SignInRefused,
    api_sign_in,
    limited_attempt,
    parse_rate,
)

__all__ = ["client_address", "parse_rate", "sign_in_attempt", "throttled_admin_login"]


def client_address(request) -> str:
    """The address of the client: with TRUSTED_PROXIES = N, the Nth address from the right
    of X-Forwarded-For (each trusted proxy appends the address it received from)."""
    proxies = settings.TRUSTED_PROXIES
    forwarded = [
        address.strip()
        for address in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if address.strip()
    ]
    if proxies > 0 and forwarded:
        return forwarded[-min(proxies, len(forwarded))]
    return request.META.get("REMOTE_ADDR", "")


def sign_in_attempt(request, username: str, check, wrong):
    """`check()` (it checks the credentials, raising `wrong` when they are wrong) under the
    sign-in limits: accounts/api/sign_in_limits.py."""
    return api_sign_in(client_address(request), username, check, wrong)


def throttled_admin_login(login_view):
    """The Django admin's sign-in page under the same limits as the API's. The admin answers
    a failed sign-in with its form again (200) and a successful one with a redirect."""

    def view(request, *args, **kwargs):
        if request.method != "POST":
            return login_view(request, *args, **kwargs)
        try:
            with limited_attempt(
                username=request.POST.get("username", ""), address=client_address(request)
            ) as reservation:
                try:
                    response = login_view(request, *args, **kwargs)
                except BaseException:
                    reservation.give_back()
                    raise
                if response.status_code != 200:
                    reservation.give_back()  # signed in: it does not count
                return response
        except SignInRefused as refused:
            answer = HttpResponse(refused.message, status=429, content_type="text/plain")
            answer["Retry-After"] = str(int(refused.wait) + 1)
            return answer

    return view
