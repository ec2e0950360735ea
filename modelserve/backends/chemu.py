"""The `chemu` backend: typed anaphora links between the given mentions of ChEMU-style snippets.

For every anaphor candidate and every mention that starts strictly earlier in the same
document, the pair classifier (`chemu_model`, over the features of `chemu_features`) gives
the probabilities of no link and of the five link types. Decoding keeps, per pair, the most
probable type when its probability reaches the threshold, then applies the rules the editor
enforces (docs: ../shared/docs/domain.md, "Anaphora links"): TRANSFORMED is one-to-one, so
its links are taken greedily by score, skipping any whose anaphor or antecedent already has
one. Scores are the classifier's probabilities. Train a model with
`python -m modelserve.train --backend chemu`.

From raw text: when a mention tagger is trained in `mentions_dir` (`chemu_mentions`; the app
passes <MODELS_DIR>/chemu-mentions), the backend also proposes the mentions the topic does not
have, and its links join existing and proposed mentions; without one, it links the existing
mentions only and names "mentions" in `Suggestions.pending`, so that the run says mention
proposals are not ready yet. The tagger is looked for at every run, so one trained after the
worker started is used.

An ensemble (`chemu_ensemble`): where `model_dir` holds one (the default model, once its
background training has saved it), the runs use it in place of the single models: mentions
a majority of its taggers found, links from its link models' mean probabilities. It is
looked for at every run too; `"ensemble": false` keeps the single models.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from corefscore.corpus import TopicData
from modelserve.backends import chemu_ensemble, chemu_mentions, chemu_model
from modelserve.backends.base import Progress, Suggestions, no_progress
from modelserve.backends.chemu_linking import (
    ONE_TO_ONE,
    decode,
    score_pairs,
    suggest_links,
    with_links,
)
from modelserve.backends.parameters import defaults, with_defaults

# the linking moved to chemu_linking; callers still find it here
__all__ = [
    "DEFAULTS",
    "ONE_TO_ONE",
    "ChemuBackend",
    "decode",
    "is_trained",
    "score_pairs",
    "suggest_links",
    "with_links",
]

DEFAULTS: dict[str, Any] = defaults("chemu")  # declared in parameters.py


def is_trained(model_dir: str | Path) -> bool:
    """Whether a complete model is saved there (what `make up` checks before training one)."""
    return chemu_model.is_complete(model_dir)


class ChemuBackend:
    name = "chemu"
    # parameters whose default is a folder in the models folder (see backends.get_backend)
    model_folders: ClassVar[dict[str, str]] = {
        "model_dir": "chemu",
        "mentions_dir": chemu_mentions.DIRECTORY,
    }

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.params = with_defaults(self.name, params)  # parameters.py declares them
        if not self.params["model_dir"]:
            raise ValueError("the chemu backend needs model_dir (the link model's folder)")
        self.model = chemu_model.load(self.params["model_dir"], self.params["device"])
        if self.model.device.type == "cpu":
            chemu_model.limit_cpu_threads()

    def ensemble(self) -> chemu_ensemble.Ensemble | None:
        """The ensemble saved in the link model's folder, if any and wanted."""
        if not self.params["ensemble"]:
            return None
        return chemu_ensemble.load_ensemble(self.params["model_dir"], self.model.device)

    def suggest(self, topic: TopicData, *, progress: Progress = no_progress) -> Suggestions:
        ensemble = self.ensemble()
        if ensemble is not None:
            return self._ensemble_suggest(ensemble, topic, progress)
        mentions_dir = self.params["mentions_dir"]
        if (
            self.params["propose_mentions"]
            and mentions_dir
            and chemu_mentions.mentions_trained(mentions_dir)
        ):
            progress(0.0, "finding mentions")
            tagger = chemu_mentions.load_mentions(mentions_dir, self.model.device)
            found = chemu_mentions.suggest_from_text(
                tagger, self.model, topic, self.params["threshold"]
            )
            progress(1.0, f"{len(found.mentions)} mentions, {len(found.links)} links")
            return found
        progress(0.0, "scoring mention pairs")
        links = suggest_links(self.model, topic, self.params["threshold"])
        progress(1.0, f"{len(links)} links")
        # mentions would be proposed, but no tagger is trained yet: the run says so, rather
        # than offering links alone without a word (the first `make up` trains it meanwhile)
        waiting = self.params["propose_mentions"] and bool(mentions_dir)
        return Suggestions(links=links, pending=["mentions"] if waiting else [])

    def _ensemble_suggest(
        self, ensemble: chemu_ensemble.Ensemble, topic: TopicData, progress: Progress
    ) -> Suggestions:
        size = f"an ensemble of {len(ensemble.link_models)}"
        if self.params["propose_mentions"] and ensemble.taggers:
            progress(0.0, f"finding mentions ({size})")
            found = chemu_ensemble.ensemble_from_text(
                ensemble.taggers, ensemble.link_models, topic, self.params["threshold"]
            )
            progress(1.0, f"{len(found.mentions)} mentions, {len(found.links)} links")
            return found
        progress(0.0, f"scoring mention pairs ({size})")
        links = chemu_ensemble.ensemble_links(ensemble.link_models, topic, self.params["threshold"])
        progress(1.0, f"{len(links)} links")
        return Suggestions(links=links)
