"""In the browser: practice is kept apart from real work. A topic made practice
leaves the agreement report, the dataset statistics, exports and the release bundle (one gate,
annotation/gates.py: practice_topic_ids). Screenshots in test-artifacts/walk-practice-*.png."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from annotation.services.exports import annotations_export
from corefscore.formats import read
from datasets.services.release import dataset_release
from onboarding.models import PracticeTopic
from tests.e2e.test_admin_agreement import agreement_project
from tests.factories import AdminFactory


def test_a_practice_topic_counts_in_no_report_statistic_export_or_release(
    new_page, artifacts, tmp_path
):
    project = agreement_project("Practice apart")
    topics = list(project.topics.order_by("position", "id"))
    practice = topics[0]
    PracticeTopic.objects.create(topic=practice, mode=PracticeTopic.Mode.SCORED)
    real = [t.external_id for t in topics[1:]]

    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/agreement")
    rows = page.locator(".report-table tbody tr[data-topic]")
    expect(rows).to_have_count(len(real))
    expect(page.locator(f".report-table tr[data-topic='{practice.external_id}']")).to_have_count(0)
    page.screenshot(path=str(artifacts / "walk-practice-1-agreement.png"), full_page=True)

    page.goto(f"/manage/projects/{project.pk}/statistics")
    expect(page.locator("svg[data-chart='topic-bars'] .bar-row")).to_have_count(len(real))
    page.screenshot(path=str(artifacts / "walk-practice-2-statistics.png"), full_page=True)
    assert not page.errors

    for source in ("submitted", "gold", None):
        out = tmp_path / f"export-{source}"
        annotations_export(project=project, format="scico", out=out, source=source)
        files = [out] if out.is_file() else sorted(out.iterdir())
        for file in files:
            ids = [t.external_id for t in read("scico", file).topics]
            assert practice.external_id not in ids, (source, file.name)
            assert ids == real, (source, file.name)

    release = tmp_path / "release"
    dataset_release(project=project, out=release, formats=["scico"])
    statistics = json.loads((release / "statistics.json").read_text())
    assert statistics["total"]["topics"] == len(real)
    assert practice.external_id not in (release / "agreement.csv").read_text()
