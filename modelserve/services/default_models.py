"""Default models the application trains on first start when they are missing.

The ChEMU anaphora model trains from the ChEMU-Ref training set beside the checkout
(../shared/data) in about a minute on a laptop CPU; `make up` runs this once, later starts find
the model in var/models/chemu and do nothing.
"""

from __future__ import annotations

import time


def default_models_ensure() -> list[str]:
    lines = _link_model_ensure()
    from modelserve.backends.chemu_mentions import mentions_trained
    from modelserve.services.trainings import model_training_request
    from modelserve.train import DEFAULT_CHEMU_TRAIN

    if not DEFAULT_CHEMU_TRAIN.is_file() and not mentions_trained():
        lines.append(
            f"ChEMU mention tagger not trained: {DEFAULT_CHEMU_TRAIN} is missing; runs link the "
            "existing mentions only"
        )
        return lines
    if model_training_request() is not None:
        lines.append(
            "the ChEMU mention tagger trains in the model worker after start-up "
            "(progress on the admin Suggestions page)"
        )
    return lines


def _link_model_ensure() -> list[str]:
    from modelserve.backends.chemu import default_model_dir, is_trained
    from modelserve.train import DEFAULT_CHEMU_TRAIN, train_file

    model_dir = default_model_dir()
    if is_trained(model_dir):
        return []
    if not DEFAULT_CHEMU_TRAIN.is_file():
        return [
            (
                f"ChEMU anaphora model not trained: {DEFAULT_CHEMU_TRAIN} is missing; anaphora "
                "suggestions stay unavailable until `python -m modelserve.train --backend chemu "
                "TRAIN` is run"
            )
        ]
    started = time.monotonic()
    print("training the ChEMU anaphora model (first start only, about a minute)...", flush=True)
    lines: list[str] = []
    train_file("chemu", DEFAULT_CHEMU_TRAIN, model_dir, log=lines.append)
    summary = next((line for line in lines if "overall" in line), "")
    return [
        f"ChEMU anaphora model trained in {time.monotonic() - started:.0f} s into {model_dir}"
        + (f" (held out: {summary.strip()})" if summary else "")
    ]
