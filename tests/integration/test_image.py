"""The image docker-compose.yml and deploy/kubernetes run, built from the Dockerfile and run.

One image, built here on base images made from Debian's packages (tests/integration/
image_bases.py: no image registry is reachable), runs each process of
corefapp/runtime/commands.py in a container of its own on the host network, against a
PostgreSQL and a Redis of this test's (an empty database, as a new deployment has):

- the migrations job (`prepare`, what compose's one-shot service and the Kubernetes Job run),
- web (`/healthz` 200 once the workers answer),
- the default worker and the models worker.

Then, through those containers only: an annotator signs in and saves an operation, a websocket
on the web container hears it, a suggestion run is served by the models container and a
release bundle is built by the worker container. Every container this test starts is named
with its prefix and removed whatever happens.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import secrets
import shutil
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest
import websockets

from corefapp.runtime import commands
from datasets.services.release_jobs import RELEASE_TASK
from modelserve.services.runs import RUN_TASK
from tests.integration import image_bases
from tests.integration.docker_host import Containers, docker, docker_daemon, image_exists
from tests.integration.stack import WebClient, wait_healthy
from tests.ports import free_port
from tests.services import start_services

REPO = Path(__file__).resolve().parents[2]
IMAGE = "corefapp:image-test"
CONTAINER_UID = 1000  # the Dockerfile's `useradd --uid 1000 corefapp`
# A cold build (no layer cached) takes minutes on 2 cores; the stack's start and the
# suggestion run on the CPU take the rest.
pytestmark = [pytest.mark.integration, pytest.mark.timeout(1500)]


def base_images() -> dict[str, str]:
    """The two bases, imported into the daemon from their tarballs when it lacks them."""
    bases = {"PYTHON_IMAGE": image_bases.python_tag(), "NODE_IMAGE": image_bases.node_tag()}
    for tag in bases.values():
        if image_exists(tag):
            continue
        tarball = image_bases.tarball(tag)
        if not tarball.exists():
            pytest.fail(
                f"{tarball} is missing: build the image test's base images with "
                "`make image-bases` (as root; make test runs it)",
                pytrace=False,
            )
        docker(
            "import",
            "--change",
            f"ENV PATH={image_bases.PATH_IN_IMAGE}",
            str(tarball),
            tag,
            timeout=600,
        )
    return bases


def build(bases: dict[str, str]) -> float:
    started = time.monotonic()
    arguments = [f"--build-arg={name}={tag}" for name, tag in bases.items()]
    result = docker(
        "build",
        "--network",
        "host",
        *arguments,
        "--tag",
        IMAGE,
        str(REPO),
        timeout=1200,
        check=False,
    )
    if result.returncode != 0:
        raise AssertionError(f"docker build failed:\n{(result.stdout + result.stderr)[-6000:]}")
    return time.monotonic() - started


@pytest.fixture(scope="module")
def image():
    """The image and its build times: the build, then a rebuild with nothing changed."""
    with docker_daemon():
        bases = base_images()
        first = build(bases)
        again = build(bases)
        size = int(docker("image", "inspect", "--format", "{{.Size}}", IMAGE).stdout)
        print(
            f"\nimage {IMAGE}: {size / 1e9:.2f} GB; build {first:.0f} s, "
            f"rebuild with nothing changed {again:.0f} s"
        )
        yield IMAGE


@pytest.fixture
def servers():
    """An empty PostgreSQL database and a Redis, as a new deployment has."""
    running = start_services(migrated=False)
    yield running
    running.stop()


def volume(path: Path) -> Path:
    """A folder the containers' user owns, as a named volume is."""
    path.mkdir(mode=0o700)
    os.chown(path, CONTAINER_UID, CONTAINER_UID)
    return path


@pytest.fixture
def data_dir(tmp_path):
    """The shared /data volume of compose (appdata): web serves what the worker stores."""
    yield volume(tmp_path / "data")
    shutil.rmtree(tmp_path / "data", ignore_errors=True)


@pytest.fixture
def backups_dir(tmp_path):
    yield volume(tmp_path / "backups")
    shutil.rmtree(tmp_path / "backups", ignore_errors=True)


class ContainerWeb(WebClient):
    def __init__(self, port: int, password: str):
        self.port = port
        self.password = password


async def hear_applied(port: int, annotation: int, cookie: str, send) -> dict:
    async with websockets.connect(
        f"ws://127.0.0.1:{port}/ws/annotations/{annotation}/",
        origin=f"http://localhost:{port}",
        additional_headers={"Cookie": cookie},
    ) as socket:
        await asyncio.to_thread(send)
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), 20))
            if message.get("type") == "applied":
                return message


def poll(what, until, timeout: float, logs) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        answer = what()
        if until(answer):
            return answer
        if time.monotonic() > deadline:
            raise AssertionError(f"still {answer} after {timeout} s\n{logs()}")
        time.sleep(0.5)


