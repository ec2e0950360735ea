from django.urls import path

from datasets.api import views

urlpatterns = [
    path("projects/<int:pk>/statistics/", views.StatisticsView.as_view(), name="api-statistics"),
    path("projects/<int:pk>/release/", views.ReleaseView.as_view(), name="api-release"),
    path(
        "projects/<int:pk>/release-jobs/",
        views.ProjectReleaseJobsView.as_view(),
        name="api-release-jobs",
    ),
    path("release-jobs/<int:pk>/", views.ReleaseJobView.as_view(), name="api-release-job"),
    path("projects/<int:pk>/splits/", views.ProjectSplitsView.as_view(), name="api-splits"),
    path("topics/<int:pk>/split/", views.TopicSplitView.as_view(), name="api-topic-split"),
]
