"""Screenshots of the workspace for both project kinds, saved to test-artifacts/ for review."""

from annotation.models import Project
from tests.e2e.data import (
    apply_gold,
    chemu_demo_topic,
    mention_ids,
    scico_demo_topic,
    topic_from_data,
)
from tests.e2e.workspace import open_workspace, press
from tests.factories import UserFactory, assign


def test_a_hierarchy_workspace_with_a_finished_topic(new_page, artifacts):
    data = scico_demo_topic(0)
    project = Project.objects.create(name="SciCo demo", hierarchy=True)
    topic = topic_from_data(project, data)
    user = UserFactory()
    assignment, stored = assign(topic, user)
    apply_gold(stored, user, data, mention_ids(topic), links=False)
    page = open_workspace(new_page(user), assignment.pk)
    press(page, "j", "j", "j")
    page.locator(".m.is-current").first.click()
    page.screenshot(path=str(artifacts / "workspace-hierarchy.png"))
    press(page, "?")
    page.screenshot(path=str(artifacts / "workspace-help.png"))
    press(page, "Escape")
    page.goto("/")
    page.get_by_role("table").wait_for()
    page.screenshot(path=str(artifacts / "my-topics.png"))
    assert page.errors == []


def test_an_anaphora_workspace_with_links(new_page, artifacts):
    data = chemu_demo_topic(2)
    project = Project.objects.create(
        name="ChEMU demo", hierarchy=False, anaphora=True, allow_add_mentions=True
    )
    topic = topic_from_data(project, data)
    user = UserFactory()
    assignment, stored = assign(topic, user)
    ids = mention_ids(topic)
    apply_gold(stored, user, data, ids, relations=False)
    page = open_workspace(new_page(user), assignment.pk)
    page.locator(f".m[data-mention='{ids[10]}']").first.dblclick()
    press(page, "a", "k", "k")
    page.screenshot(path=str(artifacts / "workspace-anaphora.png"))
    assert page.errors == []
