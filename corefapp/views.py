from ipaddress import ip_address

from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from annotation.selectors.access import is_admin
from corefapp.health import health_report


def _may_see_details(request, *, ask_database: bool = True) -> bool:
    """Versions and error messages help an attacker as much as an operator: they go to admins
    and to requests from this machine (make up, a container's health check). A request that
    came through a proxy is not local, whatever address the proxy connects from.

    Without the database (`ask_database` false) the user is unknown: asking the pool who it
    is would hold the answer for the pool's timeout."""
    if ask_database and is_admin(request.user):
        return True
    if "HTTP_X_FORWARDED_FOR" in request.META or "HTTP_FORWARDED" in request.META:
        return False
    try:
        return ip_address(request.META.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        return False


@never_cache
def healthz(request):
    healthy, body = health_report()
    if not _may_see_details(request, ask_database=body["checks"]["database"]["ok"]):
        body = {"status": body["status"]}
    return JsonResponse(body, status=200 if healthy else 503)
