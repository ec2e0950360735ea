from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from corefapp.health import health_report
from foundation.roles import is_admin


def _without_details(body: dict) -> dict:
    """Versions and error messages help an attacker as much as an operator, so they go to
    admins only, decided by the user whatever the address (a loopback request may come through
    a local proxy or another local user's process). Everyone gets the status and which check
    failed: what a load balancer, `make up` or a container's health check needs."""
    return {
        "status": body["status"],
        "checks": {name: {"ok": check["ok"]} for name, check in body.get("checks", {}).items()},
    }


@never_cache
def healthz(request):
    healthy, body = health_report()
    # Without the database the user is unknown: asking the pool who it is would hold the
    # answer for the pool's timeout.
    if not (body["checks"]["database"]["ok"] and is_admin(request.user)):
        body = _without_details(body)
    return JsonResponse(body, status=200 if healthy else 503)
