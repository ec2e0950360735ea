"""No answer key reaches an annotator before they submit practice: for every format that can
import a practice topic with gold, the file carries answers in places its reader keeps in the
topic's metadata (CoRefi's goldMentions, an unknown field, a brat note), and nothing the
annotator can read through the API holds them."""

from __future__ import annotations

import json
import shutil

import pytest

from annotation.models import Annotation, Project
from annotation.services.assignments import assignment_create
from annotation.services.imports.topics import topics_import
from onboarding.services.practice import practice_import, practice_mark
from tests.factories import UserFactory, signed_in
from tests.paths import CHEMU_DEMO, DEMO, REPO, SCICO_DEMO

pytestmark = pytest.mark.django_db

MARK = "ANSWER-KEY-7f3a"
TUTORIAL = DEMO / "scientific_onboarding_tutorial.json"
VALID_MESSAGE = "succesfully created a new cluster"  # inside the tutorial's goldMentions


def corefi_topic(tmp_path, mode: str):
    project = Project.objects.create(name=f"corefi {mode}", hierarchy=True)
    (practice,) = practice_import(project=project, path=TUTORIAL, mode=mode)
    return practice.topic


def jsonl_topic(tmp_path, format: str, source, **project_flags):
    line = json.loads(source.read_text().splitlines()[0])
    line["answer_key"] = MARK
    path = tmp_path / f"practice{source.suffix}"
    path.write_text(json.dumps(line) + "\n")
    project = Project.objects.create(name=format, **project_flags)
    topics_import(project=project, path=path, format=format)
    return project.topics.get()


def brat_topic(tmp_path):
    folder = tmp_path / "brat"
    folder.mkdir()
    source = REPO / "fixtures" / "formats" / "brat"
    shutil.copy(source / "snippet1.txt", folder)
    ann = (source / "snippet1.ann").read_text().rstrip("\n")
    (folder / "snippet1.ann").write_text(f"{ann}\n#1\tAnnotatorNotes T1\t{MARK}\n")
    project = Project.objects.create(name="brat", hierarchy=True, anaphora=True)
    topics_import(project=project, path=folder, format="brat")
    return project.topics.get()


SOURCES = {
    "corefi guided": lambda tmp: corefi_topic(tmp, "guided"),
    "corefi scored": lambda tmp: corefi_topic(tmp, "scored"),
    "scico": lambda tmp: jsonl_topic(tmp, "scico", SCICO_DEMO, hierarchy=True),
    "chemu": lambda tmp: jsonl_topic(tmp, "chemu", CHEMU_DEMO, anaphora=True, hierarchy=False),
    "brat": brat_topic,
}


@pytest.mark.parametrize("source", SOURCES)
def test_no_payload_an_annotator_reads_holds_the_practice_topics_answer_key(source, tmp_path):
    topic = SOURCES[source](tmp_path)
    if not hasattr(topic, "practice"):
        practice_mark(topic=topic, mode="scored")
    stored = json.dumps(topic.metadata)
    # The answers are really in the stored metadata: the test can fail.
    assert MARK in stored or ("goldMentions" in stored and VALID_MESSAGE in stored)
    annotator = UserFactory()
    assignment = assignment_create(topic=topic, user=annotator)
    gold = Annotation.objects.get(topic=topic, kind="gold")
    client = signed_in(annotator)

    answers = {
        url: client.get(url)
        for url in [
            f"/api/topics/{topic.pk}/",
            f"/api/annotations/{assignment.annotation.pk}/",
            "/api/assignments/mine/",
            f"/api/onboarding/assignments/{assignment.pk}/",
            f"/api/annotations/{assignment.annotation.pk}/suggestions/",
            f"/api/annotations/{gold.pk}/",
        ]
    }

    assert answers[f"/api/annotations/{gold.pk}/"].status_code == 404
    for url, answer in answers.items():
        text = answer.content.decode()
        assert MARK not in text, url
        assert "goldMentions" not in text, url
        assert VALID_MESSAGE not in text, url
