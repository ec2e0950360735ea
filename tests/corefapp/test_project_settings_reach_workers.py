"""A project flag an admin changes reaches the next operation in every web process.

Each web worker caches annotation states, and a state embeds the project's flags. These tests
run two real Daphne workers (WEB_CONCURRENCY=2), make each of them cache the annotation (one
kept-alive connection per worker reads it), change one flag through the service, and then send
an operation the new flag refuses through both connections: both must be refused.
"""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from rest_framework.authtoken.models import Token

from annotation.models import Document, Project
from annotation.services.projects import project_update
from tests.corefapp.runtime.test_web_concurrency import web  # noqa: F401 (the fixture)
from tests.factories import UserFactory, assign, make_topic, mention_ids

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]


@dataclass
class Annotator:
    """One kept-alive connection per web worker, all as the same annotator."""

    web: object
    token: str
    annotation: int
    connections: dict[int, http.client.HTTPConnection] = field(default_factory=dict)

    def connect_to_every_worker(self, pids: set[int]) -> None:
        deadline = time.monotonic() + 30
        while set(self.connections) != pids:
            assert time.monotonic() < deadline, "no connection reached every worker"
            conn = http.client.HTTPConnection("127.0.0.1", self.web.port, timeout=20)
            conn.connect()
            time.sleep(0.05)  # the worker accepts it
            owner = self.web.owner(conn.sock.getsockname()[1])
            if owner in pids and owner not in self.connections:
                self.connections[owner] = conn
            else:
                conn.close()

    def call(self, conn, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        headers = {"Authorization": f"Token {self.token}", "Content-Type": "application/json"}
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")

    def read(self, conn) -> dict:
        status, answer = self.call(conn, "GET", f"/api/annotations/{self.annotation}/")
        assert status == 200, answer
        return answer

    def operate(self, conn, operation: dict, version: int | None = None) -> tuple[int, dict]:
        if version is None:
            version = self.read(conn)["version"]
        return self.call(
            conn,
            "POST",
            f"/api/annotations/{self.annotation}/operations/",
            {"expected_version": version, "operation": operation},
        )

    def apply(self, operation: dict) -> dict:
        status, answer = self.operate(next(iter(self.connections.values())), operation)
        assert status == 200, answer
        return answer


@dataclass
class Case:
    """Flags before, the change, the setup operations, and the operation the change refuses."""

    before: dict
    change: dict
    refused: Callable[[Annotator, list[int], int], dict]
    setup: Callable[[Annotator, list[int]], None] = lambda annotator, mentions: None
    refusal: str = "not_allowed"


def _three_clusters(annotator: Annotator, mentions: list[int]) -> list[int]:
    return [
        annotator.apply({"op": "assign", "mention": mention, "cluster": None})["created"]["cluster"]
        for mention in mentions[:3]
    ]


def _clusters(annotator: Annotator) -> list[int]:
    conn = next(iter(annotator.connections.values()))
    return sorted(cluster["id"] for cluster in annotator.read(conn)["clusters"])


def _edge_setup(annotator: Annotator, mentions: list[int]) -> None:
    first, _, third = _three_clusters(annotator, mentions)
    annotator.apply({"op": "add_edge", "parent": first, "child": third})


def _link(type: str, mentions: list[int]) -> dict:
    # "the mixture" (document 3) refers back to "The mixture".
    return {"op": "add_link", "type": type, "anaphor": mentions[6], "antecedent": mentions[5]}


CASES = {
    "allow_add_mentions": Case(
        before={"allow_add_mentions": True},
        change={"allow_add_mentions": False},
        refused=lambda a, mentions, document: {
            "op": "add_mention",
            "document": document,
            "spans": [[0, 0]],
        },
    ),
    "allow_fix_spans": Case(
        before={"allow_fix_spans": True},
        change={"allow_fix_spans": False},
        refused=lambda a, mentions, document: {
            "op": "fix_span",
            "mention": mentions[0],
            "spans": [[2, 4]],
        },
    ),
    "allow_reject_mentions": Case(
        before={"allow_reject_mentions": True},
        change={"allow_reject_mentions": False},
        refused=lambda a, mentions, document: {"op": "reject_mention", "mention": mentions[0]},
    ),
    "single_parent": Case(
        before={"single_parent": False},
        change={"single_parent": True},
        setup=_edge_setup,
        refused=lambda a, mentions, document: {
            "op": "add_edge",
            "parent": _clusters(a)[1],
            "child": _clusters(a)[2],
        },
        refusal="single_parent",
    ),
    "hierarchy": Case(
        before={"hierarchy": True, "anaphora": True},
        change={"hierarchy": False},
        setup=_three_clusters,
        refused=lambda a, mentions, document: {
            "op": "add_edge",
            "parent": _clusters(a)[0],
            "child": _clusters(a)[1],
        },
    ),
    "anaphora": Case(
        before={"hierarchy": True, "anaphora": True},
        change={"anaphora": False},
        refused=lambda a, mentions, document: _link("COREFERENCE", mentions),
    ),
    "refuse_duplicate_link_pairs": Case(
        before={"hierarchy": False, "anaphora": True, "refuse_duplicate_link_pairs": False},
        change={"refuse_duplicate_link_pairs": True},
        setup=lambda a, mentions: a.apply(_link("COREFERENCE", mentions)),
        refused=lambda a, mentions, document: _link("TRANSFORMED", mentions),
        refusal="link_rule",
    ),
    "validation": Case(
        before={"hierarchy": False, "validation": True},
        change={"validation": False, "hierarchy": True},
        refused=lambda a, mentions, document: {
            "op": "validate",
            "mention": mentions[0],
            "decision": "accepted",
        },
    ),
}


@pytest.mark.parametrize("flag", CASES)
def test_a_changed_project_flag_refuses_the_next_operation_in_every_web_worker(web, flag):  # noqa: F811
    case = CASES[flag]
    pids = web.wait_for_workers()
    project = Project.objects.create(name=f"flags {flag}", **case.before)
    topic = make_topic(project)
    user = UserFactory()
    _, annotation = assign(topic, user)
    mentions = mention_ids(topic)
    document = Document.objects.filter(topic=topic).order_by("position", "id").first().pk
    annotator = Annotator(web, Token.objects.create(user=user).key, annotation.pk)
    annotator.connect_to_every_worker(pids)
    case.setup(annotator, mentions)
    operation = case.refused(annotator, mentions, document)
    # Every worker now holds the annotation at its current version in its cache.
    versions = {annotator.read(conn)["version"] for conn in annotator.connections.values()}
    assert len(versions) == 1
    (version,) = versions

    project_update(project=Project.objects.get(pk=project.pk), **case.change)

    for pid, conn in annotator.connections.items():
        status, answer = annotator.operate(conn, operation, version)
        assert status in (400, 403, 422), f"worker {pid} applied {operation}: {answer}"
        assert answer["error"] == case.refusal, answer
    for conn in annotator.connections.values():
        assert annotator.read(conn)["version"] == version
        conn.close()
