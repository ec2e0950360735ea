from django.urls import path

from annotation.api import auth
from annotation.api.views import workspace

urlpatterns = [
    path("auth/token/", auth.TokenView.as_view(), name="api-token"),
    path("auth/login/", auth.LoginView.as_view(), name="api-login"),
    path("auth/logout/", auth.LogoutView.as_view(), name="api-logout"),
    path("auth/csrf/", auth.CsrfView.as_view(), name="api-csrf"),
    path("me/", auth.MeView.as_view(), name="api-me"),
    path("assignments/mine/", workspace.MyAssignmentsView.as_view(), name="api-my-assignments"),
    path("assignments/<int:pk>/submit/", workspace.SubmitView.as_view(), name="api-assignment-submit"),
    path("topics/<int:pk>/", workspace.TopicView.as_view(), name="api-topic"),
    path("annotations/<int:pk>/", workspace.AnnotationView.as_view(), name="api-annotation"),
    path("annotations/<int:pk>/operations/", workspace.OperationsView.as_view(), name="api-operations"),
    path("annotations/<int:pk>/undo/", workspace.UndoView.as_view(), name="api-undo"),
    path("annotations/<int:pk>/redo/", workspace.RedoView.as_view(), name="api-redo"),
    path("annotations/<int:pk>/cursor/", workspace.CursorView.as_view(), name="api-cursor"),
]
