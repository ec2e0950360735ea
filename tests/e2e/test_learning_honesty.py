"""Learning a lab can trust, in the browser (docs/learning.md, docs/models.md): the admin
Suggestions page says why the base model serves ("version 1: 0 held-out topics, not
eligible") and offers it beside the versions; the Models page leaves out the topics a
compared model was trained on, or scores them in red when asked; and imported snippets the
default ChEMU model was trained on are flagged on both pages. The versions are stored
directly (tests/modelserve/services/test_retraining_worker.py trains one for real); the evaluations
run in this process, as in test_admin_models.py."""

from __future__ import annotations

import shutil
import uuid

from django.conf import settings
from playwright.sync_api import expect

from annotation.models import Project
from annotation.services.imports.topics import topics_import
from corefscore.formats import read, write
from modelserve.models import ModelEvaluation, ModelVersion, SuggestionSettings
from modelserve.services.default_models import chemu_trained_texts_record
from modelserve.services.evaluations import model_evaluation_execute
from modelserve.services.settings import suggestion_settings_set
from modelserve.training.learning import eligibility
from modelserve.version_selectors import serving_model_version
from tests.e2e.test_admin_agreement import agreement_project
from tests.factories import AdminFactory, ProjectFactory
from tests.paths import CHEMU_TRAIN


def stored_version(project, number: int, *, holdout: int, score, previous, topics=()):
    verdict = eligibility(
        holdout_topics=holdout,
        min_holdout=settings.LEARN_MIN_HELDOUT_TOPICS,
        degenerate="",
        score=score,
        previous_score=previous,
        compared_with="the base model (minilm)",
    )
    folder = str(settings.MODELS_DIR / "learned" / f"project-{project.pk}" / f"t{number}")
    return ModelVersion.objects.create(
        project=project,
        backend="trained",
        number=number,
        path=folder,
        params={"model_dir": folder},
        topics_used=3,
        holdout_topics=holdout,
        score=score,
        previous_score=previous,
        not_worse=score is not None and previous is not None and score >= previous,
        compared_with="the base model (minilm)",
        eligible=verdict.eligible,
        eligibility=verdict.reason,
        trained_topics=list(topics),
    )


def test_the_base_model_serves_until_a_version_is_eligible_and_stays_a_choice(new_page, artifacts):
    project = ProjectFactory(name="new lab")
    suggestion_settings_set(project=project, learn=True)
    stored_version(project, 1, holdout=0, score=None, previous=None)
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/suggestions")

    panel = page.get_by_test_id("model-versions")
    expect(panel.get_by_test_id("base-serving")).to_have_text(
        "Serving: the base model (minilm), because version 1: 0 held-out topics, not eligible "
        "(at least 10 needed)."
    )
    expect(panel.locator("tr[data-version='base']")).to_contain_text("serving")
    expect(panel.locator("tr[data-version='1']")).to_contain_text("not eligible")
    panel.screenshot(path=str(artifacts / "admin-versions-base-serving.png"))

    # A version shown not worse on enough held-out topics takes over; the base model stays
    # a choice, and choosing it is what the server records.
    second = stored_version(project, 2, holdout=12, score=0.6, previous=0.5)
    panel.get_by_role("button", name="Refresh").click()
    expect(panel.locator("tr[data-version='2']")).to_contain_text("serving")
    expect(panel.get_by_test_id("base-serving")).to_have_count(0)
    assert serving_model_version(project.pk) == second
    panel.get_by_role("button", name="Serve the base model").click()
    expect(panel.locator("tr[data-version='base']")).to_contain_text("serving (chosen)")
    expect(panel.get_by_test_id("base-serving")).to_contain_text("an admin chose it")
    assert SuggestionSettings.objects.get(project=project).serve_base
    assert serving_model_version(project.pk) is None
    panel.get_by_role("button", name="Follow the newest eligible again").click()
    expect(panel.locator("tr[data-version='2']")).to_contain_text("serving")
    assert not SuggestionSettings.objects.get(project=project).serve_base
    assert page.errors == []


