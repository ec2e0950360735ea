"""The admin Models page (docs/models.md): a backend scored on the project's gold, its progress,
two runs side by side next to the annotators' AVG, their CSV downloaded in the browser, and
a version learnt from the project's work chosen and its run named.

The run is started in the browser; the model worker's code (`model_evaluation_execute`, what
the Celery task calls) then runs it in this process, since the browser tests' server has no
model worker (tests/modelserve/services/test_model_evaluation_worker.py runs one for real)."""

from playwright.sync_api import expect

from modelserve.evaluation_selectors import evaluations_csv
from modelserve.models import ModelEvaluation
from modelserve.services.evaluations import model_evaluation_execute, model_evaluation_request
from modelserve.services.settings import suggestion_settings_set
from tests.e2e.test_admin_agreement import agreement_project
from tests.e2e.test_model_versions import stored_versions
from tests.factories import AdminFactory


def percent(value: float) -> str:
    return f"{value * 100:.1f}"


def test_a_model_is_scored_compared_with_another_and_downloaded(new_page, artifacts, tmp_path):
    project = agreement_project("Models e2e")
    admin = AdminFactory()
    first = model_evaluation_request(project=project, user=admin, backend="singleton")
    assert model_evaluation_execute(evaluation_id=first.pk) == "succeeded", (
        ModelEvaluation.objects.get(pk=first.pk).message
    )
    page = new_page(admin)
    page.goto(f"/manage/projects/{project.pk}/models")

    form = page.get_by_test_id("evaluation-form")
    form.get_by_label("Backend").select_option("edit-distance")
    expect(form.get_by_label("Gold")).to_have_value("gold")
    form.get_by_role("button", name="Score on the gold").click()
    expect(form.get_by_role("status")).to_contain_text("Queued evaluation")
    second = ModelEvaluation.objects.exclude(pk=first.pk).get()
    row = page.locator(f"tr[data-run='{second.pk}']")
    expect(row).to_have_attribute("data-status", "queued")
    expect(row).to_contain_text("waiting for a model worker")

    assert model_evaluation_execute(evaluation_id=second.pk) == "succeeded"
    expect(row).to_have_attribute("data-status", "succeeded", timeout=15_000)  # the page polls
    second.refresh_from_db()
    first.refresh_from_db()

    page.get_by_role("checkbox", name=f"compare #{first.pk} singleton").check()
    scores = page.get_by_test_id("evaluation-scores")
    expect(scores.get_by_role("heading", name="Side by side")).to_be_visible()
    conll = scores.locator("tr[data-metric='conll_f1']")
    for run, cell in ((second, 0), (first, 1)):  # in the order ticked
        expected = run.result["overall"]["model"]["conll_f1"]
        low, high = expected["ci"]
        expect(conll.locator("td[data-column='model-all']").nth(cell)).to_contain_text(
            f"{percent(expected['score'])}[{percent(low)}–{percent(high)}]"
        )
    humans = second.result["shared"]["annotators_avg"]["conll_f1"]["score"]
    expect(conll.locator("td[data-column='annotators']").nth(0)).to_contain_text(percent(humans))
    topics = page.get_by_test_id("evaluation-topics").locator("tbody tr")
    expect(topics).to_have_count(6)
    page.screenshot(path=str(artifacts / "admin-models.png"), full_page=True)
    page.set_viewport_size({"width": 1024, "height": 768})
    tabs = page.get_by_role("navigation", name="Project pages").get_by_role("link")
    tops = {round(tab.bounding_box()["y"]) for tab in tabs.all()}
    assert len(tops) == 1, "the project tabs wrap at 1024 px"
    page.screenshot(path=str(artifacts / "admin-models-1024.png"), full_page=True)

    with page.expect_download() as download:
        page.get_by_test_id("evaluation-csv").click()
    saved = tmp_path / "runs.csv"
    download.value.save_as(saved)
    # the second run was ticked first (it was started on this page), the singleton run after
    assert saved.read_text() == evaluations_csv([second, first])

    # A version learnt from the project's work is chosen from the same list, and its run
    # names it (the page starts on the version that serves; v1 is chosen instead).
    learnt = stored_versions(project)
    suggestion_settings_set(project=project, learn=True)
    page.reload()
    form.get_by_label("Backend").select_option("trained")
    choice = form.get_by_label("Model version")
    serving = choice.locator("option:checked")
    expect(serving).to_contain_text("version 2 (trained)")
    expect(serving).to_contain_text("16 topics")
    expect(serving).to_contain_text("held-out CoNLL F1 0.550 · serving")
    older = choice.locator("option", has_text="version 1 (trained)")
    expect(older).to_contain_text("8 topics")
    choice.select_option(label=older.inner_text().strip())
    form.get_by_role("button", name="Score on the gold").click()
    expect(form.get_by_role("status")).to_contain_text("Queued evaluation")
    third = ModelEvaluation.objects.get(backend="trained")
    assert third.version == learnt[0]
    row = page.locator(f"tr[data-run='{third.pk}']")
    expect(row.get_by_role("rowheader")).to_have_text(f"#{third.pk} trained · version 1")
    page.screenshot(path=str(artifacts / "admin-models-learnt-version.png"), full_page=True)
    assert page.errors == []
