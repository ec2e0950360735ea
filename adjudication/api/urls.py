from django.urls import path

from adjudication.api.views import bulk, versions

urlpatterns = [
    path(
        "annotations/<int:pk>/versions/",
        versions.AdjudicationVersionsView.as_view(),
        name="api-adjudication-versions",
    ),
    # admins
    path("adjudications/", bulk.AdjudicationsView.as_view(), name="api-adjudications"),
]
