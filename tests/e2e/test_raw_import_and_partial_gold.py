"""In the browser: the import form's "Text only" checkbox imports ChEMU-Ref snippets as raw
topics (their mentions kept, their links left out), and a gold that clusters only some
mentions is named beside the annotator-vs-gold table and the Models page's gold choice."""

from __future__ import annotations

from playwright.sync_api import expect

from annotation.models import Annotation, Mention, Project, RelationLink, Topic
from annotation.services.imports.topics import topics_import
from corefscore.formats import read
from tests.factories import AdminFactory
from tests.paths import CHEMU_DEMO
from tests.reporting.test_partial_gold import BRAT, submitted_singletons

NOTE = "Gold covers 2 of 5 mentions: in its topic it leaves mentions outside every cluster"


def test_text_only_with_mentions_imports_raw_topics_without_the_files_links(new_page, artifacts):
    project = Project.objects.create(name="Raw snippets", hierarchy=False, anaphora=True)
    entities = sum(len(t.mentions) for t in read("chemu", CHEMU_DEMO).topics)
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/topics")
    form = page.locator("form.import-form")
    form.get_by_label("Format").select_option("chemu")
    form.get_by_label("File", exact=True).set_input_files(str(CHEMU_DEMO))
    form.get_by_label("Text only, without the file's annotation").check()
    form.get_by_label("Keep its mentions").check()
    expect(form.get_by_test_id("raw-note")).to_contain_text("the documents and the file's mentions")

    with page.expect_response(lambda r: r.url.endswith("/imports/")) as answer:
        form.get_by_role("button", name="Import").click()
    assert answer.value.status == 201

    expect(form.get_by_role("status")).to_contain_text(
        f"Imported 8 topics ({entities} mentions, 0 with gold)"
    )
    page.screenshot(path=str(artifacts / "admin-raw-import.png"), full_page=True)
    assert Topic.objects.filter(project=project).count() == 8
    assert Mention.objects.filter(topic__project=project).count() == entities
    assert not Annotation.objects.filter(topic__project=project).exists()
    assert not RelationLink.objects.filter(annotation__topic__project=project).exists()
    assert page.errors == []


def test_a_partial_gold_is_named_beside_the_vs_gold_table_and_the_models_gold(new_page, artifacts):
    project = Project.objects.create(name="Partial gold", hierarchy=True, anaphora=True)
    topics_import(project=project, path=BRAT, format="brat")
    submitted_singletons(project, "alice")
    page = new_page(AdminFactory())

    page.goto(f"/manage/projects/{project.pk}/agreement")
    table = page.get_by_test_id("vs-gold")
    expect(table.locator("tbody tr").first).to_be_visible()
    expect(table.get_by_test_id("vs-gold-coverage")).to_contain_text(NOTE)
    table.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "admin-vs-gold-partial.png"), full_page=True)

    page.goto(f"/manage/projects/{project.pk}/models")
    form = page.get_by_test_id("evaluation-form")
    expect(form.get_by_label("Gold")).to_have_value("gold")
    expect(form.get_by_test_id("models-gold-coverage")).to_contain_text(NOTE)
    page.screenshot(path=str(artifacts / "admin-models-partial-gold.png"), full_page=True)
    assert page.errors == []
