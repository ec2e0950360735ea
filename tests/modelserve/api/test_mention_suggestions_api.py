"""Proposed mentions through the API: accepting one adds the mention with the ordinary
add_mention (logged, undoable), rejecting records the decision, and a link that names a
proposed mention is offered once that mention exists."""

from __future__ import annotations

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from annotation.models import Mention, Operation
from modelserve.models import Suggestion, SuggestionRun
from tests.factories import (
    AdminFactory,
    ProjectFactory,
    annotating,
    make_topic,
    post_op,
)

pytestmark = pytest.mark.django_db

# Document 2 of the default topic: "The mixture was stirred and the mixture was cooled ."
# Its candidate mentions are [0, 1] and [5, 6]; the model proposes "stirred" and "cooled".
STIRRED = [[3, 3]]
COOLED = [[8, 8]]


@pytest.fixture
def workspace():
    project = ProjectFactory(anaphora=True, allow_add_mentions=True, hierarchy=False)
    topic = make_topic(project)
    annotation, client = annotating(topic)
    return topic, annotation, client


def run_with_proposals(topic) -> dict[str, Suggestion]:
    """A finished run that proposes two mentions of document 2 and links: one from a proposed
    mention to a candidate, one between the two proposed mentions."""
    document = topic.documents.get(position=2)
    candidate = topic.mentions.get(document=document, spans=[[0, 1]])
    run = SuggestionRun.objects.create(
        topic=topic, backend="chemu", status="succeeded", progress=1.0, finished_at=timezone.now()
    )

    def mention(position, spans, score):
        return Suggestion.objects.create(
            run=run,
            kind="mention",
            position=position,
            score=score,
            payload={"document": document.pk, "spans": spans},
        )

    stirred, cooled = mention(0, STIRRED, 0.9), mention(1, COOLED, 0.8)
    to_candidate = Suggestion.objects.create(
        run=run,
        kind="link",
        position=0,
        score=0.7,
        payload={
            "type": "REACTION_ASSOCIATED",
            "anaphor": None,
            "proposed_anaphor": stirred.pk,
            "antecedent": candidate.pk,
        },
    )
    between = Suggestion.objects.create(
        run=run,
        kind="link",
        position=1,
        score=0.6,
        payload={
            "type": "WORK_UP",
            "anaphor": None,
            "proposed_anaphor": cooled.pk,
            "antecedent": None,
            "proposed_antecedent": stirred.pk,
        },
    )
    return {"stirred": stirred, "cooled": cooled, "to_candidate": to_candidate, "between": between}


def suggestions(client, annotation) -> dict:
    answer = client.get(f"/api/annotations/{annotation.pk}/suggestions/")
    assert answer.status_code == 200, answer.content
    return answer.json()


def item(body: dict, kind: str, suggestion: Suggestion) -> dict | None:
    return next((i for i in body[kind] if i["suggestion"] == suggestion.pk), None)


def accept(client, annotation, version: int, listed: dict):
    return post_op(
        client,
        annotation,
        version,
        {
            "op": "accept_suggestion",
            "suggestion": listed["suggestion"],
            "operation": listed["operation"],
        },
    )


def accept_proposed(client, annotation, version: int, suggestion: Suggestion):
    return accept(
        client, annotation, version, item(suggestions(client, annotation), "mentions", suggestion)
    )


def test_a_proposed_mention_is_offered_as_an_add_mention_and_links_to_it_wait(workspace):
    topic, annotation, client = workspace
    made = run_with_proposals(topic)

    body = suggestions(client, annotation)

    stirred = item(body, "mentions", made["stirred"])
    assert stirred["operation"] == {
        "op": "add_mention",
        "document": topic.documents.get(position=2).pk,
        "spans": STIRRED,
    }
    assert stirred["valid"]
    assert stirred["decision"] is None
    assert stirred["spans"] == STIRRED
    assert body["links"] == []  # both links name a mention nobody has accepted yet


def test_accepting_a_proposed_mention_adds_it_through_add_mention_in_one_logged_step(workspace):
    topic, annotation, client = workspace
    made = run_with_proposals(topic)
    listed = item(suggestions(client, annotation), "mentions", made["stirred"])

    answer = accept(client, annotation, 0, listed)

    assert answer.status_code == 200, answer.content
    added = Mention.objects.get(topic=topic, added_in=annotation)
    assert added.spans == STIRRED
    (logged,) = Operation.objects.filter(annotation=annotation)
    assert logged.payload["operation"]["op"] == "add_mention"
    assert [e["e"] for e in logged.effects] == ["mention_added", "suggestion_decided"]
    assert item(suggestions(client, annotation), "mentions", made["stirred"]) is None


def test_undo_removes_the_accepted_mention_and_offers_the_proposal_again(workspace):
    topic, annotation, client = workspace
    made = run_with_proposals(topic)
    accept(
        client, annotation, 0, item(suggestions(client, annotation), "mentions", made["stirred"])
    )

    undone = client.post(
        f"/api/annotations/{annotation.pk}/undo/", {"expected_version": 1}, format="json"
    )

    assert undone.status_code == 200, undone.content
    body = suggestions(client, annotation)
    again = item(body, "mentions", made["stirred"])
    assert again is not None
    assert again["decision"] is None
    assert item(body, "links", made["to_candidate"]) is None
    annotation.refresh_from_db()
    assert annotation.version == 2


