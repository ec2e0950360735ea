"""Single sign-on in a real browser against a real OpenID Connect provider.

The provider is npm's oidc-provider on Node (tools/oidc-provider/serve.mjs, installed by
`make install`/`make test` into tools/oidc-provider/node_modules), on a free port, with one
static client and two users: alice (groups corefapp-admins and staff) and bob (no group).
The app runs in a Daphne of its own, configured for it by the environment exactly as an
operator would (OIDC_ISSUER: endpoints from discovery). The sign-in page shows the provider's
button; clicking it goes through the provider's sign-in and consent pages and back, signed in,
with the role that the groups claim maps to.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS
from tests.e2e.server import start_daphne
from tests.ports import free_port

REPO = Path(__file__).resolve().parents[2]
PROVIDER = REPO / "tools" / "oidc-provider"
CLIENT_ID, CLIENT_SECRET = "corefapp-test", "a client secret for the test"
OIDC_ENV = {
    "OIDC_CLIENT_ID": CLIENT_ID,
    "OIDC_CLIENT_SECRET": CLIENT_SECRET,
    "OIDC_PROVIDER_NAME": "Test University",
    "OIDC_SCOPES": "openid email profile groups",
    "OIDC_GROUPS_CLAIM": "groups",
    "OIDC_ROLE_MAPPING": "corefapp-admins=admin,annotators=annotator",
}


def _start_provider(port: int, redirect_uri: str) -> subprocess.Popen:
    if not (PROVIDER / "node_modules" / "oidc-provider").is_dir():
        pytest.fail(
            f"oidc-provider is not installed: run `npm ci` in {PROVIDER} (make test does)",
            pytrace=False,
        )
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is missing: install Node.js 20 or newer", pytrace=False)
    log_path = ARTIFACTS / "logs" / f"oidc-provider-{port}.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "w") as log:  # the child keeps its own copy
        process = subprocess.Popen(
            [node, str(PROVIDER / "serve.mjs")],
            env=dict(
                os.environ,
                OIDC_TEST_PORT=str(port),
                OIDC_TEST_CLIENT_ID=CLIENT_ID,
                OIDC_TEST_CLIENT_SECRET=CLIENT_SECRET,
                OIDC_TEST_REDIRECT_URI=redirect_uri,
            ),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the provider exited:\n{log_path.read_text()}")
        try:
            url = f"http://127.0.0.1:{port}/.well-known/openid-configuration"
            with urllib.request.urlopen(url, timeout=2):
                return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"the provider did not answer:\n{log_path.read_text()}")


@pytest.fixture(scope="module")
def sso_server(django_db_setup, services):
    """A Daphne configured for the provider, and the provider."""
    provider_port = free_port()
    database_url = services.postgres.url(connection.settings_dict["NAME"])
    with pytest.MonkeyPatch.context() as patch:
        for name, value in OIDC_ENV.items():
            patch.setenv(name, value)
        patch.setenv("OIDC_ISSUER", f"http://127.0.0.1:{provider_port}")
        server = start_daphne(
            database_url=database_url,
            redis_url=services.redis_url,
            log_dir=ARTIFACTS / "logs",
            secret_key=settings.SECRET_KEY,
        )
    provider = None
    try:
        provider = _start_provider(provider_port, f"{server.url}/oidc/callback/")
        yield server
    finally:
        if provider is not None:
            provider.terminate()
            provider.wait(10)
        server.stop()


def _sign_in_at_the_provider(browser, server, login: str):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=server.url)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto("/login")
    page.get_by_role("link", name="Sign in with Test University").click()
    # The provider's own pages (oidc-provider's development interactions).
    page.locator("input[name=login]").fill(login)
    page.locator("input[name=password]").fill("any password: the provider checks none")
    page.locator("button[type=submit]").click()
    page.get_by_role("button", name="Continue").click()  # consent to the scopes
    page.wait_for_url(f"{server.url}/**")
    return context, page


def test_a_user_in_a_mapped_group_signs_in_with_the_provider_and_is_an_admin(
    browser, sso_server, artifacts
):
    context, page = _sign_in_at_the_provider(browser, sso_server, "alice")
    try:
        expect(page.locator(".muted", has_text="alice")).to_be_visible()
        expect(page.get_by_role("link", name="Manage")).to_be_visible()
        page.screenshot(path=str(artifacts / "sso-signed-in-admin.png"))
    finally:
        context.close()
    alice = get_user_model().objects.get(username="alice")
    assert alice.email == "alice@university.example"
    assert alice.is_staff
    assert not alice.has_usable_password()  # signs in through the provider only


def test_a_user_without_groups_is_created_with_no_role_and_later_sign_ins_follow_the_claim(
    browser, sso_server
):
    context, page = _sign_in_at_the_provider(browser, sso_server, "bob")
    try:
        expect(page.locator(".muted", has_text="bob")).to_be_visible()
        expect(page.get_by_role("link", name="Manage")).to_have_count(0)
    finally:
        context.close()
    bob = get_user_model().objects.get(username="bob")
    assert not bob.is_staff
    # An admin made bob an admin here; his next sign-in takes the role from the claim again.
    bob.is_staff = True
    bob.save()

    context, page = _sign_in_at_the_provider(browser, sso_server, "bob")
    try:
        expect(page.locator(".muted", has_text="bob")).to_be_visible()
        expect(page.get_by_role("link", name="Manage")).to_have_count(0)
    finally:
        context.close()
    bob.refresh_from_db()
    assert not bob.is_staff
    assert get_user_model().objects.filter(email="bob@university.example").count() == 1


def test_the_sign_in_page_of_a_server_without_a_provider_shows_no_button(new_page):
    page = new_page()
    page.goto("/login")
    expect(page.get_by_role("button", name="Sign in")).to_be_visible()
    expect(page.get_by_role("link", name="Sign in with", exact=False)).to_have_count(0)
