"""STORAGE_URL=s3://...: uploads, release bundles and trained models live in a real
S3-compatible server, and nothing is written under var/.

The server is moto's server mode (`moto[server]` from PyPI, ThreadedMotoServer on a free port):
it speaks the S3 HTTP API to boto3 exactly as a bucket does, installs with pip alone and runs in
the test process, where MinIO would need a binary downloaded at run time and Docker or root
(docs/object-storage.md). The import job is taken by a real Celery worker process that is given
only the bucket's address: it shares no folder with the web side.
"""

from __future__ import annotations

import io
import json
import time
import zipfile
from pathlib import Path

import boto3
import pytest
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from rest_framework.test import APIClient

from annotation.models import Mention, Topic
from corefapp.runtime.defaults import var_dir
from corefapp.storage import default_storage_setting
from modelserve.backends.chemu_mentions import DIRECTORY, mentions_trained
from modelserve.model_store import model_local, models_local_for, stored_version
from modelserve.services.trainings import model_training_execute, model_training_request
from tests.factories import AdminFactory, ProjectFactory
from tests.paths import CHEMU_TRAIN
from tests.ports import free_port
from tests.workers import Worker

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

BUCKET = "corefapp-test"
CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "test-key",
    "AWS_SECRET_ACCESS_KEY": "test-secret",
    "AWS_DEFAULT_REGION": "us-east-1",
}


@pytest.fixture(scope="module")
def s3_server():
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=free_port(), verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    client = boto3.client("s3", endpoint_url=endpoint, **_boto_credentials())
    client.create_bucket(Bucket=BUCKET)
    yield endpoint, client
    server.stop()


def _boto_credentials() -> dict:
    return {
        "aws_access_key_id": CREDENTIALS["AWS_ACCESS_KEY_ID"],
        "aws_secret_access_key": CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
        "region_name": CREDENTIALS["AWS_DEFAULT_REGION"],
    }


def _var_files() -> dict[str, tuple[int, int]]:
    """Every file under var/ with size and mtime, but the test servers' folder (var/test) and
    the benchmark smoke runs' logs (var/bench): the other pytest processes of `make test`
    write those while this test runs."""
    root = var_dir()
    files = {}
    for path in root.rglob("*"):
        if path.relative_to(root).parts[0] in ("test", "bench"):
            continue
        try:
            if path.is_file():
                files[str(path.relative_to(root))] = (path.stat().st_size, path.stat().st_mtime_ns)
        except FileNotFoundError:  # removed by another process between listing and stat
            continue
    return files


@pytest.fixture
def bucket(s3_server, settings, monkeypatch, tmp_path):
    """This process and the workers it starts store in the bucket (prefix per test); var/
    must be exactly as it was afterwards."""
    endpoint, client = s3_server
    prefix = f"instance-{time.monotonic_ns()}"
    url = f"s3://{BUCKET}/{prefix}"
    cache = tmp_path / "model-cache"
    env = {
        "STORAGE_URL": url,
        "STORAGE_ENDPOINT_URL": endpoint,
        "MODEL_CACHE_DIR": str(cache),
        **CREDENTIALS,
    }
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    settings.STORAGE_URL = url
    settings.STORAGES = {
        **settings.STORAGES,
        "default": default_storage_setting(url, var_dir=var_dir(), endpoint_url=endpoint),
    }
    settings.MODELS_DIR = cache
    before = _var_files()

    def keys() -> list[str]:
        listed = client.list_objects_v2(Bucket=BUCKET, Prefix=f"{prefix}/")
        return sorted(item["Key"][len(prefix) + 1 :] for item in listed.get("Contents", []))

    yield env, keys
    assert _var_files() == before, "a file was written under var/"


def small_scico(topics: int, mentions_each: int) -> bytes:
    lines = [
        json.dumps(
            {
                "id": f"t{t}",
                "tokens": [[f"w{t}_{i}" for i in range(mentions_each)]],
                "mentions": [[0, i, i, i % 7] for i in range(mentions_each)],
                "relations": [],
            }
        )
        for t in range(topics)
    ]
    return ("\n".join(lines) + "\n").encode()


