"""docker-compose.yml cannot run here (no Docker engine): check that it parses and that it
runs exactly what `make up` runs."""

from pathlib import Path

import yaml

from corefapp.runtime import commands

COMPOSE = Path(__file__).resolve().parents[3] / "docker-compose.yml"
APP_SERVICES = ("prepare", "web", "worker", "models")


def load_services() -> dict:
    return yaml.safe_load(COMPOSE.read_text())["services"]


def test_compose_file_defines_the_infrastructure_and_application_services():
    assert set(load_services()) == {"postgres", "redis", *APP_SERVICES}


def test_compose_web_runs_the_same_daphne_command_as_make_up():
    assert load_services()["web"]["command"] == commands.web_command(host="0.0.0.0", port=8000)


def test_compose_workers_run_the_same_celery_commands_as_make_up():
    services = load_services()
    assert services["worker"]["command"] == commands.worker_command()
    assert services["models"]["command"] == commands.model_worker_command()


def test_compose_prepare_runs_the_same_preparation_as_make_up():
    assert load_services()["prepare"]["command"] == commands.prepare_command()


def test_every_application_service_gets_the_environment_make_up_gives_its_children():
    for name in APP_SERVICES:
        environment = load_services()[name]["environment"]
        missing = [var for var in commands.REQUIRED_ENV if var not in environment]
        assert not missing, f"{name} lacks {missing}"


def test_model_worker_reserves_an_nvidia_device():
    devices = load_services()["models"]["deploy"]["resources"]["reservations"]["devices"]
    assert devices[0]["driver"] == "nvidia"
    assert "gpu" in devices[0]["capabilities"]


def test_infrastructure_services_have_health_checks_and_named_volumes():
    services = load_services()
    for name in ("postgres", "redis", "web", "worker", "models"):
        assert "healthcheck" in services[name], name
    volumes = yaml.safe_load(COMPOSE.read_text())["volumes"]
    assert {"pgdata", "redisdata"} <= set(volumes)
    assert "pgdata:/var/lib/postgresql/data" in services["postgres"]["volumes"]


def test_application_services_wait_for_healthy_database_and_redis():
    services = load_services()
    for name in APP_SERVICES:
        depends = services[name]["depends_on"]
        if name == "prepare":
            assert depends["postgres"]["condition"] == "service_healthy"
            assert depends["redis"]["condition"] == "service_healthy"
        else:
            assert depends["prepare"]["condition"] == "service_completed_successfully"


def test_the_servers_require_passwords_that_come_from_the_environment():
    services = load_services()
    app_env = services["web"]["environment"]

    assert "corefapp:corefapp@" not in COMPOSE.read_text()
    assert ":${POSTGRES_PASSWORD:?" in app_env["DATABASE_URL"]
    assert app_env["REDIS_URL"].startswith("redis://:${REDIS_PASSWORD:?")
    assert services["postgres"]["environment"]["POSTGRES_PASSWORD"].startswith(
        "${POSTGRES_PASSWORD:?"
    )
    assert "requirepass" in " ".join(services["redis"]["command"])
    assert services["redis"]["environment"]["REDISCLI_AUTH"].startswith("${REDIS_PASSWORD:?")
