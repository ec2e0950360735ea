"""While a backup is restored the workspace keeps the annotator's edit, says the server is
restoring, and saves it by itself once the restore is done. The test holds
the restore's own lock (corefapp/restoring.py: what `manage.py restore` holds while it
replaces the data), so the real server answers the real 503 "restoring"."""

from playwright.sync_api import expect

from annotation.models import Project
from corefapp.backups import pg_tools
from corefapp.restoring import writes_refused
from tests.e2e.workspace import annotation, open_workspace, partition, press
from tests.factories import UserFactory, assign, make_topic, mention_ids


def test_an_edit_made_during_a_restore_is_kept_shown_as_restoring_and_saved_after(new_page):
    project = Project.objects.create(name="Restoring", hierarchy=True)
    topic = make_topic(project)
    user = UserFactory()
    assignment, stored = assign(topic, user)
    page = open_workspace(new_page(user), assignment.pk)
    m = mention_ids(topic)

    with writes_refused(pg_tools.connect):
        with page.expect_response(
            lambda response: "/operations/" in response.url and response.status == 503
        ) as refused:
            press(page, "Control+Space")
        assert refused.value.json()["error"] == "restoring"
        sync = page.locator(".sync")
        expect(sync).to_have_attribute("data-restoring", "true")
        expect(page.locator(".sync-text")).to_contain_text("Restoring a backup: 1 edit queued")
        assert annotation(page, stored.pk)["version"] == 0

    # No click: the queue's own retry sends it once the restore has let go.
    expect(page.locator(".sync-text")).to_have_text("All changes saved", timeout=20_000)
    expect(sync).to_have_attribute("data-restoring", "false")
    assert partition(annotation(page, stored.pk)) == {frozenset([m[0]])}
