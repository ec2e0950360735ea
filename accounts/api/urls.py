from django.urls import path

from accounts.api import auth, session, users

urlpatterns = [
    path("auth/token/", auth.TokenView.as_view(), name="api-token"),
    path("auth/login/", auth.LoginView.as_view(), name="api-login"),
    path("auth/logout/", auth.LogoutView.as_view(), name="api-logout"),
    path("auth/csrf/", auth.CsrfView.as_view(), name="api-csrf"),
    path("me/", auth.MeView.as_view(), name="api-me"),
    path("session/", session.SessionView.as_view(), name="api-session"),
    # admins
    path("users/", users.UsersView.as_view(), name="api-users"),
    path("users/<int:pk>/", users.UserView.as_view(), name="api-user"),
]
