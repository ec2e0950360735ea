"""GET /metrics: for admins (session or API token) and for a scraper that sends
`Authorization: Bearer $METRICS_TOKEN`; anyone else gets a 403 and no figures."""

from __future__ import annotations

import hmac
import os

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    generate_latest,
    multiprocess,
)
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from corefapp.metrics.collectors import ScrapeCollector
from foundation.roles import is_admin


class _ThisProcess:
    """The default registry's metrics (this process's instruments, its CPU and memory)."""

    def collect(self):
        return REGISTRY.collect()


def _may_scrape(request) -> bool:
    token = settings.METRICS_TOKEN
    header = request.META.get("HTTP_AUTHORIZATION", "")
    if token and hmac.compare_digest(header.encode(), f"Bearer {token}".encode()):
        return True
    if is_admin(request.user):
        return True
    try:
        found = TokenAuthentication().authenticate(request)
    except AuthenticationFailed:
        return False
    return found is not None and is_admin(found[0])


def registry() -> CollectorRegistry:
    collected = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.MultiProcessCollector(collected)
    else:
        collected.register(_ThisProcess())
    collected.register(ScrapeCollector())
    return collected


@never_cache
def metrics(request):
    if not _may_scrape(request):
        return JsonResponse(
            {"detail": "Only admins, or a scraper with the metrics token, can read metrics."},
            status=403,
        )
    return HttpResponse(generate_latest(registry()), content_type=CONTENT_TYPE_LATEST)
