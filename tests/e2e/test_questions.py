"""Question mode in the workspace (Q, docs/questions.md): the most uncertain open suggestion is
asked, one key answers it (1-5 a link's type, Y / N a cluster question), each answer is the
ordinary logged decision, and Ctrl+Z brings the question back. The run is written straight
into the database (what a model worker stores), so no worker is needed here."""

from __future__ import annotations

from django.utils import timezone
from playwright.sync_api import Page, expect

from annotation.models import Project
from modelserve.models import Suggestion, SuggestionRun
from tests.e2e.data import chemu_demo_topic, mention_ids, topic_from_data
from tests.e2e.workspace import annotation, api, open_workspace, press, wait_saved
from tests.factories import UserFactory, assign


def seeded_run(topic, ids: list[int]) -> dict[str, int]:
    """A finished run: a sure cluster (0.97), an unsure one (0.58), and a link whose type the
    model cannot call (WORK_UP 0.5 / REACTION_ASSOCIATED 0.45): the link is asked first, then
    the unsure cluster's members, the sure cluster last."""
    run = SuggestionRun.objects.create(
        topic=topic, backend="minilm", status="succeeded", progress=1.0, finished_at=timezone.now()
    )
    made: dict[str, int] = {}
    for i, (members, score) in enumerate([((ids[0], ids[1]), 0.97), ((ids[2], ids[3]), 0.58)]):
        cluster = Suggestion.objects.create(
            run=run, kind="cluster", position=i, score=score, payload={"mentions": list(members)}
        )
        for j, mention in enumerate(members):
            row = Suggestion.objects.create(
                run=run,
                kind="membership",
                position=2 * i + j,
                score=score,
                payload={"mention": mention, "cluster": cluster.pk},
            )
            made[f"member{mention}"] = row.pk
    scores = {"NONE": 0.05, "COREFERENCE": 0.0, "TRANSFORMED": 0.0}
    scores |= {"REACTION_ASSOCIATED": 0.45, "WORK_UP": 0.5, "CONTAINED": 0.0}
    made["link"] = Suggestion.objects.create(
        run=run,
        kind="link",
        position=0,
        score=0.5,
        payload={"type": "WORK_UP", "anaphor": ids[5], "antecedent": ids[4], "type_scores": scores},
    ).pk
    return made


def log(page: Page, annotation_id: int) -> list[dict]:
    return api(page, f"/api/annotations/{annotation_id}/operations/")


def test_q_asks_the_most_uncertain_first_answers_are_operations_and_undo_brings_one_back(
    new_page, artifacts
):
    project = Project.objects.create(name="Questions", hierarchy=True, anaphora=True)
    topic = topic_from_data(project, chemu_demo_topic(1))
    ids = mention_ids(topic)
    made = seeded_run(topic, ids)
    user = UserFactory()
    assignment, stored = assign(topic, user)
    page = open_workspace(new_page(user), assignment.pk)
    question = page.get_by_test_id("question")

    # The help lists the key and the mode's own keys.
    press(page, "?")
    expect(page.get_by_role("dialog")).to_contain_text("Question mode (Q)")
    press(page, "?")

    press(page, "q")
    expect(question).to_have_attribute("data-kind", "link")
    expect(question).to_have_attribute("data-suggestion", str(made["link"]))
    expect(question).to_contain_text("and how?")
    page.screenshot(path=str(artifacts / "questions-link.png"))

    # 3: yes, as REACTION_ASSOCIATED (not the model's WORK_UP).
    press(page, "3")
    wait_saved(page)
    entry = log(page, stored.pk)[-1]
    assert entry["name"] == "accept_suggestion"
    assert entry["payload"]["suggestion"] == made["link"]
    assert entry["payload"]["operation"]["type"] == "REACTION_ASSOCIATED"

    # Next: a member of the unsure cluster (a new cluster with its fellow). Y accepts.
    expect(question).to_have_attribute("data-kind", "membership")
    first = int(question.get_attribute("data-suggestion"))
    assert first in (made[f"member{ids[2]}"], made[f"member{ids[3]}"])
    expect(question).to_contain_text("the same concept as")
    page.screenshot(path=str(artifacts / "questions-membership.png"))
    press(page, "y")
    wait_saved(page)
    entry = log(page, stored.pk)[-1]
    assert (entry["name"], entry["payload"]["suggestion"]) == ("accept_suggestion", first)
    assert entry["payload"]["operation"]["op"] == "assign"

    # The fellow is asked against the cluster just made; N rejects it.
    expect(question).not_to_have_attribute("data-suggestion", str(first))
    second = int(question.get_attribute("data-suggestion"))
    assert second in (made[f"member{ids[2]}"], made[f"member{ids[3]}"])
    press(page, "n")
    wait_saved(page)
    entry = log(page, stored.pk)[-1]
    assert (entry["name"], entry["payload"]) == (
        "reject_suggestion",
        {"op": "reject_suggestion", "suggestion": second},
    )
    expect(question).not_to_have_attribute("data-suggestion", str(second))

    # Ctrl+Z undoes the rejection: the same question is asked again.
    press(page, "Control+z")
    wait_saved(page)
    expect(question).to_have_attribute("data-suggestion", str(second))
    assert str(second) not in {str(k) for k in annotation(page, stored.pk)["decisions"]}
    page.screenshot(path=str(artifacts / "questions-undone.png"))

    # Escape leaves the mode: the suggestion panel is back.
    press(page, "Escape")
    expect(question).to_have_count(0)
    assert page.errors == []
