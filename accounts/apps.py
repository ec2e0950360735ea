from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """User accounts: sign-in (session and token) with its throttle, sessions, and the admin's
    user management. The user table is Django's; the core only asks `is_admin`."""

    name = "accounts"
