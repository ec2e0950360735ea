"""The statistics page (table per split, charts, CSV download) and the split column of the
topics page, in a real browser."""

from pathlib import Path

from playwright.sync_api import expect

from annotation.models import Project, Topic
from annotation.services.imports.topics import topics_import
from datasets.selectors import project_statistics, statistics_csv, statistics_page
from datasets.services.splits import dataset_split
from tests.factories import AdminFactory
from tests.paths import CHEMU_DEMO, SCICO_DEMO


def split_scico_project() -> Project:
    project = Project.objects.create(name="Stats e2e", hierarchy=True)
    topics_import(project=project, path=SCICO_DEMO, format="scico")
    dataset_split(project=project, ratios=[0.5, 0.5], seed=1)
    return project


def test_the_statistics_page_shows_each_split_draws_the_charts_and_downloads_the_csv(
    new_page, artifacts, tmp_path
):
    project = split_scico_project()
    expected = project_statistics(project)
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/statistics")

    table = page.get_by_role("table", name="Corpus statistics")
    expect(table.locator("thead th")).to_have_text(["Statistic", "Total", "train", "test"])
    for key in ("mentions", "clusters", "relations"):
        cells = table.locator(f"tr[data-stat='{key}'] td")
        expect(cells).to_have_text(
            [f"{expected[scope][key]:,}" for scope in ("total",)]
            + [f"{expected['splits'][name][key]:,}" for name in ("train", "test")]
        )
    depth = table.locator("tr[data-stat='mean_max_depth'] td").first
    expect(depth).to_have_text(f"{expected['total']['mean_max_depth']:.2f}")
    expect(table.locator("tr[data-stat='anaphors']")).to_have_count(0)  # no anaphora scheme
    expect(page.locator("svg[data-chart='count-bars']")).to_have_count(2)
    expect(page.locator("svg[data-chart='topic-bars'] .bar-row")).to_have_count(6)
    sizes = page.locator("figure", has_text="Cluster sizes").locator("rect.bar")
    largest = max(row["size"] for row in statistics_page(project)["cluster_sizes"])
    expect(sizes).to_have_count(largest)  # one bar per size from 1, a gap drawn as 0
    page.screenshot(path=str(artifacts / "dataset-stats.png"), full_page=True)

    with page.expect_download() as download:
        page.get_by_test_id("statistics-csv").click()
    csv = Path(download.value.path()).read_text()
    assert csv == statistics_csv(statistics_page(project))
    assert not page.errors


def test_an_anaphora_project_shows_links_per_type(new_page, artifacts):
    project = Project.objects.create(name="ChEMU stats e2e", hierarchy=False, anaphora=True)
    topics_import(project=project, path=CHEMU_DEMO, format="chemu")
    links = project_statistics(project)["total"]["links"]
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/statistics")

    chart = page.locator("figure", has_text="Links per type")
    expect(chart.locator("rect.bar")).to_have_count(5)
    expect(chart.locator("desc")).to_contain_text(f"Work-up: {links['WORK_UP']}")
    expect(
        page.get_by_role("table", name="Corpus statistics").locator("tr[data-stat='clusters']")
    ).to_have_count(0)
    page.screenshot(path=str(artifacts / "dataset-stats-chemu.png"), full_page=True)
    assert not page.errors


def test_the_topics_page_shows_each_topics_split_and_an_admin_changes_one(new_page, artifacts):
    project = split_scico_project()
    topic = Topic.objects.filter(project=project).order_by("position").first()
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/topics")

    field = page.get_by_role("combobox", name=f"Split of topic {topic.external_id}")
    expect(field).to_have_value(topic.split)
    field.fill("dev")
    field.press("Enter")

    # The page says the save once the server has answered it: then the row holds it.
    expect(page.get_by_text(f"Saved: topic {topic.external_id} is now in dev.")).to_be_visible()
    topic.refresh_from_db()
    assert topic.split == "dev"
    page.reload()
    expect(page.get_by_role("combobox", name=f"Split of topic {topic.external_id}")).to_have_value(
        "dev"
    )
    page.screenshot(path=str(artifacts / "dataset-topic-splits.png"))
    assert not page.errors


def test_the_datasets_page_lists_each_projects_splits_and_leads_to_its_statistics(
    new_page, artifacts
):
    project = split_scico_project()
    unsplit = Project.objects.create(name="Not split", hierarchy=True)
    page = new_page(AdminFactory())
    page.goto("/manage")

    page.get_by_role("navigation", name="Manage").get_by_role("link", name="Datasets").click()

    row = page.locator(f"tr[data-project='{project.pk}']")
    expect(row.locator("[data-splits] .chip")).to_have_text(["train 3", "test 3"])
    # The cell also holds the Split… button.
    expect(page.locator(f"tr[data-project='{unsplit.pk}'] [data-splits] .muted")).to_have_text(
        "not split"
    )
    page.screenshot(path=str(artifacts / "dataset-datasets.png"), full_page=True)
    row.get_by_role("link", name="Statistics").click()
    expect(page.get_by_role("table", name="Corpus statistics")).to_be_visible()
    assert not page.errors
