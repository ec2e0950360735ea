from django.urls import path

from validation.api import views

urlpatterns = [
    path(
        "validation/annotations/<int:pk>/",
        views.ValidationView.as_view(),
        name="api-validation",
    ),
]
