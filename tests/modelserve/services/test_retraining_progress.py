"""A cross-encoder project's retraining reports the fine-tuning's batches as the training's
progress (what the Suggestions page shows), and saves what the backend loads."""

from __future__ import annotations

from modelserve.backends.cross_encoder import CrossEncoderBackend
from modelserve.services.learning import _fine_tune
from tests.modelserve.scico_topics import MT_DOCUMENTS, build_topic


def test_a_cross_encoder_retraining_reports_its_batches_as_progress(settings, tmp_path):
    settings.SUGGEST_DEVICE = "cpu"
    # two topics of 5 mentions: one trains (20 pairs, 5 batches), one is the dev topic
    topics = [
        build_topic(MT_DOCUMENTS[:3], [("mt", "nmt"), ("mt", "smt")], external_id=f"mt-{i}")
        for i in range(2)
    ]
    reports: list[tuple[float, str]] = []

    _fine_tune(topics, tmp_path / "model", 1, lambda f, m: reports.append((f, m)))

    batches = [fraction for fraction, message in reports if "batches" in message]
    assert len(batches) > 1, reports
    assert batches == sorted(batches)
    assert 0.1 < batches[0] < batches[-1] <= 0.6
    suggestions = CrossEncoderBackend({"model_path": str(tmp_path / "model")}).suggest(topics[0])
    assert sorted(m for c in suggestions.clusters for m in c.mentions) == list(
        range(len(topics[0].mentions))
    )
