"""create_adjudication: an adjudicator's assignment seeded from the annotators' submitted work."""

from __future__ import annotations

import pytest

from adjudication.selectors.consensus_versions import consensus_versions
from adjudication.services.adjudications import create_adjudication
from annotation.domain.history import replay
from annotation.domain.invariants import invariant_violations
from annotation.errors import AssignmentRefused
from annotation.models import Annotation, Assignment, Operation
from annotation.selectors.state import annotation_initial_state, annotation_state_load
from annotation.services.assignments import assignment_submit
from annotation.services.operations import annotation_operation_apply, annotation_undo
from tests.adjudication.state_version import version_from_state
from tests.factories import UserFactory, assign, make_topic, mention_ids

pytestmark = pytest.mark.django_db


def apply(annotation: Annotation, user, payload: dict) -> dict[str, int]:
    annotation.refresh_from_db()
    return annotation_operation_apply(
        annotation_id=annotation.pk, user=user, payload=payload, expected_version=annotation.version
    ).created


def clusters(annotation: Annotation, user, groups: list[list[int]]) -> list[int]:
    ids = []
    for group in groups:
        cluster = apply(annotation, user, {"op": "assign", "mention": group[0], "cluster": None})
        for mention in group[1:]:
            apply(
                annotation,
                user,
                {"op": "assign", "mention": mention, "cluster": cluster["cluster"]},
            )
        ids.append(cluster["cluster"])
    return ids


def annotate(topic, name: str, groups, parent_child=None, links=(), submit=True):
    user = UserFactory(username=name)
    assignment, annotation = assign(topic, user)
    ids = clusters(annotation, user, groups)
    if parent_child is not None:
        parent, child = parent_child
        apply(annotation, user, {"op": "set_parent", "child": ids[child], "parent": ids[parent]})
    for anaphor, antecedent in links:
        apply(
            annotation,
            user,
            {"op": "add_link", "type": "COREFERENCE", "anaphor": anaphor, "antecedent": antecedent},
        )
    if submit:
        assignment_submit(assignment_id=assignment.pk, user=user)
    return annotation


@pytest.fixture
def topic():
    topic = make_topic()
    topic.project.anaphora = True
    topic.project.save()
    m = mention_ids(topic)
    # Two of three put m0 m1 m2 together with m3 m4 under them; the third splits differently.
    annotate(topic, "alice", [m[0:3], m[3:5], [m[5]], [m[6]]], (0, 1), [(m[6], m[5])])
    annotate(topic, "bob", [m[0:3], m[3:5], m[5:7]], (0, 1), [(m[6], m[5])])
    annotate(topic, "carol", [m[0:2], m[2:5], [m[5]], [m[6]]], None, [])
    return topic


def members(annotation: Annotation) -> list[list[int]]:
    state = annotation_state_load(annotation)
    return sorted(sorted(c.members) for c in state.clusters.values())


def test_a_consensus_seed_holds_what_a_majority_of_annotators_did(topic):
    m = mention_ids(topic)
    judge = UserFactory(username="judge")

    assignment = create_adjudication(topic=topic, user=judge)

    annotation = assignment.annotation
    state = annotation_state_load(annotation)
    assert assignment.role == Assignment.Role.ADJUDICATOR
    assert annotation.kind == Annotation.Kind.ADJUDICATION
    assert members(annotation) == [m[0:3], m[3:5], [m[5]], [m[6]]]
    by_members = {frozenset(c.members): c.id for c in state.clusters.values()}
    assert state.edges == {(by_members[frozenset(m[0:3])], by_members[frozenset(m[3:5])])}
    assert {tuple(link) for link in state.links} == {("COREFERENCE", m[6], m[5])}
    assert invariant_violations(state) == []


def test_the_seed_is_one_logged_operation_that_replays_and_one_undo_takes_back(topic):
    judge = UserFactory(username="judge")
    annotation = create_adjudication(topic=topic, user=judge).annotation
    annotation.refresh_from_db()
    log = list(Operation.objects.filter(annotation=annotation))
    assert [(o.name, o.kind) for o in log] == [("adjudication_seed", "do")]
    assert log[0].payload["seed"] == "consensus"
    assert [s["annotator"] for s in log[0].payload["sources"]] == ["alice", "bob", "carol"]
    replayed = replay(annotation_initial_state(annotation), log)
    assert replayed.snapshot() == annotation_state_load(annotation).snapshot()

    annotation_undo(annotation_id=annotation.pk, user=judge, expected_version=annotation.version)

    annotation.refresh_from_db()
    assert members(annotation) == []
    assert annotation_state_load(annotation).snapshot() == (
        annotation_initial_state(annotation).snapshot()
    )


def test_the_seed_can_be_one_annotators_annotation(topic):
    m = mention_ids(topic)

    annotation = create_adjudication(topic=topic, user=UserFactory(), seed="carol").annotation

    assert members(annotation) == [m[0:2], m[2:5], [m[5]], [m[6]]]
    assert annotation_state_load(annotation).edges == set()


def test_an_empty_seed_logs_nothing(topic):
    annotation = create_adjudication(topic=topic, user=UserFactory(), seed="empty").annotation

    assert annotation.version == 0
    assert not Operation.objects.filter(annotation=annotation).exists()


