"""A whole demo topic annotated with the keyboard only, checked through the API."""

from playwright.sync_api import expect

from annotation.models import Assignment, Mention, Project
from tests.e2e.data import gold_partition, mention_ids, scico_demo_topic, topic_from_data
from tests.e2e.workspace import (
    annotation,
    current_mention,
    open_workspace,
    partition,
    press,
    wait_saved,
)
from tests.factories import UserFactory, assign


def reading_order(topic) -> list[int]:
    rows = Mention.objects.filter(topic=topic).select_related("document")
    return [
        m.id
        for m in sorted(
            rows, key=lambda m: (m.document.position, m.spans[0][0], m.spans[-1][1], m.id)
        )
    ]


def test_a_demo_topic_is_annotated_and_submitted_by_keyboard(new_page):
    data = scico_demo_topic(0)
    project = Project.objects.create(name="SciCo demo", hierarchy=True)
    topic = topic_from_data(project, data)
    ids = mention_ids(topic)
    gold = gold_partition(data)
    cluster_of = {ids[i]: n for n, members in enumerate(gold) for i in members}
    user = UserFactory()
    assignment, stored = assign(topic, user)
    page = open_workspace(new_page(user), assignment.pk)

    bank: list[int] = []  # gold cluster numbers in the order the bank shows them
    selected = None
    for mention in reading_order(topic):
        assert current_mention(page) == mention
        gold_cluster = cluster_of[mention]
        if gold_cluster not in bank:
            press(page, "Control+Space")
            bank.append(gold_cluster)
        else:
            target = bank.index(gold_cluster)
            step = "ArrowRight" if target > selected else "ArrowLeft"
            press(page, *[step] * abs(target - selected), "Space")
        selected = bank.index(gold_cluster)

    wait_saved(page)
    expect(page.get_by_test_id("assigned-progress")).to_contain_text(
        f"{len(ids)} of {len(ids)} in clusters"
    )
    page.get_by_role("button", name="Submit").focus()
    press(page, "Enter")
    expect(page.get_by_role("dialog", name="Submit this topic?")).to_be_visible()
    press(page, "Enter")
    expect(page.locator(".notice-statuses")).to_contain_text("Submitted")

    stored_json = annotation(page, stored.pk)
    assert partition(stored_json) == {frozenset(ids[i] for i in members) for members in gold}
    assert Assignment.objects.get(pk=assignment.pk).status == "submitted"
    assert page.errors == []
