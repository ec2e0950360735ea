"""An expired session: the workspace asks to sign in again in place, keeps the edits made
meanwhile in its queue, and saves them once signed in."""

from django.contrib.auth.hashers import PBKDF2PasswordHasher
from playwright.sync_api import expect

from annotation.models import Project
from tests.e2e.data import mention_ids
from tests.e2e.workspace import open_workspace, press, wait_saved
from tests.factories import PASSWORD, UserFactory, assign, make_topic


def test_signing_in_again_in_place_saves_the_kept_edits(new_page):
    project = Project.objects.create(name="Expiry", hierarchy=True)
    topic = make_topic(project)
    user = UserFactory()
    # The server checks passwords with the production hashers, not the tests' fast one.
    user.password = PBKDF2PasswordHasher().encode(PASSWORD, "e2e-salt-5678", iterations=1000)
    user.save()
    assignment, stored = assign(topic, user)
    m = mention_ids(topic)
    page = open_workspace(new_page(user), assignment.pk)
    press(page, "Control+Space")
    wait_saved(page)

    page.context.clear_cookies()  # the session is gone, as when it expires
    press(page, "Space")
    dialog = page.get_by_role("dialog", name="Sign in again")
    expect(dialog).to_contain_text("1 edit is kept")
    press(page, "Escape")  # later: go on working, the edits wait in the queue
    expect(dialog).to_be_hidden()
    press(page, "Control+Space")
    page.locator(".sync").get_by_role("button", name="Sign in").click()

    expect(dialog).to_contain_text("2 edits are kept")
    expect(page.locator(".sync-text")).to_contain_text("Signed out: 2 edits kept")
    expect(page.get_by_text("Authentication credentials were not provided")).to_have_count(0)
    expect(dialog.get_by_label("Username")).to_have_value(user.username)
    dialog.get_by_label("Password").fill(PASSWORD)
    press(page, "Enter")

    expect(dialog).to_be_hidden()
    wait_saved(page)
    stored.refresh_from_db()
    clusters = {
        frozenset(c.members.values_list("mention_id", flat=True)) for c in stored.clusters.all()
    }
    assert clusters == {frozenset(m[:2]), frozenset([m[2]])}
    assert page.errors == []


def test_the_signed_out_page_load_logs_no_error(new_page):
    page = new_page()
    errors = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )

    page.goto("/")

    expect(page.get_by_role("button", name="Sign in")).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert errors == []
