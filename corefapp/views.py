from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from corefapp.health import health_report


@never_cache
def healthz(request):
    healthy, body = health_report()
    return JsonResponse(body, status=200 if healthy else 503)
