"""ASGI entry point: HTTP through Django, websockets through Channels (run by Daphne)."""

import os

import django

from corefapp.private_files import private_umask

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corefapp.settings")
private_umask()  # a Daphne started without corefapp.runtime.web writes private files too
django.setup(set_prefix=False)

from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator

from corefapp.http_handler import OneThreadASGIHandler
from corefapp.metrics.websockets import WebsocketCounter
from corefapp.routing import websocket_urlpatterns

application = ProtocolTypeRouter(
    {
        "http": OneThreadASGIHandler(),
        "websocket": WebsocketCounter(
            AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
    }
)
