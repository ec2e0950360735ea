from tests.annotation.conftest import admin_client  # noqa: F401  (a fixture)
