"""Fixtures shared by the API tests of this folder."""

import pytest
from rest_framework.test import APIClient

from tests.factories import AdminFactory


@pytest.fixture
def admin_client():
    """An API client signed in as a new admin (replaces pytest-django's Django-client fixture
    of the same name in this folder: these tests speak DRF)."""
    client = APIClient()
    client.force_authenticate(AdminFactory())
    return client
