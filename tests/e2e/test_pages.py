"""Signing in, my topics, signing out, and the Manage link for admins."""

import re

from django.contrib.auth.hashers import PBKDF2PasswordHasher
from playwright.sync_api import expect

from annotation.models import Project
from tests.factories import PASSWORD, AdminFactory, UserFactory, assign, make_topic


def test_an_annotator_signs_in_sees_their_topics_opens_one_and_signs_out(new_page, artifacts):
    # The server checks passwords with the production hashers, not the tests' fast one.
    user = UserFactory(username="ann")
    user.password = PBKDF2PasswordHasher().encode(PASSWORD, "e2e-salt-1234", iterations=1000)
    user.save()
    project = Project.objects.create(name="Demo clusters")
    assign(make_topic(project, external_id="topic-a"), user)
    second, _ = assign(make_topic(project, external_id="topic-b"), user)
    page = new_page()

    page.goto("/")
    expect(page).to_have_url(re.compile("/login"))
    page.get_by_label("Username").fill("ann")
    # A wrong password is refused and the field cleared, the username kept.
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_be_visible()
    expect(page.get_by_label("Password")).to_have_value("")
    expect(page.get_by_label("Username")).to_have_value("ann")
    page.screenshot(path=str(artifacts / "walk-login-refused.png"))
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()

    expect(page.get_by_role("heading", name="My topics")).to_be_visible()
    rows = page.locator("table.topics tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text("topic-a")
    expect(rows.first).to_contain_text("0 of 7")
    expect(rows.first).to_contain_text("To do")
    expect(page.locator(".next-topic")).to_contain_text("topic-a")
    expect(page.get_by_role("link", name="Manage")).to_have_count(0)

    page.locator(".next-topic").get_by_role("link", name="Continue").click()
    page.wait_for_selector("html[data-workspace-ready='true']")
    expect(page.get_by_test_id("mention-progress")).to_have_text("mention 1 of 7")

    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    page.goto(f"/annotate/{second.pk}")
    expect(page).to_have_url(re.compile("/login"))


def test_my_topics_puts_the_topic_in_progress_first(new_page):
    user = UserFactory()
    project = Project.objects.create(name="Demo clusters")
    assign(make_topic(project, external_id="untouched"), user)
    started, annotation = assign(make_topic(project, external_id="started"), user)
    from tests.e2e.data import apply_ops, mention_ids

    apply_ops(
        annotation,
        user,
        [{"op": "assign", "mention": mention_ids(started.topic)[0], "cluster": None}],
    )
    page = new_page(user)
    page.goto("/")
    expect(page.locator("table.topics tbody tr").first).to_contain_text("started")
    expect(page.locator("table.topics tbody tr").first).to_contain_text("1 of 7")
    expect(page.locator("table.topics tbody tr").first).to_contain_text("In progress")
    expect(page.locator("table.topics tbody tr").first).to_contain_text("just now")


def test_an_admin_has_a_manage_link(new_page):
    page = new_page(AdminFactory())
    page.goto("/")
    page.get_by_role("link", name="Manage").click()
    expect(page).to_have_url(re.compile("/manage$"))
    expect(page.get_by_role("heading", name="Manage")).to_be_visible()


def test_an_annotator_is_sent_back_from_manage(new_page):
    page = new_page(UserFactory())
    page.goto("/manage")
    expect(page.get_by_role("heading", name="My topics")).to_be_visible()
