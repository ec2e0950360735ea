"""Server-Timing on every response: the time Django spent, visible in browser dev tools and
read by the benchmarks to separate server time from network and client time. The
Content-Security-Policy header on every response.

Both are synchronous only, as is the whole chain: corefapp.http_handler runs each request's
middleware and view in one worker thread (docs/throughput.md)."""

import time

from django.conf import settings


class ServerTimingMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        response = self.get_response(request)
        response["Server-Timing"] = f"app;dur={(time.perf_counter() - started) * 1000:.2f}"
        return response


class ContentSecurityPolicyMiddleware:
    """The CONTENT_SECURITY_POLICY header on every response that does not set its own."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        return response
