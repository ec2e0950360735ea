"""A suggestion run's clusters become clusters to validate, members' confidences kept."""

import pytest
from django.core.management import CommandError, call_command

from annotation.infra import state_cache
from annotation.models import Annotation, Project
from tests.factories import ProjectFactory, UserFactory, assign, make_topic, mention_ids
from tests.modelserve.api.test_suggestions_payload import finished_run
from validation.selectors.workspace import validation_payload

pytestmark = pytest.mark.django_db


def test_a_runs_clusters_are_copied_into_a_validation_project_with_member_confidences():
    state_cache.clear()
    source = make_topic(ProjectFactory(name="papers"), external_id="t1")
    m = mention_ids(source)
    run = finished_run(source, [[m[0], m[1], m[3]], [m[5], m[6]]])
    # per-member confidences, as a backend's mention_scores give them
    for score, mention in ((0.95, m[0]), (0.35, m[1]), (0.6, m[3])):
        run.suggestions.filter(kind="membership", payload__mention=mention).update(score=score)

    call_command("validation_from_runs", "--project", "check", "--create", "--run", str(run.pk))

    project = Project.objects.get(name="check")
    assert project.validation
    topic = project.topics.get(external_id="t1")
    _, annotation = assign(topic, UserFactory())
    payload = validation_payload(
        Annotation.objects.select_related("topic__project", "assignment__user").get(
            pk=annotation.pk
        )
    )
    assert [len(c["members"]) for c in payload["clusters"]] == [3, 2]
    scores = {x["id"]: x["confidence"] for x in payload["mentions"]}
    assert [scores[id] for id in payload["clusters"][0]["members"]] == [0.95, 0.6, 0.35]
    assert len(payload["mentions"]) == 5  # mentions outside every cluster: nothing to validate


def test_a_topic_already_in_the_validation_project_is_refused():
    source = make_topic(ProjectFactory(name="papers"), external_id="t1")
    m = mention_ids(source)
    run = finished_run(source, [[m[0], m[1]]])
    call_command("validation_from_runs", "--project", "check", "--create", "--run", str(run.pk))
    with pytest.raises(CommandError, match="already in project"):
        call_command("validation_from_runs", "--project", "check", "--from-project", "papers")
