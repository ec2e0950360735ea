from django.urls import path, re_path

from annotation.consumers import AnnotationConsumer, ProjectConsumer
from corefapp.consumers import NoRouteConsumer, PingConsumer

# Every route needs a signed-in user; each consumer refuses others with 4403.
websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    path("ws/annotations/<int:pk>/", AnnotationConsumer.as_asgi()),
    path("ws/projects/<int:pk>/", ProjectConsumer.as_asgi()),
    re_path(r"", NoRouteConsumer.as_asgi()),
]