def test_the_adjudicator_can_edit_the_seed_and_submit_it(topic):
    judge = UserFactory()
    assignment = create_adjudication(topic=topic, user=judge)

    submitted = assignment_submit(assignment_id=assignment.pk, user=judge)

    assert submitted.status == Assignment.Status.SUBMITTED


def test_a_consensus_needs_two_submitted_annotations():
    topic = make_topic()
    m = mention_ids(topic)
    annotate(topic, "alice", [m])
    annotate(topic, "bob", [m], submit=False)

    with pytest.raises(AssignmentRefused, match="at least two submitted annotations; topic"):
        create_adjudication(topic=topic, user=UserFactory())
    assert not Assignment.objects.filter(role=Assignment.Role.ADJUDICATOR).exists()


@pytest.mark.parametrize(
    ("seed", "why"), [("dave", "dave is not a user"), ("erin", "erin has not submitted it")]
)
def test_a_seed_from_someone_who_did_not_submit_is_refused(topic, seed, why):
    UserFactory(username="erin")

    with pytest.raises(AssignmentRefused, match=why):
        create_adjudication(topic=topic, user=UserFactory(), seed=seed)


def test_an_annotator_of_the_topic_cannot_adjudicate_it(topic):
    alice = Assignment.objects.get(user__username="alice").user

    with pytest.raises(AssignmentRefused, match="alice already annotates topic"):
        create_adjudication(topic=topic, user=alice)


def test_a_threshold_outside_zero_to_one_is_refused(topic):
    with pytest.raises(AssignmentRefused, match="threshold"):
        create_adjudication(topic=topic, user=UserFactory(), threshold=1.0)


def test_the_versions_read_in_a_few_queries_equal_those_of_the_loaded_states():
    topic = make_topic()
    project = topic.project
    project.anaphora = project.allow_add_mentions = project.allow_reject_mentions = True
    project.allow_fix_spans = True
    project.save()
    m = mention_ids(topic)
    first_document = topic.documents.order_by("position")[0].pk
    work = annotate(topic, "alice", [m[0:3], m[3:5]], (0, 1), [(m[6], m[5])], submit=False)
    alice = work.assignment.user
    added = apply(work, alice, {"op": "add_mention", "document": first_document, "spans": [[0, 0]]})
    apply(work, alice, {"op": "assign", "mention": added["mention"], "cluster": None})
    apply(work, alice, {"op": "fix_span", "mention": m[1], "spans": [[5, 7]]})
    other = annotate(topic, "bob", [m[0:2]], submit=False)
    apply(other, other.assignment.user, {"op": "reject_mention", "mention": m[6]})
    annotations = [work, other]

    fast = consensus_versions(topic.pk, annotations)

    assert fast == [version_from_state(annotation_state_load(a)) for a in annotations]


def test_a_mention_most_annotators_added_is_added_and_one_most_rejected_is_rejected():
    topic = make_topic()
    project = topic.project
    project.allow_add_mentions = project.allow_reject_mentions = True
    project.save()
    m = mention_ids(topic)
    first_document = topic.documents.order_by("position")[0].pk
    for name in ("alice", "bob", "carol"):
        work = annotate(topic, name, [], submit=False)
        user = work.assignment.user
        if name != "carol":
            apply(work, user, {"op": "reject_mention", "mention": m[6]})
            added = apply(
                work, user, {"op": "add_mention", "document": first_document, "spans": [[0, 1]]}
            )
            clusters(work, user, [[*m[0:2], added["mention"]], *[[x] for x in m[2:6]]])
        else:
            clusters(work, user, [[x] for x in m])
        assignment_submit(assignment_id=work.assignment.pk, user=user)

    annotation = create_adjudication(topic=topic, user=UserFactory()).annotation

    state = annotation_state_load(annotation)
    (added,) = [x for x in state.mentions.values() if x.added]
    assert (added.document, added.spans) == (first_document, ((0, 1),))
    assert state.mentions[m[6]].rejected
    assert sorted(state.clusters[state.mention_cluster[added.id]].members) == sorted(
        [*m[0:2], added.id]
    )
    assert invariant_violations(state) == []


def test_spans_most_annotators_fixed_are_the_candidates_fixed_spans_in_the_seed():
    topic = make_topic()
    topic.project.allow_fix_spans = True
    topic.project.save()
    m = mention_ids(topic)
    for name in ("alice", "bob", "carol"):
        work = annotate(topic, name, [], submit=False)
        user = work.assignment.user
        if name != "carol":  # "CRF tagger" (words 4-5) becomes "a CRF tagger" (3-5)
            apply(work, user, {"op": "fix_span", "mention": m[0], "spans": [[2, 4]]})
        clusters(work, user, [[x] for x in m])
        assignment_submit(assignment_id=work.assignment.pk, user=user)

    annotation = create_adjudication(topic=topic, user=UserFactory()).annotation

    state = annotation_state_load(annotation)
    assert state.mentions[m[0]].spans == ((2, 4),)
    assert not state.mentions[m[0]].rejected
    assert not any(x.added for x in state.mentions.values())
    assert invariant_violations(state) == []
