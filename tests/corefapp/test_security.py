"""Untrusted input and unauthenticated clients stay harmless."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.factories import PASSWORD, AdminFactory, UserFactory, assign, make_topic, mention_ids
from tests.sockets import WEBSOCKET_TEST_TIMEOUT, communicator

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

    # The header is ignored: every guess came from one address, which is refused for that
    # account; another account at the same address (a colleague in the lab) is not.
    assert answers == [200, 429]


@pytest.mark.django_db
def test_successful_sign_ins_never_count_against_the_throttle(services):
    cache.clear()
    users = [UserFactory(username=f"lab{n}") for n in range(30)]
    client = APIClient()

    answers = [token_attempt(client, user.username, PASSWORD) for user in users]

    assert answers == [200] * 30


@pytest.mark.django_db
def test_an_account_under_attack_from_other_addresses_lets_its_owner_in_after_a_delay(
    services, settings
):
    cache.clear()
    settings.TRUSTED_PROXIES = 1
    settings.LOGIN_ACCOUNT_DELAY_SECONDS = 1.0
    UserFactory(username="victim")
    client = APIClient()

    guesses = [
        token_attempt(client, "victim", f"guess{n}", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}")
        for n in range(25)
    ]
    again = token_attempt(client, "victim", "guess-again", HTTP_X_FORWARDED_FOR="10.0.0.3")
    started = time.monotonic()
    owner = token_attempt(client, "victim", PASSWORD, HTTP_X_FORWARDED_FOR="10.0.1.1")
    waited = time.monotonic() - started

    assert guesses == [400] * 25  # one guess per address, each a real password check
    assert again == 429  # an address that failed on the account under attack
    assert owner == 200
    assert waited >= 1.0


@pytest.mark.django_db
def test_one_address_has_a_higher_ceiling_than_one_account_at_it(services, settings):
    cache.clear()
    settings.LOGIN_ADDRESS_THROTTLE_RATE = "30/min"
    client = APIClient()

    answers = [token_attempt(client, f"nobody{n}", "guess") for n in range(31)]

    assert answers[:30] == [400] * 30  # a lab where many mistype is not locked out at 20
    assert answers[30] == 429
    body = client.post("/api/auth/token/", {"username": "x", "password": "y"}, format="json").json()
    assert body["error"] == "throttled"
    assert "Too many failed sign-ins" in body["message"]


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

    from accounts.api.throttles import client_address

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


@pytest.mark.timeout(WEBSOCKET_TEST_TIMEOUT)
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/ws/ping/", "/ws/annotations/{annotation}/", "/ws/projects/1/"])
def test_every_websocket_refuses_a_user_who_is_not_signed_in(services, path):
    from asgiref.sync import async_to_sync
    from django.contrib.auth.models import AnonymousUser

    _, annotation = assign(make_topic(), UserFactory())

    async def scenario():
        async with communicator(path.format(annotation=annotation.pk), AnonymousUser()) as socket:
            return await socket.connect()

    assert async_to_sync(scenario)() == (False, 4403)


@pytest.mark.timeout(WEBSOCKET_TEST_TIMEOUT)
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "path", ["/ws/annotations/abc/", "/ws/nothing/", "/ws/annotations/99999999999999999999999/"]
)
def test_a_websocket_path_no_route_names_is_refused_cleanly(services, path):
    from asgiref.sync import async_to_sync

    user = UserFactory()

    async def scenario():
        async with communicator(path, user) as socket:
            return await socket.connect()

    connected, code = async_to_sync(scenario)()
    assert not connected
    assert code in (4403, 4404)


@pytest.mark.timeout(WEBSOCKET_TEST_TIMEOUT)
@pytest.mark.django_db(transaction=True)
def test_frames_that_are_not_json_objects_get_an_error_and_the_socket_stays_open(services):
    from asgiref.sync import async_to_sync

    user = UserFactory()

    async def scenario():
        async with communicator("/ws/ping/", user) as socket:
            connected, _ = await socket.connect()
            assert connected
            errors = []
            # A lone surrogate (JSON can spell it) cannot pass the channel layer: it closed the
            # socket with a server error; a NUL is refused as every HTTP body refuses it.
            unstorable = ('{"ping": "\\ud800"}', '{"ping": "\\u0000"}')
            for frame in ("not json", "[1, 2]", "[" * 100_000, *unstorable, None):
                if frame is None:
                    await socket.send_to(bytes_data=b"\x00\x01")
                else:
                    await socket.send_to(text_data=frame)
                errors.append(await socket.receive_json_from(timeout=5))
            await socket.send_json_to({"ping": "still here"})
            pong = await socket.receive_json_from(timeout=5)
        return errors, pong

    errors, pong = async_to_sync(scenario)()
    assert [e["error"] for e in errors] == ["invalid_message"] * 6
    assert pong == {"pong": "still here"}


# --------------------------------------------------------------------------- defaults


def settings_in_subprocess(env_overrides: dict, tmp_path, names: list[str]) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG")}
    env.update(COREFAPP_VAR_DIR=str(tmp_path), SECRET_KEY="x" * 50, **env_overrides)
    code = (
        "import django, json, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', "
        "'corefapp.settings'); django.setup(); from django.conf import settings; "
        f"print(json.dumps({{n: getattr(settings, n, None) for n in {names!r}}}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        check=True,
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return json.loads(result.stdout.splitlines()[-1])


SECURE_NAMES = [
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_HSTS_SECONDS",
    "SECURE_PROXY_SSL_HEADER",
]


def test_secure_cookies_and_hsts_are_off_by_default_for_make_ups_plain_http(tmp_path):
    assert settings_in_subprocess({}, tmp_path, SECURE_NAMES) == {
        "SESSION_COOKIE_SECURE": False,
        "CSRF_COOKIE_SECURE": False,
        "SECURE_HSTS_SECONDS": 0,
        "SECURE_PROXY_SSL_HEADER": None,
    }


def test_secure_cookies_hsts_and_a_trusted_proxy_are_set_from_the_environment(tmp_path):
    env = {"SECURE_COOKIES": "true", "SECURE_HSTS_SECONDS": "31536000", "TRUSTED_PROXIES": "1"}

    assert settings_in_subprocess(env, tmp_path, SECURE_NAMES) == {
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "SECURE_HSTS_SECONDS": 31536000,
        "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"],
    }


@pytest.mark.django_db
def test_with_secure_cookies_on_the_sign_in_cookies_are_secure_and_https_answers_carry_hsts(
    services, settings
):
    cache.clear()
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = True
    settings.SECURE_HSTS_SECONDS = 3600
    UserFactory(username="secure")
    client = APIClient()

    client.get("/api/auth/csrf/", secure=True)
    response = client.post(
        "/api/auth/login/",
        {"username": "secure", "password": PASSWORD},
        format="json",
        secure=True,
    )

    assert response.status_code == 200
    assert client.cookies["sessionid"]["secure"]
    assert client.cookies["csrftoken"]["secure"]
    assert response["Strict-Transport-Security"] == "max-age=3600"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/me/", "/api/nothing/", "/api/docs/", "/admin/login/"])
def test_every_answer_carries_the_content_security_policy(client, path, settings):
    response = client.get(path)

    assert response["Content-Security-Policy"] == settings.CONTENT_SECURITY_POLICY
    assert "script-src 'self';" in response["Content-Security-Policy"]


@pytest.mark.django_db
def test_the_api_docs_page_has_no_inline_script_and_its_inline_style_is_allowed(client, settings):
    import base64
    import hashlib
    import re

    client.force_login(UserFactory())
    page = client.get("/api/docs/").content.decode()

    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.DOTALL)
    styles = re.findall(r"<style>(.*?)</style>", page, re.DOTALL)
    assert scripts
    assert all("src=" in attributes and not body.strip() for attributes, body in scripts)
    for style in styles:
        digest = base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in settings.CONTENT_SECURITY_POLICY
    script = client.get(re.search(r'<script src="([^"]*script=[^"]*)"', page).group(1))
    assert script.status_code == 200
    assert "SwaggerUIBundle" in script.content.decode()
