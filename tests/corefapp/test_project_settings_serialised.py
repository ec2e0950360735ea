"""A project setting and the operations it governs are serialised.

The admin switches "single parent" on through one real web worker while the annotator adds a
second parent through the other, both let go at the same instant, 100 times. Each round ends
either refused on one side or the other, never with a single-parent project holding a cluster
with two parents (the change checks existing clusters under the project row's lock, which
every operation also takes).
"""

from __future__ import annotations

import http.client
import json
import threading

import pytest
from rest_framework.authtoken.models import Token

from annotation.models import HierarchyEdge, Project
from tests.corefapp.web_workers import connection_per_worker, web_server  # noqa: F401
from tests.factories import AdminFactory, UserFactory, assign, make_topic, mention_ids

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

ROUNDS = 100


def call(conn: http.client.HTTPConnection, token: str, method: str, path: str, body=None):
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    conn.request(method, path, json.dumps(body) if body is not None else None, headers)
    response = conn.getresponse()
    return response.status, json.loads(response.read() or b"null")


def at_once(**calls) -> dict:
    """Each call's answer, the calls let go together from threads of their own."""
    start = threading.Barrier(len(calls))
    answers: dict = {}

    def run(name, call):
        start.wait()
        answers[name] = call()

    threads = [threading.Thread(target=run, args=item) for item in calls.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def test_switching_single_parent_on_never_races_a_second_parent_in(web_server):  # noqa: F811
    project = Project.objects.create(name="single parent race", single_parent=False)
    topic = make_topic(project)
    annotator = UserFactory()
    _, annotation = assign(topic, annotator)
    annotator_token = Token.objects.create(user=annotator).key
    admin_token = Token.objects.create(user=AdminFactory()).key
    pids = sorted(web_server.pids)
    admin_conns = connection_per_worker(web_server, set(pids))
    annotator_conns = connection_per_worker(web_server, set(pids))
    path = f"/api/annotations/{annotation.pk}/"
    version = 0

    def operate(conn, operation):
        nonlocal version
        status, answer = call(
            conn,
            annotator_token,
            "POST",
            f"{path}operations/",
            {"expected_version": version, "operation": operation},
        )
        if status == 200:
            version = answer["version"]
        return status, answer

    clusters = []
    for mention in mention_ids(topic)[:3]:
        status, answer = operate(
            annotator_conns[pids[0]], {"op": "assign", "mention": mention, "cluster": None}
        )
        assert status == 200, answer
        clusters.append(answer["created"]["cluster"])
    first, second, child = clusters
    assert (
        operate(annotator_conns[pids[0]], {"op": "add_edge", "parent": first, "child": child})[0]
        == 200
    )

    outcomes = {"switched": 0, "second parent": 0}
    violations = []
    for round in range(ROUNDS):
        # The admin on one worker, the annotator on the other; the sides swap every round.
        admin_conn = admin_conns[pids[round % 2]]
        annotator_conn = annotator_conns[pids[(round + 1) % 2]]
        answers = at_once(
            admin=lambda conn=admin_conn: call(
                conn, admin_token, "PATCH", f"/api/projects/{project.pk}/", {"single_parent": True}
            ),
            annotator=lambda conn=annotator_conn: operate(
                conn, {"op": "add_edge", "parent": second, "child": child}
            ),
        )
        assert set(answers) == {"admin", "annotator"}, answers

        project.refresh_from_db()
        parents = set(
            HierarchyEdge.objects.filter(annotation=annotation, child_id=child).values_list(
                "parent_id", flat=True
            )
        )
        if project.single_parent and len(parents) > 1:
            violations.append((round, answers))
        if project.single_parent:
            outcomes["switched"] += 1
        if second in parents:
            outcomes["second parent"] += 1
            status, answer = operate(
                annotator_conn, {"op": "remove_edge", "parent": second, "child": child}
            )
            assert status == 200, answer
        status, answer = call(
            admin_conn,
            admin_token,
            "PATCH",
            f"/api/projects/{project.pk}/",
            {"single_parent": False},
        )
        assert status == 200, answer

    assert not violations, (
        f"{len(violations)} of {ROUNDS} rounds left the single-parent project with a "
        f"two-parent cluster; the first: {violations[0]}"
    )
    # Both sides won some rounds: the two requests really met.
    assert outcomes["switched"], outcomes
    assert outcomes["second parent"], outcomes
