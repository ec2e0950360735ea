"""A live connection that drops while the annotation is edited elsewhere: once the socket is
back, the workspace shows the edit it missed. The server never replays missed messages; the
page compares versions when it reconnects (frontend/src/workspace/editing.ts)."""

import re

from playwright.sync_api import expect

from annotation.models import Project
from tests.e2e.data import apply_ops, mention_ids
from tests.e2e.workspace import open_workspace
from tests.factories import UserFactory, assign, make_topic

ASSIGNED = re.compile(r"\bis-assigned\b")


def test_a_workspace_that_reconnects_shows_the_edit_made_while_it_was_disconnected(new_page):
    topic = make_topic(Project.objects.create(name="Reconnect", hierarchy=True))
    user = UserFactory()
    assignment, stored = assign(topic, user)
    m = mention_ids(topic)
    page = new_page(user)
    connections = []
    refuse = {"now": False}

    def live_socket(socket):
        if refuse["now"]:  # the server is away: the page keeps retrying with back-off
            socket.close(code=1012, reason="server restarting")
            return
        socket.connect_to_server()
        connections.append(socket)

    page.route_web_socket("**/ws/annotations/**", live_socket)
    open_workspace(page, assignment.pk)
    # The route handler runs when the page creates its socket, before the server accepts it;
    # closed earlier, the page's socket never opened, and a first connection that fails is no
    # reconnect. Drop it once the page has it open: the page records that as data-live, and
    # only a socket the handler passed on can open.
    expect(page.locator(".sync")).to_have_attribute("data-live", "true")
    assert connections, "the workspace never opened its live connection through the route"
    refuse["now"] = True
    connections[-1].close(code=1012, reason="server restarting")
    expect(page.locator(".sync")).to_contain_text("live updates reconnecting")

    apply_ops(stored, user, [{"op": "assign", "mention": m[3], "cluster": None}])  # another tab
    expect(page.locator(f".m[data-mention='{m[3]}']")).not_to_have_class(ASSIGNED)
    refuse["now"] = False

    expect(page.locator(f".m[data-mention='{m[3]}']")).to_have_class(ASSIGNED, timeout=20_000)
    expect(page.locator(".ws")).to_have_attribute("data-version", "1")
    expect(page.locator(".sync")).not_to_contain_text("reconnecting")
    assert len(connections) == 2
    assert page.errors == []
