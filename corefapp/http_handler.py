"""Django's ASGI handler with each request's Django part run in one worker thread, in one go.

Every view of the app is synchronous. Django's own ASGI handler runs the middleware chain in
async mode and reaches a sync view, its rendering, the request signals and the response's
close through about six thread hand-offs per request, on a new thread per request
(asgiref's ThreadSensitiveContext); under load those hand-offs, contending for the GIL with
the event loop, cost more CPU than the operation itself (docs/throughput.md). Here the
request is read on the event loop, then the request signals, every middleware (loaded in
sync mode), the view and, for an in-memory response, its close (which returns the database
connection to the pool) run as one call on a fixed pool of threads; the event loop sends the
response. A streaming response (a file) is closed after it was sent, as Django does.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.urls import set_script_prefix

# As many threads as the database pool has connections (DB_POOL_MAX's default): a thread
# more would only wait for a connection. A request waiting for a thread waits on the event
# loop, where it costs nothing.
THREADS = 20


class OneThreadASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        self._executor = ThreadPoolExecutor(THREADS, thread_name_prefix="django")

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django serves HTTP only, not {scope['type']}")
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        try:
            loop = asyncio.get_running_loop()
            response = await loop.run_in_executor(self._executor, self._respond, scope, body_file)
            try:
                await self.send_response(response, send)
            finally:
                if response.streaming:
                    await loop.run_in_executor(self._executor, response.close)
        finally:
            body_file.close()

    def _respond(self, scope, body_file):
        """The Django part of a request, in a worker thread; returns the response."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
        assert response is not None, "create_request answers either a request or a response"
        # Django's own handler marks the response the same way (asgi.ASGIHandler.handle).
        response._handler_class = self.__class__  # type: ignore[attr-defined]
        if not response.streaming:
            # Its content is in memory: request_finished (which returns the database
            # connection) now, in the thread that used it.
            response.close()
        return response
