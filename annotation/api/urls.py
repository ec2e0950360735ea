from django.urls import path

from annotation.api import auth
from annotation.api.views import adjudication, files, manage, session, workspace
from annotation.api.views import validation as validation_views

urlpatterns = [
    path("auth/token/", auth.TokenView.as_view(), name="api-token"),
    path("auth/login/", auth.LoginView.as_view(), name="api-login"),
    path("auth/logout/", auth.LogoutView.as_view(), name="api-logout"),
    path("auth/csrf/", auth.CsrfView.as_view(), name="api-csrf"),
    path("me/", auth.MeView.as_view(), name="api-me"),
    path("session/", session.SessionView.as_view(), name="api-session"),
    path(
        "validation/annotations/<int:pk>/",
        validation_views.ValidationView.as_view(),
        name="api-validation",
    ),
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
    path(
        "annotations/<int:pk>/versions/",
        adjudication.AdjudicationVersionsView.as_view(),
        name="api-adjudication-versions",
    ),
    # admins
    path("projects/", manage.ProjectsView.as_view(), name="api-projects"),
    path("projects/<int:pk>/", manage.ProjectView.as_view(), name="api-project"),
    path(
        "projects/<int:pk>/topics/", manage.ProjectTopicsView.as_view(), name="api-project-topics"
    ),
    path(
        "projects/<int:pk>/progress/",
        manage.ProjectProgressView.as_view(),
        name="api-project-progress",
    ),
    path("projects/<int:pk>/imports/", files.ImportView.as_view(), name="api-project-import"),
    path("import-jobs/<int:pk>/", files.ImportJobView.as_view(), name="api-import-job"),
    path("projects/<int:pk>/export/", files.ExportView.as_view(), name="api-project-export"),
    path(
        "projects/<int:pk>/agreement/", files.AgreementView.as_view(), name="api-project-agreement"
    ),
    path("users/", manage.UsersView.as_view(), name="api-users"),
    path("users/<int:pk>/", manage.UserView.as_view(), name="api-user"),
    path("assignments/", manage.AssignmentsView.as_view(), name="api-assignments"),
    path("assignments/bulk/", manage.AssignmentsBulkView.as_view(), name="api-assignments-bulk"),
    path("adjudications/", manage.AdjudicationsView.as_view(), name="api-adjudications"),
    path("assignments/<int:pk>/", manage.AssignmentView.as_view(), name="api-assignment"),
    path(
        "assignments/<int:pk>/reassign/",
        manage.AssignmentReassignView.as_view(),
        name="api-assignment-reassign",
    ),
    path(
        "assignments/<int:pk>/reopen/",
        manage.AssignmentReopenView.as_view(),
        name="api-assignment-reopen",
    ),
]
