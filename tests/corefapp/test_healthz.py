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
    assert "no live Celery worker" in body["checks"]["celery"]["detail"]


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

    from corefapp.runtime.preflight import free_port

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
def test_healthz_tells_a_remote_anonymous_client_only_the_status(client):
    response = client.get("/healthz", REMOTE_ADDR="203.0.113.7")

    assert response.json() == {"status": "degraded"}
    assert "PostgreSQL" not in response.content.decode()


@pytest.mark.django_db
def test_healthz_treats_a_request_through_a_proxy_as_remote(client):
    response = client.get("/healthz", HTTP_X_FORWARDED_FOR="203.0.113.7")

    assert set(response.json()) == {"status"}


@pytest.mark.django_db
def test_healthz_gives_an_admin_the_versions_and_messages_from_anywhere(client):
    from tests.factories import AdminFactory, UserFactory

    client.force_login(UserFactory())
    assert set(client.get("/healthz", REMOTE_ADDR="203.0.113.7").json()) == {"status"}

    client.force_login(AdminFactory())
    checks = client.get("/healthz", REMOTE_ADDR="203.0.113.7").json()["checks"]

    assert checks["database"]["detail"].startswith("PostgreSQL")
    assert checks["redis"]["detail"].startswith("Redis")
