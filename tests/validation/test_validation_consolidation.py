"""Consolidation: the adjudicator of a validation topic sees each validator's decisions and
settles those that differ; the result is the consolidated validation."""

import pytest

from annotation.models import Annotation, Assignment
from tests.factories import UserFactory, mention_ids
from tests.validation.test_validation_measures import validate
from tests.validation.validation_setup import validation_topic
from validation.selectors.measures import consolidated_decisions
from validation.selectors.workspace import validation_payload

pytestmark = pytest.mark.django_db


def payload(annotation):
    return validation_payload(
        Annotation.objects.select_related("topic__project", "assignment__user").get(
            pk=annotation.pk
        )
    )


def test_the_adjudicator_sees_both_validators_decisions_and_a_validator_sees_none():
    topic = validation_topic()
    m = mention_ids(topic)
    ann = validate(UserFactory(username="ann"), topic, ["a", "a", "a", "a", "trigger", "a", "a"])
    validate(UserFactory(username="bob"), topic, ["a", "context", "a", "a", "trigger", "a", "a"])
    judge = validate(
        UserFactory(username="judge"),
        topic,
        [None] * 7,
        role=Assignment.Role.ADJUDICATOR,
        submit=False,
    )

    others = payload(judge)["others"]
    assert sorted(others) == ["ann", "bob"]
    assert others["ann"][str(m[1])]["decision"] == "accepted"
    assert others["bob"][str(m[1])] == {"decision": "rejected", "reason": "context", "note": ""}
    assert payload(ann)["others"] == {}


def test_the_consolidated_validation_is_the_agreed_decisions_and_the_settled_ones():
    topic = validation_topic()
    m = mention_ids(topic)
    validate(UserFactory(username="ann"), topic, ["a", "a", "a", "a", "trigger", "a", "a"])
    validate(UserFactory(username="bob"), topic, ["a", "context", "a", "a", "trigger", "a", "a"])
    assert consolidated_decisions([topic.pk]) == {}  # no adjudication yet

    validate(
        UserFactory(username="judge"),
        topic,
        [None, "a", None, None, None, None, None],
        role=Assignment.Role.ADJUDICATOR,
    )

    consolidated = consolidated_decisions([topic.pk])[topic.pk]
    assert consolidated[m[1]] == "accepted"  # settled by the adjudicator
    assert consolidated[m[4]] == "rejected"  # both validators rejected it
    assert len(consolidated) == 7