def test_rejecting_a_proposed_mention_records_the_decision_and_adds_nothing(workspace):
    topic, annotation, client = workspace
    made = run_with_proposals(topic)

    answer = post_op(
        client, annotation, 0, {"op": "reject_suggestion", "suggestion": made["cooled"].pk}
    )

    assert answer.status_code == 200, answer.content
    assert not Mention.objects.filter(topic=topic, added_in=annotation).exists()
    assert item(suggestions(client, annotation), "mentions", made["cooled"])["decision"] == (
        "rejected"
    )


def test_a_link_to_an_accepted_mention_is_offered_with_the_mention_the_annotator_added(
    workspace,
):
    topic, annotation, client = workspace
    made = run_with_proposals(topic)
    accept(
        client, annotation, 0, item(suggestions(client, annotation), "mentions", made["stirred"])
    )
    added = Mention.objects.get(topic=topic, added_in=annotation)

    body = suggestions(client, annotation)

    link = item(body, "links", made["to_candidate"])
    candidate = topic.mentions.get(document__position=2, spans=[[0, 1]], added_in=None)
    assert link["operation"] == {
        "op": "add_link",
        "type": "REACTION_ASSOCIATED",
        "anaphor": added.pk,
        "antecedent": candidate.pk,
    }
    assert item(body, "links", made["between"]) is None  # "cooled" is not accepted yet


def test_a_link_between_two_proposed_mentions_appears_once_both_are_accepted_and_applies(
    workspace,
):
    topic, annotation, client = workspace
    made = run_with_proposals(topic)
    accept(
        client, annotation, 0, item(suggestions(client, annotation), "mentions", made["stirred"])
    )
    accept_proposed(client, annotation, 1, made["cooled"])
    stirred = Mention.objects.get(topic=topic, added_in=annotation, spans=STIRRED)
    cooled = Mention.objects.get(topic=topic, added_in=annotation, spans=COOLED)

    link = item(suggestions(client, annotation), "links", made["between"])
    answer = accept(client, annotation, 2, link)

    assert link["operation"] == {
        "op": "add_link",
        "type": "WORK_UP",
        "anaphor": cooled.pk,
        "antecedent": stirred.pk,
    }
    assert answer.status_code == 200, answer.content
    assert item(suggestions(client, annotation), "links", made["between"]) is None


def test_a_mention_marked_by_hand_with_the_proposed_spans_settles_the_proposal(workspace):
    topic, annotation, client = workspace
    made = run_with_proposals(topic)
    document = topic.documents.get(position=2)

    post_op(client, annotation, 0, {"op": "add_mention", "document": document.pk, "spans": STIRRED})
    body = suggestions(client, annotation)

    assert item(body, "mentions", made["stirred"]) is None
    assert item(body, "links", made["to_candidate"]) is not None


def test_accept_above_adds_the_proposed_mentions_first_then_the_links_between_them(workspace):
    topic, annotation, client = workspace
    made = run_with_proposals(topic)

    answer = client.post(
        f"/api/annotations/{annotation.pk}/suggestions/accept-above/",
        {"expected_version": 0, "threshold": 0.5, "kinds": ["mention", "link"]},
        format="json",
    )

    assert answer.status_code == 200, answer.content
    assert answer.json()["skipped"] == []
    kinds = [
        op.payload["operation"]["op"]
        for op in Operation.objects.filter(annotation=annotation).order_by("version")
    ]
    assert kinds == ["add_mention", "add_mention", "add_link", "add_link"]
    assert {o.payload["suggestion"] for o in Operation.objects.filter(annotation=annotation)} == {
        s.pk for s in made.values()
    }


def test_a_project_that_does_not_let_annotators_add_mentions_shows_why_a_proposal_is_refused():
    project = ProjectFactory(anaphora=True, allow_add_mentions=False, hierarchy=False)
    topic = make_topic(project)
    annotation, client = annotating(topic)
    made = run_with_proposals(topic)

    listed = item(suggestions(client, annotation), "mentions", made["stirred"])

    assert listed["valid"] is False
    assert listed["reason"] == "This project does not let annotators add mentions."


def test_the_acceptance_rates_count_mention_suggestions_as_their_own_kind(workspace):
    topic, annotation, client = workspace
    made = run_with_proposals(topic)
    accept(
        client, annotation, 0, item(suggestions(client, annotation), "mentions", made["stirred"])
    )
    post_op(client, annotation, 1, {"op": "reject_suggestion", "suggestion": made["cooled"].pk})
    post_op(
        client, annotation, 2, {"op": "reject_suggestion", "suggestion": made["to_candidate"].pk}
    )
    admin = APIClient()
    admin.force_authenticate(AdminFactory())

    rows = admin.get(f"/api/projects/{topic.project_id}/suggestion-acceptance/").json()

    by_kind = {row["kind"]: row for row in rows}
    assert by_kind["mention"] == {
        "backend": "chemu",
        "kind": "mention",
        "accepted": 1,
        "rejected": 1,
        "acceptance_rate": 0.5,
    }
    assert by_kind["link"]["rejected"] == 1
    assert by_kind["link"]["accepted"] == 0
