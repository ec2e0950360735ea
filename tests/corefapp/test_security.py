"""Untrusted input and unauthenticated clients stay harmless."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.factories import PASSWORD, UserFactory, assign, make_topic, mention_ids

REPO = Path(__file__).resolve().parents[2]


def django_setup_in_subprocess(env_overrides: dict, tmp_path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG")}
    env.update(COREFAPP_VAR_DIR=str(tmp_path), **env_overrides)
    return subprocess.run(
        [
            sys.executable,
            "-c",
            (
                "import django, os; os.environ.setdefault("
                "'DJANGO_SETTINGS_MODULE', 'corefapp.settings'); django.setup(); print('started')"
            ),
        ],
        check=False,
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_with_debug_off_the_server_refuses_to_start_without_a_secret_key(tmp_path):
    result = django_setup_in_subprocess({"DEBUG": "false"}, tmp_path)

    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_with_a_secret_key_set_the_server_starts(tmp_path):
    result = django_setup_in_subprocess({"DEBUG": "false", "SECRET_KEY": "x" * 50}, tmp_path)

    assert result.returncode == 0, result.stderr
    assert "started" in result.stdout


@pytest.mark.django_db
def test_token_endpoint_is_throttled_after_repeated_attempts(services):
    cache.clear()
    UserFactory(username="victim")
    client = APIClient()

    answers = [
        client.post(
            "/api/auth/token/", {"username": "victim", "password": "guess"}, format="json"
        ).status_code
        for _ in range(25)
    ]

    assert answers[:20] == [400] * 20
    assert answers[-1] == 429


@pytest.mark.django_db
def test_login_endpoint_is_throttled_after_repeated_attempts(services):
    cache.clear()
    client = APIClient(enforce_csrf_checks=True)

    answers = [
        client.post(
            "/api/auth/login/", {"username": "nobody", "password": "guess"}, format="json"
        ).status_code
        for _ in range(21)
    ]

    assert answers[-1] == 429


@pytest.mark.django_db
def test_session_writes_without_a_csrf_token_are_refused(services):
    cache.clear()
    topic = make_topic()
    user = UserFactory()
    _, annotation = assign(topic, user)
    client = APIClient(enforce_csrf_checks=True)
    assert client.login(username=user.username, password=PASSWORD)

    refused = client.post(
        f"/api/annotations/{annotation.pk}/operations/",
        {
            "expected_version": 0,
            "operation": {"op": "assign", "mention": mention_ids(topic)[0], "cluster": None},
        },
        format="json",
    )
    token = client.get("/api/auth/csrf/").json()["csrf_token"]
    accepted = client.post(
        f"/api/annotations/{annotation.pk}/operations/",
        {
            "expected_version": 0,
            "operation": {"op": "assign", "mention": mention_ids(topic)[0], "cluster": None},
        },
        format="json",
        HTTP_X_CSRFTOKEN=token,
    )

    assert refused.status_code == 403
    assert "CSRF" in refused.json()["message"]
    assert accepted.status_code == 200


@pytest.mark.django_db
def test_script_payloads_in_labels_come_back_as_inert_json_text(services):
    topic = make_topic()
    user = UserFactory()
    _, annotation = assign(topic, user)
    client = APIClient()
    client.force_authenticate(user)
    payload = '<script>alert(1)</script><img src=x onerror="alert(2)">'
    created = client.post(
        f"/api/annotations/{annotation.pk}/operations/",
        {
            "expected_version": 0,
            "operation": {"op": "assign", "mention": mention_ids(topic)[0], "cluster": None},
        },
        format="json",
    ).json()
    client.post(
        f"/api/annotations/{annotation.pk}/operations/",
        {
            "expected_version": 1,
            "operation": {
                "op": "rename",
                "cluster": created["created"]["cluster"],
                "label": payload,
            },
        },
        format="json",
    )

    response = client.get(f"/api/annotations/{annotation.pk}/")

    assert response["Content-Type"] == "application/json"
    assert response.json()["clusters"][0]["label"] == payload
