from django.apps import AppConfig


class OnboardingConfig(AppConfig):
    """Guidelines, practice topics with feedback, and qualification before real work."""

    name = "onboarding"
