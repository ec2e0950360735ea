"""The API client fixtures of tests/annotation, for the reports' API tests."""

from tests.annotation.conftest import admin_client  # noqa: F401  (a fixture)
