from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """User accounts: sign-in (session and token) with its throttle, sessions, and the admin's
    user management. The user table is Django's; the core only asks `is_admin`."""

    name = "accounts"

    def ready(self) -> None:
        from rest_framework import status

        from accounts.errors import InvalidCredentials
        from foundation.api.errors import register

        # A wrong password is a bad request; a refused user falls back to the core's 422.
        register({InvalidCredentials: status.HTTP_400_BAD_REQUEST})
