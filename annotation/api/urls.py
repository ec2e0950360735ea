from django.urls import path

from annotation.api.views import (
    assignment_bulk,
    assignments,
    files,
    projects,
    workspace,
)

urlpatterns = [
    path("assignments/mine/", workspace.MyAssignmentsView.as_view(), name="api-my-assignments"),
    path(
        "assignments/<int:pk>/submit/", workspace.SubmitView.as_view(), name="api-assignment-submit"
    ),
    path("topics/<int:pk>/", workspace.TopicView.as_view(), name="api-topic"),
    path("annotations/<int:pk>/", workspace.AnnotationView.as_view(), name="api-annotation"),
    path(
        "annotations/<int:pk>/operations/",
        workspace.OperationsView.as_view(),
        name="api-operations",
    ),
    path("annotations/<int:pk>/undo/", workspace.UndoView.as_view(), name="api-undo"),
    path("annotations/<int:pk>/redo/", workspace.RedoView.as_view(), name="api-redo"),
    path("annotations/<int:pk>/cursor/", workspace.CursorView.as_view(), name="api-cursor"),
    # admins
    path("projects/", projects.ProjectsView.as_view(), name="api-projects"),
    path("projects/<int:pk>/", projects.ProjectView.as_view(), name="api-project"),
    path(
        "projects/<int:pk>/topics/",
        projects.ProjectTopicsView.as_view(),
        name="api-project-topics",
    ),
    path("topics/<int:pk>/manage/", projects.TopicManageView.as_view(), name="api-topic-manage"),
    path(
        "projects/<int:pk>/progress/",
        projects.ProjectProgressView.as_view(),
        name="api-project-progress",
    ),
    path("projects/<int:pk>/imports/", files.ImportView.as_view(), name="api-project-import"),
    path("import-jobs/<int:pk>/", files.ImportJobView.as_view(), name="api-import-job"),
    path("projects/<int:pk>/export/", files.ExportView.as_view(), name="api-project-export"),
    path("assignments/", assignments.AssignmentsView.as_view(), name="api-assignments"),
    path(
        "assignments/bulk/",
        assignment_bulk.AssignmentsBulkView.as_view(),
        name="api-assignments-bulk",
    ),
    path("assignments/<int:pk>/", assignments.AssignmentView.as_view(), name="api-assignment"),
    path(
        "assignments/<int:pk>/reassign/",
        assignments.AssignmentReassignView.as_view(),
        name="api-assignment-reassign",
    ),
    path(
        "assignments/<int:pk>/reopen/",
        assignments.AssignmentReopenView.as_view(),
        name="api-assignment-reopen",
    ),
]
