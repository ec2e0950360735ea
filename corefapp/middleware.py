"""Server-Timing on every response: the time Django spent, visible in browser dev tools and
read by the benchmarks to separate server time from network and client time. The
Content-Security-Policy header on every response."""

import time

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings


class ServerTimingMiddleware:
    # Both modes: under ASGI the whole middleware chain then stays async and a request hops
    # to a thread once (at the view), not at every sync/async boundary (measured ~5 ms).
    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def __call__(self, request):
        if iscoroutinefunction(self):
            return self.__acall__(request)
        started = time.perf_counter()
        response = self.get_response(request)
        return self._stamp(response, started)

    async def __acall__(self, request):
        started = time.perf_counter()
        response = await self.get_response(request)
        return self._stamp(response, started)

    @staticmethod
    def _stamp(response, started: float):
        response["Server-Timing"] = f"app;dur={(time.perf_counter() - started) * 1000:.2f}"
        return response


class SyncChainMiddleware:
    """Innermost and sync-only, on purpose: Django then runs the whole middleware chain and the
    (sync) views in one thread hop per request under ASGI. Without it the chain alternates
    between async parts (Django's own middleware) and sync parts (WhiteNoise, the views), and
    each switch costs a thread hand-off (measured ~4 ms per API call on two cores)."""

    sync_capable = True
    async_capable = False

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)


class ContentSecurityPolicyMiddleware:
    """The CONTENT_SECURITY_POLICY header on every response that does not set its own."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def __call__(self, request):
        if iscoroutinefunction(self):
            return self.__acall__(request)
        return self._stamp(self.get_response(request))

    async def __acall__(self, request):
        return self._stamp(await self.get_response(request))

    @staticmethod
    def _stamp(response):
        response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        return response
