from django.urls import path

from adjudication.api.views import bulk, flags, versions

urlpatterns = [
    path(
        "annotations/<int:pk>/versions/",
        versions.AdjudicationVersionsView.as_view(),
        name="api-adjudication-versions",
    ),
    path("annotations/<int:pk>/flags/", flags.FlagsView.as_view(), name="api-mention-flags"),
    path(
        "annotations/<int:pk>/flags/<int:mention>/",
        flags.FlagView.as_view(),
        name="api-mention-flag",
    ),
    # admins
    path("adjudications/", bulk.AdjudicationsView.as_view(), name="api-adjudications"),
]
