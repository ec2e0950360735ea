"""Generated bad input never makes the API fail: every operation of the committed OpenAPI schema
(frontend/src/api/schema.json), as an admin, as an annotator and signed out, gets schema-shaped
and schema-breaking requests (Schemathesis' positive and negative modes) against objects that
exist, and answers each with a 4xx or a success, never a 5xx.

Bounded and repeatable: a fixed number of examples per operation, role and mode, derandomized
(the same requests on every run), no example database, no shrinking. Signed out, an operation
that needs a sign-in is refused before its body is read (DRF authenticates and checks
permissions before the handler parses anything), so a few examples show that refusal; the
operations open to everyone get the full number.
"""

from __future__ import annotations

import re

import pytest
import schemathesis
from django.core import signals
from django.core.cache import cache
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode

from annotation.infra import state_cache
from tests.annotation.api.test_api_schema import COMMITTED_SCHEMA
from tests.factories import AdminFactory, UserFactory, assign, make_topic, mention_ids

pytestmark = pytest.mark.django_db

EXAMPLES_PER_MODE = 8
SIGNED_OUT_REFUSAL_EXAMPLES = 2
SIGNED_OUT = frozenset({401, 403, 404})
ROLES = ("admin", "annotator", "anonymous")
SCHEMA = schemathesis.openapi.from_path(COMMITTED_SCHEMA)
OPERATIONS = {
    f"{operation.method.upper()} {operation.path}": operation
    for result in SCHEMA.get_all_operations()
    for operation in [result.ok()]
}
APP = get_wsgi_application()


@pytest.fixture
def in_process_wsgi():
    """Requests go through Django's WSGI handler in this thread, inside the test's transaction:
    like Django's test client, keep the handler from closing the test's connection."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def world(in_process_wsgi, settings):
    """One project with a topic, an annotator with an assignment and a started annotation, an
    admin; path ids name these (so generated bodies reach the code behind the look-ups)."""
    state_cache.clear()
    cache.clear()
    # Failed sign-ins are throttled; the fuzz must not throttle itself.
    settings.LOGIN_THROTTLE_RATE = "1000000/min"
    settings.LOGIN_ADDRESS_THROTTLE_RATE = "1000000/min"
    settings.LOGIN_ACCOUNT_THROTTLE_RATE = "1000000/min"
    annotator, admin = UserFactory(), AdminFactory()
    topic = make_topic()
    assignment, annotation = assign(topic, annotator)
    from annotation.services.operations import annotation_operation_apply

    annotation_operation_apply(
        annotation_id=annotation.pk,
        user=annotator,
        payload={"op": "assign", "mention": mention_ids(topic)[0], "cluster": None},
        expected_version=0,
    )
    from annotation.models import ImportJob

    job = ImportJob.objects.create(
        project_id=topic.project_id, user=admin, file_name="big.jsonl", format="scico", path=""
    )
    from modelserve.models import ModelEvaluation

    evaluation = ModelEvaluation.objects.create(
        project_id=topic.project_id, requested_by=admin, backend="singleton"
    )
    from datasets.models import ReleaseJob

    release = ReleaseJob.objects.create(project_id=topic.project_id, user=admin)
    from corpus.models import Candidate, CandidateRun, Corpus, CorpusImport

    corpus = Corpus.objects.create(name="fuzzed corpus")
    corpus.projects.add(topic.project_id)
    corpus_import = CorpusImport.objects.create(
        corpus=corpus, user=admin, file_name="corpus.jsonl", format="corpus-jsonl", path=""
    )
    candidate_run = CandidateRun.objects.create(
        corpus=corpus, encoder="minilm", k=5, floor=0.5, max_mentions=10, min_mentions=1
    )
    candidate = Candidate.objects.create(run=candidate_run, name="fuzzed", concepts=["BERT"])
    ids = {
        "annotations": annotation.pk,
        "model-evaluations": evaluation.pk,
        "release-jobs": release.pk,
        "import-jobs": job.pk,
        "corpora": corpus.pk,
        "corpus-imports": corpus_import.pk,
        "candidate-runs": candidate_run.pk,
        "candidates": candidate.pk,
        "assignments": assignment.pk,
        "projects": topic.project_id,
        "topics": topic.pk,
        "users": annotator.pk,
    }
    tokens = {
        "admin": Token.objects.create(user=admin).key,
        "annotator": Token.objects.create(user=annotator).key,
    }
    return ids, tokens


def operation_has_inputs(operation) -> bool:
    definition = operation.definition.raw
    return bool(definition.get("parameters") or definition.get("requestBody"))


def path_parameters(path: str, ids: dict[str, int]) -> dict[str, int]:
    match = re.match(r"/api/([a-z-]+)/\{id\}", path)
    return {"id": ids[match.group(1)]} if match else {}


def open_to_everyone(operation) -> bool:
    """The schema's security lists `{}` for an operation that takes no sign-in."""
    return {} in (operation.definition.raw.get("security") or [{}])


def no_server_error(
    operation,
    mode: GenerationMode,
    path: dict,
    headers: dict,
    label: str,
    examples: int,
    allowed: frozenset[int] | None = None,
):
    """Send `examples` generated requests of `operation`; each must answer below 500, and with
    one of `allowed` when given."""

    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode, path_parameters=path))
    def send(case):
        response = case.call(app=APP, headers=headers)
        assert response.status_code < 500, (
            f"{label} ({mode.value}): {response.status_code}\n"
            f"{case.as_curl_command()}\n{response.text[:2000]}"
        )
        assert allowed is None or response.status_code in allowed, (
            f"{label} ({mode.value}) answered {response.status_code} signed out\n"
            f"{case.as_curl_command()}\n{response.text[:2000]}"
        )

    try:
        send()
    except Unsatisfiable:
        # Nothing in the operation can be made invalid (no body, no parameter).
        assert mode is GenerationMode.NEGATIVE
        assert not operation_has_inputs(operation)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", sorted(OPERATIONS))
def test_no_generated_request_gets_a_server_error(world, name, role):
    ids, tokens = world
    operation = OPERATIONS[name]
    headers = {"Authorization": f"Token {tokens[role]}"} if role in tokens else {}

    # Schema-shaped requests about the objects that exist; schema-breaking ones about any id
    # (a negative path id is not an integer: the URL matches nothing).
    fixed = path_parameters(operation.path, ids)
    refused = role == "anonymous" and not open_to_everyone(operation)
    examples = SIGNED_OUT_REFUSAL_EXAMPLES if refused else EXAMPLES_PER_MODE
    # signed out: refused, or no such URL (a generated path parameter that matches nothing)
    allowed = SIGNED_OUT if refused else None
    label = f"{name} as {role}"
    no_server_error(operation, GenerationMode.POSITIVE, fixed, headers, label, examples, allowed)
    no_server_error(operation, GenerationMode.NEGATIVE, {}, headers, label, examples, allowed)
