"""Untrusted input and unauthenticated clients stay harmless."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.factories import PASSWORD, AdminFactory, UserFactory, assign, make_topic, mention_ids

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


# --------------------------------------------------------------------------- sign-in throttling


def token_attempt(client, username, password, **headers):
    return client.post(
        "/api/auth/token/", {"username": username, "password": password}, format="json", **headers
    ).status_code


@pytest.mark.django_db
def test_a_forged_x_forwarded_for_does_not_reset_the_sign_in_throttle(services):
    cache.clear()
    UserFactory(username="victim")
    UserFactory(username="other")
    client = APIClient()
    for n in range(20):
        token_attempt(client, "victim", "guess", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}")

    answers = [
        token_attempt(client, "other", PASSWORD, HTTP_X_FORWARDED_FOR="10.9.9.9"),
        token_attempt(client, "victim", PASSWORD, HTTP_X_FORWARDED_FOR="10.9.9.9"),
    ]

    assert answers == [429, 429]


@pytest.mark.django_db
def test_successful_sign_ins_never_count_against_the_throttle(services):
    cache.clear()
    users = [UserFactory(username=f"lab{n}") for n in range(30)]
    client = APIClient()

    answers = [token_attempt(client, user.username, PASSWORD) for user in users]

    assert answers == [200] * 30


@pytest.mark.django_db
def test_failed_sign_ins_are_throttled_per_account_whatever_the_address(services, settings):
    cache.clear()
    settings.TRUSTED_PROXIES = 1
    UserFactory(username="victim")
    client = APIClient()

    answers = [
        token_attempt(client, "victim", f"guess{n}", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}")
        for n in range(21)
    ]
    right_password = token_attempt(client, "victim", PASSWORD, HTTP_X_FORWARDED_FOR="10.0.1.1")

    assert answers[:20] == [400] * 20
    assert answers[20] == 429
    assert right_password == 429  # refused before the password is checked


@pytest.mark.django_db
def test_failed_sign_ins_are_throttled_per_address_whatever_the_account(services):
    cache.clear()
    client = APIClient()

    answers = [token_attempt(client, f"nobody{n}", "guess") for n in range(21)]

    assert answers[-1] == 429
    body = client.post("/api/auth/token/", {"username": "x", "password": "y"}, format="json").json()
    assert body["error"] == "throttled" and "Too many failed sign-ins" in body["message"]


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, "1.1.1.1, 2.2.2.2", "127.0.0.9"),
        (1, "1.1.1.1, 2.2.2.2", "2.2.2.2"),
        (2, "1.1.1.1, 2.2.2.2, 3.3.3.3", "2.2.2.2"),
        (3, "2.2.2.2", "2.2.2.2"),
        (1, "", "127.0.0.9"),
    ],
)
def test_the_client_address_is_the_nth_forwarded_one_from_the_right(
    settings, proxies, forwarded, expected
):
    from django.test import RequestFactory

    from annotation.api.throttles import client_address

    settings.TRUSTED_PROXIES = proxies
    request = RequestFactory().get("/", REMOTE_ADDR="127.0.0.9", HTTP_X_FORWARDED_FOR=forwarded)

    assert client_address(request) == expected


@pytest.mark.django_db
def test_the_django_admin_sign_in_is_throttled_too(services):
    from django.test import Client

    cache.clear()
    AdminFactory(username="boss")
    client = Client()

    answers = [
        client.post("/admin/login/", {"username": "boss", "password": f"guess{n}"}).status_code
        for n in range(21)
    ]
    with_right_password = client.post("/admin/login/", {"username": "boss", "password": PASSWORD})

    assert answers[:20] == [200] * 20  # the form again, with an error
    assert answers[20] == 429
    assert with_right_password.status_code == 429


@pytest.mark.django_db
def test_a_successful_django_admin_sign_in_does_not_count(services, settings):
    from django.test import Client

    cache.clear()
    settings.LOGIN_THROTTLE_RATE = "2/min"
    AdminFactory(username="boss")

    answers = [
        Client().post("/admin/login/", {"username": "boss", "password": PASSWORD}).status_code
        for _ in range(4)
    ]

    assert answers == [302] * 4


# --------------------------------------------------------------------------- websockets


def websocket(path: str, user):
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator

    from corefapp.routing import websocket_urlpatterns

    socket = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
    socket.scope["user"] = user
    return socket


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/ws/ping/", "/ws/annotations/{annotation}/", "/ws/projects/1/"])
def test_every_websocket_refuses_a_user_who_is_not_signed_in(services, path):
    from asgiref.sync import async_to_sync
    from django.contrib.auth.models import AnonymousUser

    _, annotation = assign(make_topic(), UserFactory())

    async def scenario():
        socket = websocket(path.format(annotation=annotation.pk), AnonymousUser())
        connected, code = await socket.connect()
        return connected, code

    assert async_to_sync(scenario)() == (False, 4403)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "path", ["/ws/annotations/abc/", "/ws/nothing/", "/ws/annotations/99999999999999999999999/"]
)
def test_a_websocket_path_no_route_names_is_refused_cleanly(services, path):
    from asgiref.sync import async_to_sync

    user = UserFactory()

    async def scenario():
        connected, code = await websocket(path, user).connect()
        return connected, code

    connected, code = async_to_sync(scenario)()
    assert not connected and code in (4403, 4404)


@pytest.mark.django_db(transaction=True)
def test_frames_that_are_not_json_objects_get_an_error_and_the_socket_stays_open(services):
    from asgiref.sync import async_to_sync

    user = UserFactory()

    async def scenario():
        socket = websocket("/ws/ping/", user)
        connected, _ = await socket.connect()
        assert connected
        errors = []
        for frame in ("not json", "[1, 2]", "[" * 100_000, None):
            if frame is None:
                await socket.send_to(bytes_data=b"\x00\x01")
            else:
                await socket.send_to(text_data=frame)
            errors.append(await socket.receive_json_from(timeout=5))
        await socket.send_json_to({"ping": "still here"})
        pong = await socket.receive_json_from(timeout=5)
        await socket.disconnect()
        return errors, pong

    errors, pong = async_to_sync(scenario)()
    assert [e["error"] for e in errors] == ["invalid_message"] * 4
    assert pong == {"pong": "still here"}
