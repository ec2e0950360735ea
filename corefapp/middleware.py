"""Server-Timing on every response: the time Django spent, visible in browser dev tools and
read by the benchmarks to separate server time from network and client time."""

import time


class ServerTimingMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        response = self.get_response(request)
        response["Server-Timing"] = f"app;dur={(time.perf_counter() - started) * 1000:.2f}"
        return response
