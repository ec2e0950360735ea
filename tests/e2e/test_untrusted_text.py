"""Imported text, labels and notes are shown as text, never run as HTML, in every page."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from annotation.models import Assignment, Project
from annotation.services.imports.topics import topics_import
from annotation.services.operations import annotation_operation_apply
from tests.e2e.workspace import open_workspace
from tests.factories import AdminFactory, UserFactory, assign

SCRIPT = "<script>window.__xss=1</script>"
IMAGE = '<img src=x onerror="window.__xss=2">'


def hostile_topic_file(tmp_path):
    tokens = ["The", SCRIPT, "method", "beats", IMAGE, "on", "tagging", "."]
    line = {
        "id": "hostile",
        "source": "curated",
        "tokens": [tokens],
        "doc_ids": [1],
        "metadata": [
            {
                "title": f"Paper {IMAGE}",
                "BookTitle": SCRIPT,
                "Year": "2021",
                "url": "javascript:window.__xss=3",
            }
        ],
        "sentences": [[[0, len(tokens)]]],
        "mentions": [[0, 1, 1, 0], [0, 4, 4, 1]],
        "relations": [],
    }
    path = tmp_path / "hostile.jsonl"
    path.write_text(json.dumps(line) + "\n")
    return path


def test_script_and_onerror_payloads_stay_inert_in_the_workspace_and_admin_pages(
    new_page, tmp_path
):
    project = Project.objects.create(name=f"Hostile {SCRIPT}")
    topics_import(project=project, path=hostile_topic_file(tmp_path), format="scico")
    topic = project.topics.get()
    user = UserFactory()
    assignment, annotation = assign(topic, user)
    mentions = list(topic.mentions.order_by("position").values_list("id", flat=True))
    applied = annotation_operation_apply(
        annotation_id=annotation.pk,
        user=user,
        expected_version=0,
        payload={"op": "assign", "mention": mentions[1], "cluster": None},
    )
    cluster = applied.created["cluster"]
    annotation_operation_apply(
        annotation_id=annotation.pk,
        user=user,
        expected_version=1,
        payload={"op": "set_note", "cluster": cluster, "note": f"note {SCRIPT}{IMAGE}"},
    )

    page = open_workspace(new_page(user), assignment.pk)
    expect(page.locator("body")).to_contain_text(SCRIPT)
    expect(page.locator("body")).to_contain_text(IMAGE)
    assert page.evaluate("window.__xss") is None
    assert page.locator("img[src='x']").count() == 0
    assert page.locator("a[href^='javascript:']").count() == 0

    admin_page = new_page(AdminFactory())
    admin_page.goto(f"/manage/projects/{project.pk}/topics")
    expect(admin_page.locator("body")).to_contain_text("Hostile")
    admin_page.goto(f"/manage/projects/{project.pk}/assignments")
    expect(admin_page.locator("body")).to_contain_text("hostile")
    assert admin_page.evaluate("window.__xss") is None
    assert Assignment.objects.filter(pk=assignment.pk).exists()
