"""The agreement report page and the suggestions page.

Three annotators' submitted annotations of the six SciCo demo topics (annotator A's file,
annotator B's file, and the gold as the third annotator's work) give every topic three pairs,
so the table, the charts and the pair heatmap have data; the zip of CSV tables downloaded in
the browser is compared byte for byte with `manage.py agreement --zip`."""

from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from annotation.models import Annotation, Project
from annotation.services.assignments import assignment_create, assignment_submit
from annotation.services.imports.annotation import annotation_import_for_assignment
from annotation.services.imports.topics import topics_import
from corefscore.formats import read
from modelserve.models import Suggestion, SuggestionRun
from modelserve.queues import model_queues
from reporting.selectors.agreement import project_agreement
from tests.factories import AdminFactory, UserFactory
from tests.paths import DEMO

FILES = {
    "ann-a": "scico_demo_annotator_a.jsonl",
    "bob": "scico_demo_annotator_b.jsonl",
    "carol": "scico_demo.jsonl",
}


def agreement_project(name: str = "Agreement e2e") -> Project:
    project = Project.objects.create(name=name, hierarchy=True)
    topics_import(project=project, path=DEMO / "scico_demo.jsonl", format="scico")
    topics = {t.external_id: t for t in project.topics.all()}
    for username, file in FILES.items():
        user = UserFactory(username=username)
        for data in read("scico", DEMO / file).topics:
            assignment = assignment_create(topic=topics[data.external_id], user=user)
            annotation_import_for_assignment(assignment=assignment, topic=data, file=file)
            assignment_submit(assignment_id=assignment.pk, user=user)
    return project


def test_the_agreement_report_sorts_filters_flags_charts_and_downloads_the_commands_csv(
    new_page, artifacts, tmp_path
):
    project = agreement_project()
    report = project_agreement(project)
    conll = {topic: scores["conll_f1"]["avg"] for topic, scores in report["topics"].items()}
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/agreement")

    cards = page.get_by_role("list", name="Overall agreement").get_by_role("listitem")
    expect(cards).to_have_count(len(report["overall"]))
    for metric in ("mention_f1", "hierarchy_f1_raw"):  # mention agreement, the raw edges count
        expect(page.locator(f".overall-card[data-metric='{metric}']")).to_be_visible()
    overall = report["overall"]["conll_f1"]
    card = page.locator(".overall-card[data-metric='conll_f1']")
    expect(card.locator(".avg")).to_contain_text(f"{overall['avg'] * 100:.1f}")
    expect(card.locator("dl")).to_contain_text(f"{overall['std'] * 100:.1f}")
    expect(card.locator("dl")).to_contain_text(f"{overall['max_micro'] * 100:.1f}")
    expect(card.locator("dl")).to_contain_text(f"{overall['max_macro'] * 100:.1f}")
    # six topics: fewer than the ten an interval needs, so the card says why there is none
    assert overall["avg_ci"] is None
    expect(card.locator("dl .ci").first).to_have_text("")
    expect(card.get_by_test_id("interval-note")).to_have_text(overall["interval_note"])
    rows = page.locator(".report-table tbody tr[data-topic]")
    expect(rows).to_have_count(6)

    page.get_by_role("button", name="CoNLL F1 AVG").click()
    best = max(conll, key=conll.get)
    expect(rows.first).to_have_attribute("data-topic", best)
    expect(page.locator(".report-table th[aria-sort='descending']")).to_have_count(1)
    page.get_by_role("button", name="CoNLL F1 AVG").click()
    expect(rows.first).to_have_attribute("data-topic", min(conll, key=conll.get))

    threshold = sorted(conll.values())[3]  # three topics strictly below it
    page.get_by_role("spinbutton", name="Threshold").fill(f"{threshold * 100:.4f}")
    page.get_by_role("spinbutton", name="Threshold").press("Enter")
    expect(page.get_by_test_id("flagged-count")).to_have_text("3 topics below")
    expect(page.locator(".report-table tr.is-below")).to_have_count(3)
    bars = page.locator("svg[data-chart='topic-bars'] .bar-row")
    expect(bars).to_have_count(6)
    expect(page.locator("svg[data-chart='topic-bars'] .bar-row.flagged")).to_have_count(3)
    expect(page.locator("svg[data-chart='topic-bars'] title").first).to_have_text(
        "CoNLL F1 AVG per topic"
    )
    expect(page.locator("svg[data-chart='histogram'] desc")).to_contain_text(
        "Topics per score range"
    )
    heatmap = page.locator("svg[data-chart='pair-heatmap']")
    expect(heatmap.locator("desc")).to_contain_text("ann-a and bob")
    page.screenshot(path=str(artifacts / "admin-agreement.png"), full_page=True)

    page.get_by_label("Filter topics by id").fill(best)
    expect(rows).to_have_count(1)
    page.get_by_label("Metrics").select_option("lea_f1")
    expect(page.locator(".report-table thead th.metric-group")).to_have_text(["LEA F1"])
    page.get_by_label("Filter topics by id").fill("")

    with page.expect_download() as download:
        page.get_by_test_id("agreement-csv").click()
    expected = tmp_path / "expected.zip"
    call_command("agreement", "--project", project.name, "--zip", str(expected))
    assert Path(download.value.path()).read_bytes() == expected.read_bytes()
    assert page.errors == []