def test_an_import_job_and_a_release_bundle_go_through_the_bucket(bucket, services, settings):
    env, keys = bucket
    settings.IMPORT_ASYNC_BYTES = 1_000  # this upload becomes a job for the worker
    project = ProjectFactory(hierarchy=True, name="Bucket project")
    client = APIClient()
    client.force_authenticate(AdminFactory())
    content = small_scico(topics=3, mentions_each=50)

    answer = client.post(
        f"/api/projects/{project.pk}/imports/",
        {"file": SimpleUploadedFile("gold.jsonl", content), "format": "scico"},
    )

    assert answer.status_code == 202, answer.content
    (stored,) = [key for key in keys() if key.startswith("imports/")]
    assert stored.endswith("-gold.jsonl")
    assert default_storage.open(stored).read() == content  # the upload itself, in the bucket
    worker = Worker(
        database_url=services.postgres.url(connection.settings_dict["NAME"]),
        redis_url=services.redis_url,
        secret_key=settings.SECRET_KEY,
        queues="default",
        name="storage-test",
        extra_env=env,
    )
    try:
        worker.wait_ready()
        body = _poll(client, answer.json()["job"])
        assert body["status"] == "succeeded", (body, worker.log()[-3000:])
        # The same worker builds the release bundle, storing it in the bucket.
        made = client.post(f"/api/projects/{project.pk}/release/", {"formats": ["scico"]})
        assert made.status_code == 202, made.content
        built = _poll(client, made.json()["job"], jobs="release-jobs")
    finally:
        worker.stop()
    assert Mention.objects.filter(topic__project=project).count() == 150
    assert Topic.objects.filter(project=project).count() == 3
    assert not [key for key in keys() if key.startswith("imports/")]  # removed once imported

    assert built["status"] == "succeeded", (built, worker.log()[-3000:])
    name = built["result"]["name"]
    assert name == f"releases/{project.pk}/Bucket project-release.zip"
    assert name in keys()
    downloaded = client.get(f"/api/projects/{project.pk}/release/")
    assert downloaded.status_code == 200
    bundle = zipfile.ZipFile(io.BytesIO(b"".join(downloaded.streaming_content)))
    assert "DATASHEET.md" in bundle.namelist()
    released = [json.loads(line) for line in bundle.read("scico/all.jsonl").splitlines()]
    assert [topic["id"] for topic in released] == ["t0", "t1", "t2"]
    assert [len(topic["mentions"]) for topic in released] == [50, 50, 50]


def _poll(client, job: int, timeout: float = 120, jobs: str = "import-jobs") -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = client.get(f"/api/{jobs}/{job}/").json()
        if body["status"] in ("succeeded", "failed"):
            return body
        time.sleep(0.2)
    raise AssertionError(f"job {job} still {body['status']} after {timeout} s")


def test_a_release_not_made_yet_is_a_json_404(bucket):
    project = ProjectFactory(hierarchy=True)
    client = APIClient()
    client.force_authenticate(AdminFactory())

    answer = client.get(f"/api/projects/{project.pk}/release/")

    assert answer.status_code == 404
    assert "No release of this project is stored yet" in json.dumps(answer.json())


def test_a_trained_model_is_uploaded_and_a_worker_with_an_empty_cache_downloads_it(
    bucket, tmp_path_factory, settings
):
    _, keys = bucket
    tiny = tmp_path_factory.mktemp("train") / "train.jsonlines"
    with open(CHEMU_TRAIN) as source:
        tiny.write_text("".join(next(source) for _ in range(2)))
    training = model_training_request()
    assert training is not None

    outcome = model_training_execute(
        training_id=training.pk,
        worker="test",
        train_file=tiny,
        epochs=2,
        hidden=16,
        holdout_fraction=0.0,
        device="cpu",
    )

    assert outcome.startswith("succeeded"), outcome
    stored = [key for key in keys() if key.startswith(f"models/{DIRECTORY}/")]
    assert f"models/{DIRECTORY}/.stored" in stored
    assert len(stored) > 1
    assert model_training_request() is None  # the bucket says it is trained
    # Another worker: its own, empty cache folder.
    other = tmp_path_factory.mktemp("other-worker")
    settings.MODELS_DIR = other
    assert not mentions_trained(other / DIRECTORY)

    # What a model worker does before a chemu run (modelserve/services/execution.py): the
    # backend's model folders from the bucket (the link model was never stored: left alone).
    models_local_for("chemu", {})

    folder = other / DIRECTORY
    assert not (other / "chemu").exists()
    assert mentions_trained(folder)
    assert (folder / ".stored").read_text() == stored_version(DIRECTORY)
    first = {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}
    assert model_local(DIRECTORY) == folder  # up to date: not downloaded again
    assert {p.name: p.stat().st_mtime_ns for p in folder.iterdir()} == first
    _loads(folder)


def _loads(folder: Path) -> None:
    """The downloaded tagger is one the model code can load."""
    from modelserve.backends.chemu_mentions import load_mentions

    assert load_mentions(folder, "cpu") is not None
