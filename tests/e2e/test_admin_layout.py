"""How the admin matrices and the agreement report lay out: a project without assignments,
a 1024 px window, annotator names in full on the heatmap. Screenshots of the assignments
matrix, the progress matrix and the agreement report at 1400x900 and 1024x768 go to
test-artifacts/layout-*.png."""

import pytest
from playwright.sync_api import expect

from annotation.models import Project
from annotation.services.assignments import assignment_create, assignment_submit
from annotation.services.imports.annotation import annotation_import_for_assignment
from corefscore.formats import read
from tests.factories import AdminFactory, UserFactory, demo_project
from tests.paths import DEMO

ANNOTATOR_FILES = (
    "scico_demo_annotator_a.jsonl",
    "scico_demo_annotator_b.jsonl",
    "scico_demo.jsonl",
)
SIZES = ((1400, 900), (1024, 768))


def submitted_by(project: Project, usernames: tuple[str, ...]) -> Project:
    """Each user's submitted annotation of every topic: annotator A's file, B's, the gold."""
    topics = {t.external_id: t for t in project.topics.all()}
    for username, file in zip(usernames, ANNOTATOR_FILES[: len(usernames)], strict=True):
        user = UserFactory(username=username)
        for data in read("scico", DEMO / file).topics:
            assignment = assignment_create(topic=topics[data.external_id], user=user)
            annotation_import_for_assignment(assignment=assignment, topic=data, file=file)
            assignment_submit(assignment_id=assignment.pk, user=user)
    return project


def boxes(page, selector: str) -> list[dict]:
    return page.locator(selector).evaluate_all(
        """elements => elements.map(e => {
            const r = e.getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height, text: e.textContent.trim(),
                    clientWidth: e.clientWidth, scrollWidth: e.scrollWidth};
        })"""
    )


def page_overflow(page) -> int:
    """How many px the page is wider than the window (0 when it fits)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def hidden_width(page, selector: str) -> int:
    """How many px of the element's content are scrolled out of sight horizontally."""
    return page.locator(selector).evaluate("e => e.scrollWidth - e.clientWidth")


@pytest.mark.parametrize("tab", ["assignments", "progress"])
def test_a_matrix_without_assignments_has_its_header_in_a_row_and_whole_topic_ids(new_page, tab):
    project = demo_project(f"Nobody yet ({tab})", hierarchy=True)
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/{tab}")
    expect(page.locator(".progress-grid .grid-row")).to_have_count(6)

    head = boxes(page, ".progress-grid .grid-head > [role=columnheader]")
    assert [h["text"].split()[0] for h in head][-2:] == ["Topic", "Coverage"]
    assert len({round(h["y"]) for h in head}) == 1, head  # one row, not stacked
    assert [h["x"] for h in head] == sorted(h["x"] for h in head)
    topic = next(h for h in head if h["text"].startswith("Topic"))
    assert topic["width"] >= 90
    for cell in boxes(page, ".progress-grid .grid-row [role=rowheader]"):
        assert cell["text"].startswith("900")
        assert cell["width"] >= 60, cell
        assert cell["scrollWidth"] <= cell["clientWidth"], cell
        assert abs(cell["x"] - topic["x"]) < 1  # under its header


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_matrices_and_the_agreement_table_fit_the_window(new_page, artifacts, width, height):
    project = submitted_by(demo_project(f"Fits {width}", hierarchy=True), ("ann-a", "bob", "carol"))
    page = new_page(AdminFactory())
    page.set_viewport_size({"width": width, "height": height})
    size = f"{width}x{height}"

    page.goto(f"/manage/projects/{project.pk}/assignments")
    expect(page.locator(".cell[data-status='submitted']")).to_have_count(18)
    page.screenshot(path=str(artifacts / f"layout-assignments-{size}.png"), full_page=True)
    assert page_overflow(page) <= 0
    assert hidden_width(page, ".progress-grid") <= 0  # the three annotators and the coverage

    page.goto(f"/manage/projects/{project.pk}/progress")
    expect(page.locator(".cell[data-status='submitted']")).to_have_count(18)
    page.screenshot(path=str(artifacts / f"layout-progress-{size}.png"), full_page=True)
    assert page_overflow(page) <= 0
    assert hidden_width(page, ".progress-grid") <= 0

    page.goto(f"/manage/projects/{project.pk}/agreement")
    expect(page.locator(".report-table tbody tr[data-topic]")).to_have_count(6)
    page.screenshot(path=str(artifacts / f"layout-agreement-{size}.png"), full_page=True)
    assert page_overflow(page) <= 0
    assert hidden_width(page, ".report-table-wrap") <= 0  # all eight metrics, AVG and MAX
    assert page.errors == []


def test_the_heatmap_writes_long_annotator_names_in_full_inside_the_chart(new_page, artifacts):
    names = ("annotator-with-a-long-name", "bob", "zoe.from.the.chemistry.lab")
    project = submitted_by(demo_project("Long names", hierarchy=True), names)
    page = new_page(AdminFactory())
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"/manage/projects/{project.pk}/agreement")

    heatmap = page.locator("svg[data-chart='pair-heatmap']")
    expect(heatmap.locator("text[data-axis='column']")).to_have_text(list(names))
    expect(heatmap.locator("text[data-axis='row']")).to_have_text(list(names))
    heatmap.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "layout-heatmap-long-names.png"), full_page=True)
    chart = heatmap.bounding_box()
    panel = page.locator("figure.chart", has=heatmap).bounding_box()
    # Drawn at its own size (not scaled down) and inside its panel: nothing is cut or shrunk.
    assert abs(chart["width"] - float(heatmap.get_attribute("width"))) < 1
    assert chart["x"] + chart["width"] <= panel["x"] + panel["width"] + 0.5
    for label in boxes(page, "svg[data-chart='pair-heatmap'] text.axis-name"):
        assert label["x"] >= chart["x"] - 0.5, label
        assert label["y"] >= chart["y"] - 0.5, label
        assert label["x"] + label["width"] <= chart["x"] + chart["width"] + 0.5, label
    assert page_overflow(page) <= 0


def test_the_agreement_page_says_its_scale_and_the_csvs(new_page):
    project = submitted_by(demo_project("Scales", hierarchy=True), ("ann-a", "bob"))
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/agreement")

    scale = page.get_by_test_id("score-scale")
    expect(scale).to_contain_text("in %")
    expect(scale).to_contain_text("The CSV writes every score as a fraction")
    expect(page.get_by_test_id("agreement-csv")).to_have_attribute(
        "title",
        "One CSV file per table (pairs, vs gold, what is left out), in a zip; every score as a "
        "fraction from 0 to 1 (α from −1 to 1), at full precision",
    )
    expect(page.get_by_text("2 annotators with submitted topics")).to_be_visible()