def test_the_heatmap_averages_each_pair_over_the_topics(new_page):
    project = agreement_project("Heatmap e2e")
    report = project_agreement(project)
    pairs = [scores["conll_f1"]["pairs"]["ann-a-bob"] for scores in report["topics"].values()]
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/agreement")

    cell = page.locator("svg[data-chart='pair-heatmap'] [data-pair='ann-a|bob']")
    expect(cell).to_contain_text(f"{sum(pairs) / len(pairs) * 100:.1f}")
    expect(cell.locator("title")).to_contain_text("over 6 topics")


def test_a_project_without_submissions_says_so(new_page):
    project = Project.objects.create(name="Nothing yet")
    topics_import(project=project, path=DEMO / "scico_demo.jsonl", format="scico")
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/agreement")

    expect(page.get_by_text("No topic has two submitted annotations yet")).to_be_visible()
    expect(page.get_by_text("6 topics have fewer than two submitted annotations")).to_be_visible()


@pytest.fixture
def purge_model_queue():
    """The runs queued here have no worker; their messages must not reach a later test's worker."""
    yield
    from corefapp.celery import app

    with app.connection_for_write() as connection:
        for queue in model_queues():
            connection.default_channel.queue_purge(queue)


def test_the_suggestions_page_shows_acceptance_per_backend_and_queues_a_run_per_topic(
    new_page, artifacts, purge_model_queue
):
    project = agreement_project("Suggestions e2e")
    topic = project.topics.order_by("position").first()
    annotation = Annotation.objects.filter(topic=topic, kind=Annotation.Kind.ANNOTATOR).first()
    run = SuggestionRun.objects.create(
        topic=topic, backend="minilm", status=SuggestionRun.Status.SUCCEEDED
    )
    for position, decision in enumerate(["accepted", "accepted", "accepted", "rejected"]):
        suggestion = Suggestion.objects.create(
            run=run,
            kind="membership",
            position=position,
            score=0.9,
            payload={"mention": position, "cluster": 0},
        )
        annotation.decisions.create(suggestion=suggestion.pk, decision=decision)
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/suggestions")

    row = page.locator(".acceptance-table tr[data-backend='minilm']")
    expect(row).to_contain_text("75.0 %")
    expect(row).to_contain_text("3")
    page.get_by_role("button", name="Suggest for every topic (6)").click()
    expect(page.get_by_role("status").filter(has_text="Queued 6 suggestion runs")).to_be_visible()
    assert SuggestionRun.objects.filter(topic__project=project).count() == 7
    page.screenshot(path=str(artifacts / "admin-suggestions.png"), full_page=True)
