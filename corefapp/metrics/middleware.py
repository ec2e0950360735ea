"""Request latency per route, for every request Django answers."""

from __future__ import annotations

import time

from corefapp.metrics.instruments import REQUEST_LATENCY

# Any other method is counted as "other": a label value per invented method would let any
# client grow the metric without bound.
METHODS = {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}


class RequestLatencyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        REQUEST_LATENCY.labels(
            route=(match.route or match.view_name) if match else "<unmatched>",
            method=request.method if request.method in METHODS else "other",
            status=str(response.status_code),
        ).observe(time.perf_counter() - started)
        return response
