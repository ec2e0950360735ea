"""Accepting or rejecting every open suggestion of one kind (modelserve/services/decisions.py
`suggestions_decide`, POST .../suggestions/decide/): one logged operation, one undo step;
refused whole, in the annotator's words, when one of them breaks a rule; stale versions
conflict like every edit."""

from __future__ import annotations

import pytest
from django.utils import timezone

from annotation.models import Operation, RelationLink, SuggestionDecision
from modelserve.models import Suggestion, SuggestionRun
from tests.factories import ProjectFactory, annotating, make_topic

pytestmark = pytest.mark.django_db


@pytest.fixture
def workspace():
    project = ProjectFactory(anaphora=True, allow_add_mentions=True, hierarchy=False)
    topic = make_topic(project)
    annotation, client = annotating(topic)
    return topic, annotation, client


def mention(topic, document: int, spans):
    return topic.mentions.get(document__position=document, spans=spans, added_in=None)


def run_with_links(topic, *links) -> list[Suggestion]:
    """`links`: (type, anaphor, antecedent) mention rows."""
    run = SuggestionRun.objects.create(
        topic=topic, backend="chemu", status="succeeded", progress=1.0, finished_at=timezone.now()
    )
    return [
        Suggestion.objects.create(
            run=run,
            kind="link",
            position=i,
            score=0.9 - i / 10,
            payload={"type": type, "anaphor": anaphor.pk, "antecedent": antecedent.pk},
        )
        for i, (type, anaphor, antecedent) in enumerate(links)
    ]


@pytest.fixture
def links(workspace):
    topic = workspace[0]
    crf, bilstm, labeling = (mention(topic, 1, s) for s in ([[7, 8]], [[4, 4]], [[0, 1]]))
    second, first = mention(topic, 2, [[5, 6]]), mention(topic, 2, [[0, 1]])
    return run_with_links(
        topic,
        ("COREFERENCE", second, first),
        ("COREFERENCE", crf, bilstm),
        ("TRANSFORMED", bilstm, labeling),
        # Its antecedent comes after its anaphor: the order rule refuses it.
        ("COREFERENCE", first, second),
    )


def decide(client, annotation, version, decision, suggestions):
    return client.post(
        f"/api/annotations/{annotation.pk}/suggestions/decide/",
        {
            "expected_version": version,
            "decision": decision,
            "suggestions": [s.pk for s in suggestions],
            "client_id": "t",
        },
        format="json",
    )


def link_types(annotation) -> list[str]:
    return sorted(RelationLink.objects.filter(annotation=annotation).values_list("type", flat=True))


def test_accepting_every_coreference_suggestion_is_one_step_and_one_undo_reverts_it(
    workspace, links
):
    _, annotation, client = workspace
    coreference = links[:2]

    answer = decide(client, annotation, 0, "accepted", coreference)

    assert answer.status_code == 200, answer.content
    assert answer.json()["version"] == 1
    assert answer.json()["name"] == "accept_suggestions"
    assert link_types(annotation) == ["COREFERENCE", "COREFERENCE"]
    (logged,) = Operation.objects.filter(annotation=annotation)
    assert logged.payload["suggestions"] == [s.pk for s in coreference]
    decided = SuggestionDecision.objects.filter(annotation=annotation)
    assert sorted(decided.values_list("suggestion", "decision")) == sorted(
        (s.pk, "accepted") for s in coreference
    )

    undone = client.post(
        f"/api/annotations/{annotation.pk}/undo/", {"expected_version": 1}, format="json"
    )

    assert undone.status_code == 200, undone.content
    assert link_types(annotation) == []
    assert not SuggestionDecision.objects.filter(annotation=annotation).exists()


def test_rejecting_every_suggestion_of_a_type_records_them_in_one_step(workspace, links):
    _, annotation, client = workspace

    answer = decide(client, annotation, 0, "rejected", links[2:3])

    assert answer.status_code == 200, answer.content
    assert answer.json()["name"] == "reject_suggestions"
    assert list(SuggestionDecision.objects.values_list("suggestion", "decision")) == [
        (links[2].pk, "rejected")
    ]
    assert link_types(annotation) == []


def test_one_suggestion_the_rules_refuse_refuses_all_naming_its_mentions(workspace, links):
    _, annotation, client = workspace

    answer = decide(client, annotation, 0, "accepted", [links[0], links[3]])

    assert answer.status_code == 422, answer.content
    body = answer.json()
    assert body["error"] == "link_rule"
    assert body["message"].startswith(
        'The suggested COREFERENCE link "The mixture" (document 3, word 1) → "the mixture" '
        "(document 3, word 6): "
    )
    assert not Operation.objects.filter(annotation=annotation).exists()
    assert link_types(annotation) == []


def test_a_stale_version_conflicts_and_writes_nothing(workspace, links):
    _, annotation, client = workspace
    assert decide(client, annotation, 0, "rejected", links[:1]).status_code == 200

    answer = decide(client, annotation, 0, "accepted", links[1:2])

    assert answer.status_code == 409, answer.content
    assert Operation.objects.filter(annotation=annotation).count() == 1
    assert link_types(annotation) == []


def test_suggestions_of_another_topic_are_refused_as_a_field(workspace, links):
    _, annotation, client = workspace
    other = make_topic(workspace[0].project)
    stranger = run_with_links(
        other, ("COREFERENCE", mention(other, 2, [[5, 6]]), mention(other, 2, [[0, 1]]))
    )

    answer = decide(client, annotation, 0, "accepted", [links[0], *stranger])

    assert answer.status_code == 400, answer.content
    assert answer.json()["field"] == "suggestions"
    assert not Operation.objects.filter(annotation=annotation).exists()


def test_accepting_every_membership_puts_a_suggested_cluster_together_in_one_step():
    """SciCo: the second member joins the cluster the first one opened, within the one step."""
    topic = make_topic(ProjectFactory(hierarchy=True))
    annotation, client = annotating(topic)
    crf, tagger = mention(topic, 0, [[3, 4]]), mention(topic, 1, [[7, 8]])
    run = SuggestionRun.objects.create(
        topic=topic, backend="minilm", status="succeeded", progress=1.0, finished_at=timezone.now()
    )
    cluster = Suggestion.objects.create(
        run=run, kind="cluster", position=0, score=0.9, payload={"mentions": [crf.pk, tagger.pk]}
    )
    memberships = [
        Suggestion.objects.create(
            run=run,
            kind="membership",
            position=i,
            score=0.9,
            payload={"mention": m.pk, "cluster": cluster.pk},
        )
        for i, m in enumerate((crf, tagger))
    ]

    answer = decide(client, annotation, 0, "accepted", memberships)

    assert answer.status_code == 200, answer.content
    clusters = {e["new"] for e in answer.json()["effects"] if e["e"] == "member_set"}
    assert len(clusters) == 1  # one new cluster holds both
    assert Operation.objects.filter(annotation=annotation).count() == 1
    undone = client.post(
        f"/api/annotations/{annotation.pk}/undo/", {"expected_version": 1}, format="json"
    )
    assert undone.status_code == 200, undone.content
    assert not annotation.clusters.exists()
