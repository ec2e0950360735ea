"""The admin Suggestions page's learning panel (docs/learning.md): the learn setting, the
running retraining's progress, the learnt versions with their learning curve, and rollback
and roll forward with a button. The versions are stored directly, so the page has known
figures; tests/modelserve/services/test_retraining_worker.py trains them for real."""

from __future__ import annotations

from django.conf import settings
from playwright.sync_api import expect

from modelserve.models import ModelTraining, ModelVersion, SuggestionSettings
from modelserve.services.settings import suggestion_settings_set
from modelserve.training.learning import eligibility
from modelserve.version_selectors import serving_model_version
from tests.factories import AdminFactory, ProjectFactory


def stored_versions(project) -> list[ModelVersion]:
    """v1 and v2 improve on what served; v3 is worse than v2 on the same held-out topics, so
    v2 serves."""
    rows = []
    for number, topics, score, previous in [
        (1, 8, 0.42, 0.3),
        (2, 16, 0.55, 0.44),
        (3, 24, 0.5, 0.56),
    ]:
        before = "the base model (minilm)" if number == 1 else f"version {number - 1}"
        verdict = eligibility(
            holdout_topics=12,
            min_holdout=10,
            degenerate="",
            score=score,
            previous_score=previous,
            compared_with=before,
        )
        folder = str(settings.MODELS_DIR / "learned" / f"project-{project.pk}" / f"t{number}")
        rows.append(
            ModelVersion.objects.create(
                project=project,
                backend="trained",
                number=number,
                path=folder,
                params={"model_dir": folder},
                topics_used=topics,
                holdout_topics=12,
                scores={"conll_f1": score, "hierarchy_f1": score / 2, "path_ratio": score / 3},
                score=score,
                previous_score=previous,
                not_worse=score >= previous,
                compared_with=before,
                eligible=verdict.eligible,
                eligibility=verdict.reason,
            )
        )
    return rows


def test_the_admin_sees_versions_on_a_learning_curve_and_rolls_back_and_forward(
    new_page, artifacts, tmp_path
):
    project = ProjectFactory(name="learning loop")
    suggestion_settings_set(project=project, learn=False)
    first, second, _ = stored_versions(project)
    training = ModelTraining.objects.create(
        name=f"learn-{project.pk}",
        project=project,
        status="running",
        progress=0.4,
        message="epoch 8/20: loss 0.7",
    )
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/suggestions")

    panel = page.get_by_test_id("model-versions")
    rows = panel.locator(".versions-table tbody tr")
    expect(rows).to_have_count(4)  # the base model, then the three versions
    expect(rows.first).to_have_attribute("data-version", "base")
    expect(panel.locator("tr[data-version='2']")).to_contain_text("serving")
    expect(panel.locator("tr[data-version='3']")).to_contain_text(
        "version 3: held-out 0.500 below version 2's 0.560 on the same 12 held-out topics: "
        "not eligible"
    )
    expect(panel.locator("tr[data-version='3']")).to_contain_text("0.500")
    curve = page.get_by_test_id("learning-curve")
    expect(curve.locator("circle")).to_have_count(3)
    expect(curve).to_contain_text("topics trained on")
    progress = page.get_by_test_id("learning-training")
    expect(progress).to_contain_text("40 %")
    expect(progress).to_contain_text("epoch 8/20")
    expect(page.get_by_role("progressbar", name="retraining progress")).to_be_visible()
    panel.screenshot(path=str(artifacts / "admin-model-versions.png"))

    # Roll back to v1: the server pins it, the page says so.
    panel.locator("tr[data-version='1']").get_by_role("button", name="Use this version").click()
    expect(panel.locator("tr[data-version='1']")).to_contain_text("serving (chosen)")
    assert SuggestionSettings.objects.get(project=project).pinned_version_id == first.pk

    # Roll forward to the worse v3 on purpose, then back to the automatic choice (v2).
    panel.locator("tr[data-version='3']").get_by_role("button", name="Use this version").click()
    expect(panel.locator("tr[data-version='3']")).to_contain_text("serving (chosen)")
    panel.get_by_role("button", name="Follow the newest eligible again").click()
    expect(panel.locator("tr[data-version='2']")).to_contain_text("serving")
    assert SuggestionSettings.objects.get(project=project).pinned_version_id is None
    assert serving_model_version(project.pk) == second

    # The learn setting, and the page following the training until it ends.
    panel.get_by_role("checkbox", name="Learn from this project's work").check()
    expect(panel).to_contain_text("Learning is on")
    assert SuggestionSettings.objects.get(project=project).learn
    ModelTraining.objects.filter(pk=training.pk).update(status="succeeded", progress=1.0)
    expect(progress).to_have_attribute("data-status", "succeeded")

    # What learning starts from: a folder outside the allowed ones is refused beside the
    # field, nothing saved; one inside MODELS_DIR (named relative to it) is saved resolved.
    learn_from = page.get_by_test_id("learn-from")
    encoder = learn_from.get_by_role("textbox", name="Start learning from encoder folder")
    expect(encoder).to_have_attribute("placeholder", "packaged MiniLM")
    learn_from.get_by_role("combobox", name="Training profile").select_option(
        label="SciCo B.2 recipe (batch 128, linear head, fp32)"
    )
    encoder.fill(str(tmp_path))
    learn_from.get_by_role("button", name="Save").click()
    expect(learn_from.locator(".field-error")).to_contain_text(
        "is not inside the model folders this server allows"
    )
    expect(encoder).to_have_attribute("aria-invalid", "true")
    row = SuggestionSettings.objects.get(project=project)
    assert (row.learn_encoder, row.learn_profile) == ("", "default")
    encoder.fill("longformer-base-4096")
    learn_from.get_by_role("button", name="Save").click()
    allowed = str(settings.MODELS_DIR.resolve() / "longformer-base-4096")
    expect(encoder).to_have_value(allowed)
    expect(learn_from.locator(".field-error")).to_have_count(0)
    expect(learn_from).to_contain_text(f"Retraining starts from {allowed}, with the SciCo B.2")
    row.refresh_from_db()
    assert (row.learn_encoder, row.learn_profile) == (allowed, "scico-b2")
    assert page.errors == []
