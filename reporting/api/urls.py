from django.urls import path

from reporting.api.views import agreement, diagnosis, time_report, timeline

urlpatterns = [
    path(
        "annotations/<int:pk>/timeline/",
        timeline.AnnotationTimelineView.as_view(),
        name="api-annotation-timeline",
    ),
    # the workspace records what it showed: where each acceptance latency starts
    path(
        "annotations/<int:pk>/suggestions-shown/",
        time_report.SuggestionsShownView.as_view(),
        name="api-suggestions-shown",
    ),
    # admins
    path("projects/<int:pk>/time/", time_report.ProjectTimeView.as_view(), name="api-project-time"),
    path(
        "projects/<int:pk>/agreement/",
        agreement.AgreementView.as_view(),
        name="api-project-agreement",
    ),
    path(
        "projects/<int:pk>/agreement/diagnosis/",
        diagnosis.DiagnosisView.as_view(),
        name="api-project-agreement-diagnosis",
    ),
]
