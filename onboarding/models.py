"""Onboarding data: practice topics, attempts and qualification."""
