"""Daphne and headless Chromium for the browser tests and the frontend benchmark.

`start_daphne` runs the real ASGI application (HTTP + websockets) in a subprocess against a
given PostgreSQL database and Redis, the way `make up` runs it; `launch_chromium` starts
Debian's Chromium through Playwright (Playwright cannot download its own browsers here).
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from tests.ports import free_port

REPO = Path(__file__).resolve().parents[2]
FRONTEND_MANIFEST = REPO / "frontend" / "dist" / ".vite" / "manifest.json"
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


class MissingPrerequisite(RuntimeError):
    pass


def require_frontend() -> None:
    if not FRONTEND_MANIFEST.exists():
        raise MissingPrerequisite(
            f"{FRONTEND_MANIFEST} is missing: build the frontend with `make frontend` before the "
            "browser tests."
        )


def chromium_path() -> str:
    for candidate in CHROMIUM_CANDIDATES:
        if os.path.exists(candidate):
            return candidate
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    raise MissingPrerequisite(
        "Chromium is missing (looked for /usr/bin/chromium): install it with "
        "`apt-get install chromium` (the browser tests need a real browser and are never skipped)."
    )


@dataclass
class Daphne:
    url: str
    process: subprocess.Popen
    log_path: Path
    env: dict = field(default_factory=dict)

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)


def start_daphne(
    *,
    database_url: str,
    redis_url: str,
    log_dir: Path,
    secret_key: str | None = None,
    timeout: float = 60,
    launcher: list[str] | None = None,
    options: list[str] | None = None,
) -> Daphne:
    """`launcher` replaces the daphne executable (a module that adjusts something first);
    `options` go before the application, e.g. Daphne's ping interval."""
    port = free_port()
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        SECRET_KEY=secret_key or secrets.token_urlsafe(40),
        DEBUG="false",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        CONN_MAX_AGE="0",
        LOGIN_THROTTLE_RATE="1000/min",
        DJANGO_SETTINGS_MODULE="corefapp.settings",
    )
    for limit in ("LOGIN_ADDRESS_THROTTLE_RATE", "LOGIN_ACCOUNT_THROTTLE_RATE"):
        env.setdefault(limit, "1000/min")  # a test may set its own
    daphne = str(Path(sys.executable).with_name("daphne"))
    log_dir.mkdir(parents=True, exist_ok=True)
    log_path = log_dir / f"daphne-{port}.log"
    with open(log_path, "w") as log:  # the child keeps its own copy
        process = subprocess.Popen(
            [
                *(launcher or [daphne]),
                *("-b", "127.0.0.1", "-p", str(port)),
                *(options or []),
                "corefapp.asgi:application",
            ],
            cwd=REPO,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    server = Daphne(url=f"http://127.0.0.1:{port}", process=process, log_path=log_path, env=env)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"daphne exited with {process.returncode}:\n{server.log_tail()}")
        try:
            with urllib.request.urlopen(f"{server.url}/api/auth/csrf/", timeout=2) as response:
                if response.status == 200:
                    return server
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    server.stop()
    raise RuntimeError(f"daphne did not answer within {timeout} s:\n{server.log_tail()}")


def launch_chromium(playwright):
    return playwright.chromium.launch(
        executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS
    )


def sign_in(context, base_url: str, user) -> None:
    """Sign a browser context in without the login form (that has its own test): a session made
    here, in the same database, signed with the same SECRET_KEY as the server's."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    host = base_url.split("//", 1)[1].split(":")[0]
    context.add_cookies(
        [
            {
                "name": "sessionid",
                "value": client.cookies["sessionid"].value,
                "domain": host,
                "path": "/",
            },
        ]
    )