def test_the_models_page_leaves_out_what_a_model_was_trained_on_or_marks_it_in_red(
    new_page, artifacts
):
    project = agreement_project("Seen e2e")
    seen = list(project.topics.filter(external_id__in=["9001", "9003"]))
    stored_version(project, 1, holdout=0, score=None, previous=None, topics=[t.pk for t in seen])
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/models")

    form = page.get_by_test_id("evaluation-form")
    listed = form.get_by_test_id("seen-topics")
    expect(listed).to_contain_text("2 topics a model here was trained on")
    expect(listed.locator("li[data-topic='9001']")).to_have_text(
        "9001: version 1 was trained on this text"
    )
    form.get_by_label("Backend").select_option("singleton")
    form.get_by_role("button", name="Score on the gold").click()
    expect(form.get_by_role("status")).to_contain_text("Queued evaluation")
    unseen = ModelEvaluation.objects.get()
    assert model_evaluation_execute(evaluation_id=unseen.pk) == "succeeded"
    row = page.locator(f"tr[data-run='{unseen.pk}']")
    expect(row).to_have_attribute("data-status", "succeeded", timeout=15_000)  # it polls
    scores = page.get_by_test_id("evaluation-scores")
    expect(scores.get_by_test_id("left-out")).to_contain_text(
        "2 gold topics left out, a compared model was trained on them (9001: version 1 was "
        "trained on this text; 9003: version 1 was trained on this text)"
    )
    expect(scores.get_by_test_id("evaluation-topics").locator("tbody tr")).to_have_count(4)

    # Asked to score them too: all six, the two in red with who saw them, and counted.
    form.get_by_role("checkbox", name="Score them too (marked in red)").check()
    form.get_by_role("button", name="Score on the gold").click()
    expect(form.get_by_role("status")).to_contain_text("Queued evaluation")
    marked = ModelEvaluation.objects.exclude(pk=unseen.pk).get()
    assert marked.include_trained
    assert model_evaluation_execute(evaluation_id=marked.pk) == "succeeded"
    expect(page.locator(f"tr[data-run='{marked.pk}']")).to_have_attribute(
        "data-status", "succeeded", timeout=15_000
    )
    page.get_by_role("checkbox", name=f"compare #{unseen.pk} singleton").uncheck()
    expect(scores.get_by_test_id("evaluation-topics").locator("tbody tr")).to_have_count(6)
    expect(scores.get_by_test_id("trained-scored")).to_have_text(
        "2 topics scored here were trained on by a compared model (in red below): these "
        "scores are not on unseen text."
    )
    red = scores.locator("tr.trained-on")
    expect(red).to_have_count(2)
    expect(red.first).to_contain_text("version 1 was trained on this text")
    color = red.first.locator("td").first.evaluate("cell => getComputedStyle(cell).color")
    assert color == "rgb(176, 0, 32)", color  # the page's danger red
    page.screenshot(path=str(artifacts / "admin-models-trained-on.png"), full_page=True)
    assert page.errors == []


def test_snippets_the_default_chemu_model_was_trained_on_are_flagged_on_both_pages(
    new_page, artifacts, tmp_path
):
    snippets = read("chemu", CHEMU_TRAIN, skip_invalid=True).topics
    trained, imported = tmp_path / "trained.jsonlines", tmp_path / "imported.jsonlines"
    write("chemu", snippets[:2], trained)
    # The third is a text no default model saw: the checkout's real default ChEMU model (when
    # one is trained there) was trained on the whole file, so its own record flags the file's
    # snippets too; a word added at the end makes the third one new to every record.
    last = snippets[2].documents[-1]
    last.tokens = [*last.tokens, "(edited)"]
    write("chemu", snippets[:3], imported)  # two of the model's own snippets, and one more
    # A default model's record is read from any folder of the models folder: this test's
    # own, so that the checkout's real default model and its record are left alone.
    folder = settings.MODELS_DIR / f"chemu-e2e-{uuid.uuid4().hex}"
    chemu_trained_texts_record(folder, train_file=trained)
    try:
        project = Project.objects.create(name="chemistry e2e", anaphora=True, hierarchy=False)
        topics_import(project=project, path=imported, format="chemu")
        first, second, fresh = (t.external_id for t in snippets[:3])
        page = new_page(AdminFactory())

        page.goto(f"/manage/projects/{project.pk}/suggestions")
        flag = page.get_by_test_id("default-trained-texts")
        expect(flag).to_contain_text("2 topics a default model was trained on")
        expect(flag.locator(f"li[data-topic='{first}']")).to_have_text(
            f"{first}: the default ChEMU model was trained on this text"
        )
        expect(flag.locator(f"li[data-topic='{fresh}']")).to_have_count(0)
        flag.screenshot(path=str(artifacts / "admin-suggestions-default-trained.png"))

        page.goto(f"/manage/projects/{project.pk}/models")
        listed = page.get_by_test_id("seen-topics")
        expect(listed.locator(f"li[data-topic='{second}']")).to_have_text(
            f"{second}: the default ChEMU model was trained on this text"
        )
        expect(listed.locator("li")).to_have_count(2)
        assert page.errors == []
    finally:
        shutil.rmtree(folder)
