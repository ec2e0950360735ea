"""Gold for practice topics: any imported format's gold, or a topic's adjudication; and the
import command."""

from io import StringIO

import pytest
from django.core.management import call_command

from annotation.models import Project
from annotation.services.assignments import assignment_create, assignment_submit
from annotation.services.imports.topics import topics_import
from onboarding.models import PracticeTopic
from onboarding.selectors.practice import practice_gold
from onboarding.services.practice import practice_mark
from tests.factories import UserFactory, make_topic, mention_ids, post_op, signed_in
from tests.onboarding.conftest import TUTORIAL
from tests.paths import SCICO_DEMO

pytestmark = pytest.mark.django_db


def test_a_scico_topic_with_imported_gold_becomes_a_scored_practice_topic():
    project = Project.objects.create(name="scico", hierarchy=True)
    topics_import(project=project, path=SCICO_DEMO, format="scico")
    topic = project.topics.order_by("position").first()

    practice = practice_mark(topic=topic, mode="scored")

    assert practice_gold(practice).kind == "gold"
    assert len(practice.feedback) == topic.mentions.count()


def test_a_topic_without_gold_is_refused_until_it_is_adjudicated():
    topic = make_topic()
    with pytest.raises(Exception, match="no gold annotation"):
        practice_mark(topic=topic, mode="scored")
    adjudicator = UserFactory()
    assignment = assignment_create(topic=topic, user=adjudicator, role="adjudicator")
    client = signed_in(adjudicator)
    for version, mention in enumerate(mention_ids(topic)):
        post_op(
            client, assignment.annotation.pk, version, op="assign", mention=mention, cluster=None
        )
    assignment_submit(assignment_id=assignment.pk, user=adjudicator)

    practice = practice_mark(topic=topic, mode="scored")

    assert practice_gold(practice).pk == assignment.annotation.pk


def test_the_command_imports_corefi_files_as_practice_topics():
    Project.objects.create(name="p", hierarchy=True)
    out = StringIO()

    call_command("import_practice", str(TUTORIAL), project="p", stdout=out)

    assert out.getvalue() == "scientific_onboarding_tutorial: guided practice topic\n"
    assert PracticeTopic.objects.get().tour_steps
