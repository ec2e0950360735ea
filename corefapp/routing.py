from django.urls import path

from annotation.consumers import AnnotationConsumer, ProjectConsumer
from corefapp.consumers import PingConsumer

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    path("ws/annotations/<int:pk>/", AnnotationConsumer.as_asgi()),
    path("ws/projects/<int:pk>/", ProjectConsumer.as_asgi()),
]