def test_the_image_runs_every_process_of_the_stack(image, servers, data_dir, backups_dir):
    password = secrets.token_urlsafe(12)
    port = free_port()
    env = {
        "DATABASE_URL": servers.database_url,
        "REDIS_URL": servers.redis_url,
        "SECRET_KEY": secrets.token_urlsafe(40),
        "DEMO_PASSWORD": password,
        "ALLOWED_HOSTS": "localhost,127.0.0.1",
        "WEB_CONCURRENCY": "1",
    }
    containers = Containers(image, prefix=f"corefapp-image-test-{os.getpid()}")
    volumes = {data_dir: "/data"}
    try:
        prepare = containers.run("migrate", commands.prepare_command(), env=env, volumes=volumes)
        assert containers.wait_exit(prepare, timeout=600) == 0, containers.all_logs()
        # A Kubernetes web pod's init container: done at once, the Job has migrated.
        migrated = containers.run(
            "wait-for-migrations", commands.migrations_applied_command(), env=env, volumes=volumes
        )
        assert containers.wait_exit(migrated, timeout=120) == 0, containers.all_logs()
        containers.run(
            "web", commands.web_command(host="127.0.0.1", port=port), env=env, volumes=volumes
        )
        worker = containers.run("worker", commands.worker_command(), env=env, volumes=volumes)
        models = containers.run("models", commands.model_worker_command(), env=env, volumes=volumes)
        web = ContainerWeb(port, password)
        health = wait_healthy(web, timeout=300)
        assert health["http_status"] == 200, (health, containers.all_logs())

        # An annotator signs in and saves an operation; the web container's websocket hears it.
        token = web.token("annotator1")
        status, mine = web.api("GET", "/api/assignments/mine/", token=token)
        assert status == 200, mine
        # A SciCo topic of real work: suggestions are off on practice topics, and the ChEMU
        # model is not in the image (it trains from the ChEMU-Ref file, which is not either).
        row = next(
            (r for r in mine if not r.get("practice") and not r["project"]["anaphora"]), None
        )
        assert row is not None, f"annotator1 has no assignment of real work in the demo: {mine}"
        status, topic = web.api("GET", f"/api/topics/{row['topic']['id']}/", token=token)
        assert status == 200, topic
        mention = topic["mentions"][0]["id"]
        saved: dict = {}

        def save():
            saved["answer"] = web.api(
                "POST",
                f"/api/annotations/{row['annotation']}/operations/",
                {
                    "expected_version": row["version"],
                    "operation": {"op": "assign", "mention": mention, "cluster": None},
                },
                token=token,
            )

        heard = asyncio.run(
            hear_applied(port, row["annotation"], web.session_cookie("annotator1"), save)
        )
        status, applied = saved["answer"]
        assert status == 200, applied
        assert heard["version"] == applied["version"] == row["version"] + 1

        # A suggestion run, served by the models container.
        status, run = web.api(
            "POST", f"/api/topics/{row['topic']['id']}/suggestion-runs/", {}, token=token
        )
        assert status == 201, run
        listing = poll(
            lambda: web.api(
                "GET", f"/api/topics/{row['topic']['id']}/suggestion-runs/", token=token
            )[1],
            lambda answer: answer["runs"][0]["status"] in ("succeeded", "failed"),
            timeout=300,
            logs=containers.all_logs,
        )
        assert listing["runs"][0]["status"] == "succeeded", (listing, containers.all_logs())
        assert any(worker.startswith("models@") for worker in listing["model_workers"]), listing
        # Only the models container consumes the model queues of this Redis; its log names the
        # task it received.
        assert RUN_TASK in containers.logs(models), containers.logs(models)[-3000:]

        # A release bundle, built by the worker container, downloaded from the web container.
        admin = web.token("admin")
        project = row["project"]["id"]
        status, job = web.api("POST", f"/api/projects/{project}/release/", {}, token=admin)
        assert status == 202, job
        built = poll(
            lambda: web.api("GET", f"/api/release-jobs/{job['job']}/", token=admin)[1],
            lambda answer: answer["status"] in ("succeeded", "failed"),
            timeout=300,
            logs=containers.all_logs,
        )
        assert built["status"] == "succeeded", (built, containers.all_logs())
        assert RELEASE_TASK in containers.logs(worker), containers.logs(worker)[-3000:]
        download = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/projects/{project}/release/",
            headers={"Authorization": f"Token {admin}"},
        )
        with urllib.request.urlopen(download, timeout=30) as response:
            bundle = zipfile.ZipFile(io.BytesIO(response.read()))
        assert "DATASHEET.md" in bundle.namelist()
        assert list(data_dir.rglob("*.zip")), "the release bundle is not in the shared /data"

        # The backup CronJob's command, into a backups volume of its own.
        backup = containers.run(
            "backup",
            commands.backup_command("/backups"),
            env=env,
            volumes={**volumes, backups_dir: "/backups"},
        )
        assert containers.wait_exit(backup, timeout=300) == 0, containers.logs(backup)
        assert len(list(backups_dir.glob("corefapp-*.tar.gz"))) == 1, containers.logs(backup)
    finally:
        left = containers.remove_all()
        assert left == [], f"containers left behind: {left}"


def test_the_image_holds_every_app_and_checks_clean(image):
    """django.setup() and `manage.py check` in the image: an app of INSTALLED_APPS that the
    image lacks fails here (the image once copied 3 of 9)."""
    result = docker(
        "run",
        "--rm",
        "--network",
        "host",
        "--env",
        f"SECRET_KEY={secrets.token_urlsafe(40)}",
        image,
        "python",
        "manage.py",
        "check",
        "--fail-level",
        "ERROR",
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
