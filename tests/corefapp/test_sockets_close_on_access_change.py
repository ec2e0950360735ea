"""An open websocket closes (4403) within a second of its user losing access: an assignment
removed (an adjudicator's too), admin rights taken away, the account deactivated, its
password changed, the submitted work an adjudicator watches reopened (one or in bulk), or the
session it was opened with signed out. Real sockets on a real two-worker Daphne, changes
through the API."""

from __future__ import annotations

import asyncio
import http.client
import json

import pytest
import websockets
from django.db import connection
from django.test import Client
from rest_framework.authtoken.models import Token

from annotation.models import Assignment
from annotation.services.assignments import assignment_create, assignment_submit
from annotation.services.operations import annotation_operation_apply
from tests.corefapp.web_workers import closed_within, web_server  # noqa: F401 (the fixture)
from tests.factories import AdminFactory, UserFactory, assign, make_topic, mention_ids

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

# The bound; measured from the admin's answer to the socket's close.
CLOSE_SECONDS = 1.0


def cookie_of(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def admin_call(web, method: str, path: str, body: dict | None = None) -> None:
    token = Token.objects.create(user=AdminFactory()).key
    conn = http.client.HTTPConnection("127.0.0.1", web.port, timeout=20)
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    try:
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = conn.getresponse()
        assert response.status in (200, 204), response.read()
    finally:
        conn.close()


def in_a_thread(change) -> None:
    """`change` in a thread of its own, whose database connection goes back to the pool at
    the end: a thread's connection is returned only when it is closed, so each change left
    one held; repeated in one session (make test-flaky), the pool's 20 ran out (PoolTimeout)."""
    try:
        change()
    finally:
        connection.close()


def watch_then_change(web, user, path: str, change) -> tuple[int | None, float]:
    """Open `user`'s socket on `path`, check it hears nothing closing it, apply `change`."""
    cookie = cookie_of(user)

    async def scenario():
        socket = await websockets.connect(
            f"ws://127.0.0.1:{web.port}{path}",
            origin=f"http://localhost:{web.port}",
            additional_headers={"Cookie": cookie},
        )
        try:
            assert (await closed_within(socket, 0.3))[0] is None
            await asyncio.to_thread(in_a_thread, change)
            return await closed_within(socket, 10)
        finally:
            await socket.close()

    return asyncio.run(scenario())


def assert_closed_in_time(result: tuple[int | None, float]) -> None:
    code, seconds = result
    assert code == 4403, f"the socket was still open {seconds:.1f} s after the change"
    assert seconds < CLOSE_SECONDS, f"closed after {seconds:.2f} s"


def submitted_work_and_its_adjudicator():
    """(the annotator's submitted assignment, its annotation, the adjudicator's assignment)."""
    topic = make_topic()
    work, annotation = assign(topic, UserFactory())
    # An adjudicator watches submitted work only: every mention in a cluster, then
    # submitted.
    for version, mention in enumerate(mention_ids(topic)):
        annotation_operation_apply(
            annotation_id=annotation.pk,
            user=work.user,
            payload={"op": "assign", "mention": mention, "cluster": None},
            expected_version=version,
        )
    assignment_submit(assignment_id=work.pk, user=work.user)
    adjudication = assignment_create(
        topic=topic, user=UserFactory(), role=Assignment.Role.ADJUDICATOR
    )
    return work, annotation, adjudication


def test_removing_an_adjudicators_assignment_closes_their_socket_on_an_annotators_work(
    web_server,  # noqa: F811
):
    _, annotation, adjudication = submitted_work_and_its_adjudicator()
    adjudicator = adjudication.user

    result = watch_then_change(
        web_server,
        adjudicator,
        f"/ws/annotations/{annotation.pk}/",
        lambda: admin_call(
            web_server, "DELETE", f"/api/assignments/{adjudication.pk}/?discard_work=true"
        ),
    )

    assert_closed_in_time(result)


def test_removing_an_annotators_assignment_closes_their_socket(web_server):  # noqa: F811
    annotator = UserFactory()
    assignment, annotation = assign(make_topic(), annotator)

    result = watch_then_change(
        web_server,
        annotator,
        f"/ws/annotations/{annotation.pk}/",
        lambda: admin_call(
            web_server, "DELETE", f"/api/assignments/{assignment.pk}/?discard_work=true"
        ),
    )

    assert_closed_in_time(result)


@pytest.mark.parametrize("socket", ["annotation", "project"])
def test_taking_admin_rights_away_closes_the_sockets_only_admins_may_open(
    web_server,  # noqa: F811
    socket,
):
    topic = make_topic()
    _, annotation = assign(topic, UserFactory())
    admin = AdminFactory()
    path = (
        f"/ws/annotations/{annotation.pk}/"
        if socket == "annotation"
        else f"/ws/projects/{topic.project_id}/"
    )

    result = watch_then_change(
        web_server,
        admin,
        path,
        lambda: admin_call(web_server, "PATCH", f"/api/users/{admin.pk}/", {"is_admin": False}),
    )

    assert_closed_in_time(result)


def test_deactivating_an_account_closes_its_sockets(web_server):  # noqa: F811
    annotator = UserFactory()
    _, annotation = assign(make_topic(), annotator)

    result = watch_then_change(
        web_server,
        annotator,
        f"/ws/annotations/{annotation.pk}/",
        lambda: admin_call(
            web_server, "PATCH", f"/api/users/{annotator.pk}/", {"is_active": False}
        ),
    )

    assert_closed_in_time(result)


def test_a_new_password_closes_the_sockets_signed_in_with_the_old_one(web_server):  # noqa: F811
    annotator = UserFactory()
    _, annotation = assign(make_topic(), annotator)

    result = watch_then_change(
        web_server,
        annotator,
        f"/ws/annotations/{annotation.pk}/",
        lambda: admin_call(
            web_server,
            "PATCH",
            f"/api/users/{annotator.pk}/",
            {"password": "a new and long passphrase 42"},
        ),
    )

    assert_closed_in_time(result)


def test_a_change_that_keeps_access_leaves_the_socket_open(web_server):  # noqa: F811
    """The re-check closes only what lost access: an annotator made admin keeps watching."""
    annotator = UserFactory()
    _, annotation = assign(make_topic(), annotator)

    result = watch_then_change(
        web_server,
        annotator,
        f"/ws/annotations/{annotation.pk}/",
        lambda: admin_call(web_server, "PATCH", f"/api/users/{annotator.pk}/", {"is_admin": True}),
    )

    assert result[0] is None


@pytest.mark.parametrize("how", ["one", "bulk"])
def test_reopening_submitted_work_closes_its_adjudicators_socket_on_it(web_server, how):  # noqa: F811
    """Reopened work is unsubmitted again: its next edits are the annotator's alone (HTTP
    already answers the adjudicator 404), so the socket that relayed them closes."""
    work, annotation, adjudication = submitted_work_and_its_adjudicator()
    reopen = lambda: (
        admin_call(web_server, "POST", f"/api/assignments/{work.pk}/reopen/")
        if how == "one"
        else admin_call(
            web_server,
            "POST",
            "/api/assignments/bulk/",
            {"action": "reopen", "assignments": [work.pk]},
        )
    )

    result = watch_then_change(
        web_server, adjudication.user, f"/ws/annotations/{annotation.pk}/", reopen
    )

    assert_closed_in_time(result)


def test_reopening_leaves_the_annotators_own_socket_open(web_server):  # noqa: F811
    work, annotation, _ = submitted_work_and_its_adjudicator()

    result = watch_then_change(
        web_server,
        work.user,
        f"/ws/annotations/{annotation.pk}/",
        lambda: admin_call(web_server, "POST", f"/api/assignments/{work.pk}/reopen/"),
    )

    assert result[0] is None


def sign_out(web, cookie: str) -> None:
    """POST /api/auth/logout/ as the browser does: the session cookie and its CSRF token."""
    conn = http.client.HTTPConnection("127.0.0.1", web.port, timeout=20)
    try:
        conn.request("GET", "/api/auth/csrf/", headers={"Cookie": cookie})
        response = conn.getresponse()
        response.read()
        csrf = next(
            part.split("=", 1)[1]
            for header in response.headers.get_all("Set-Cookie") or []
            for part in header.split(";")[:1]
            if part.startswith("csrftoken=")
        )
        headers = {"Cookie": f"{cookie}; csrftoken={csrf}", "X-CSRFToken": csrf}
        conn.request("POST", "/api/auth/logout/", headers=headers)
        response = conn.getresponse()
        assert response.status == 204, response.read()
    finally:
        conn.close()


def test_signing_out_closes_the_sockets_of_that_session_only(web_server):  # noqa: F811
    annotator = UserFactory()
    _, annotation = assign(make_topic(), annotator)
    path = f"/ws/annotations/{annotation.pk}/"
    cookie, other_session = cookie_of(annotator), cookie_of(annotator)

    async def scenario():
        sockets = [
            await websockets.connect(
                f"ws://127.0.0.1:{web_server.port}{path}",
                origin=f"http://localhost:{web_server.port}",
                additional_headers={"Cookie": session},
            )
            for session in (cookie, other_session)
        ]
        try:
            assert (await closed_within(sockets[0], 0.3))[0] is None
            await asyncio.to_thread(sign_out, web_server, cookie)
            return await closed_within(sockets[0], 10), await closed_within(sockets[1], 1.0)
        finally:
            await asyncio.gather(*(socket.close() for socket in sockets))

    signed_out, kept = asyncio.run(scenario())

    assert_closed_in_time(signed_out)
    assert kept[0] is None  # the same user's other session still watches
