import pytest


@pytest.mark.django_db
def test_healthz_reports_503_and_names_celery_when_no_worker_runs(client):
    response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["redis"]["ok"] is True
    assert body["checks"]["channel_layer"]["ok"] is True
    assert body["checks"]["celery"]["ok"] is False


@pytest.mark.django_db
def test_healthz_reports_the_database_down_when_it_cannot_connect(client, settings, services):
    from django.db import connection

    connection.close()
    original = connection.settings_dict["PORT"]
    connection.settings_dict["PORT"] = "1"
    try:
        response = client.get("/healthz")
    finally:
        connection.close()
        connection.settings_dict["PORT"] = original

    assert response.status_code == 503
    assert response.json()["checks"]["database"]["ok"] is False


@pytest.mark.django_db
def test_healthz_reports_redis_and_the_channel_layer_down_when_redis_is_unreachable(
    client, settings, services
):
    from channels.layers import channel_layers

    from tests.ports import free_port

    dead = f"redis://127.0.0.1:{free_port()}/0"
    settings.REDIS_URL = dead
    settings.CHANNEL_LAYERS = {
        "default": {**settings.CHANNEL_LAYERS["default"], "CONFIG": {"hosts": [dead]}}
    }
    try:
        response = client.get("/healthz")
    finally:
        channel_layers.backends = {}

    assert response.status_code == 503
    checks = response.json()["checks"]
    assert checks["redis"]["ok"] is False
    assert checks["channel_layer"]["ok"] is False
    assert checks["database"]["ok"] is True


@pytest.mark.django_db
@pytest.mark.parametrize("address", ["127.0.0.1", "::1", "203.0.113.7"])
def test_healthz_tells_an_anonymous_client_which_check_failed_but_no_version_from_any_address(
    client, address
):
    body = client.get("/healthz", REMOTE_ADDR=address).json()

    assert body["status"] == "degraded"
    assert body["checks"]["celery"] == {"ok": False}
    assert all(set(check) == {"ok"} for check in body["checks"].values())
    assert "PostgreSQL" not in str(body)
    assert "Redis " not in str(body)


@pytest.mark.django_db
def test_healthz_gives_a_signed_in_annotator_no_details_either(client):
    from tests.factories import UserFactory

    client.force_login(UserFactory())

    checks = client.get("/healthz").json()["checks"]

    assert all(set(check) == {"ok"} for check in checks.values())


@pytest.mark.django_db
def test_healthz_gives_an_admin_the_versions_and_messages_from_anywhere(client):
    from tests.factories import AdminFactory

    client.force_login(AdminFactory())
    checks = client.get("/healthz", REMOTE_ADDR="203.0.113.7").json()["checks"]

    assert checks["database"]["detail"].startswith("PostgreSQL")
    assert checks["redis"]["detail"].startswith("Redis")
    assert "no live Celery worker" in checks["celery"]["detail"]
