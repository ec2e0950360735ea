"""Several chemu models as one (docs/mentions.md): mentions kept by a majority of the taggers, links
decoded once from the link models' mean pair probabilities.

- `vote_mentions(found)`: per document, the (spans, score) lists of each tagger -> the spans
  that at least half of them (rounded up past a tie: 2 of 3) found exactly, scored by the
  mean of every tagger's score (0 where a tagger did not find it).
- `ensemble_links(models, topic, threshold)`: every model scores the same candidate pairs
  (the features depend on the topic alone); the mean probabilities go through the usual
  decoding (`chemu_linking.decode`: best type over the threshold, TRANSFORMED one-to-one,
  implied coreference left out), so the result keeps the ChEMU rules a raw vote of links
  could break.
- `voted_mentions(taggers, documents)`: each tagger's mentions (boundaries corrected), voted;
  the documents are encoded once when the taggers share their encoder.
- `ensemble_from_text(taggers, link_models, topic, threshold)`: the `chemu` backend's
  suggestions from raw text with several models (`chemu_mentions.suggest_from_text`'s).
- Saved: a link model's folder may hold `MANIFEST`, naming the folders of an ensemble's link
  models and taggers (relative to it; the members live in its `MEMBERS` subfolder, so the
  folder is the whole model, in the bucket too). `save_manifest` writes it last, atomically;
  `load_ensemble(model_dir, device)` loads the members, or None where there is none. The
  default ChEMU model is saved so once its background training is done
  (`modelserve/training/chemu_members.py`); a learnt version's folder has no manifest.

Pure: no Django. Held-out figures: docs/mentions.md ("Raw text: the levers").
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from corefscore.corpus import TopicData
from modelserve.backends import chemu_model, mention_tagger
from modelserve.backends.base import LinkSuggestion, MentionSuggestion, Suggestions
from modelserve.backends.biohd import Spans
from modelserve.backends.chemu_linking import decode, score_pairs
from modelserve.backends.chemu_mentions import corrected, with_mentions
from modelserve.backends.chemu_model import ChemuModel
from modelserve.backends.mention_tagger import MentionTagger

Found = list[tuple[Spans, float]]
MANIFEST = "ensemble.json"  # in the link model's folder
MEMBERS = "ensemble"  # the members' folders, inside the link model's folder


@dataclass
class Ensemble:
    link_models: list[ChemuModel]
    taggers: list[MentionTagger]
    manifest: dict[str, Any]


def ensemble_saved(model_dir: str | Path) -> bool:
    return (Path(model_dir) / MANIFEST).is_file()


def save_manifest(
    model_dir: str | Path, links: Sequence[Path], taggers: Sequence[Path], **info: Any
) -> Path:
    """Name the members (folders inside `model_dir`, or `model_dir` itself); written last and
    atomically, so that a run never finds half an ensemble."""
    root = Path(model_dir).resolve()
    manifest = {
        "links": [Path(os.path.relpath(Path(p).resolve(), root)).as_posix() for p in links],
        "mentions": [Path(os.path.relpath(Path(p).resolve(), root)).as_posix() for p in taggers],
        **info,
    }
    partial = root / (MANIFEST + ".partial")
    partial.write_text(json.dumps(manifest, indent=2, sort_keys=True), encoding="utf-8")
    os.replace(partial, root / MANIFEST)
    return root / MANIFEST


def load_ensemble(model_dir: str | Path, device: str | torch.device = "auto") -> Ensemble | None:
    """The ensemble saved in `model_dir`, its members through the loaders' caches; None where
    the folder holds a single model."""
    root = Path(model_dir).expanduser().resolve()
    if not ensemble_saved(root):
        return None
    manifest = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
    links = [chemu_model.load(root / name, device) for name in manifest["links"]]
    target = links[0].device
    taggers = [mention_tagger.load(root / name, target) for name in manifest["mentions"]]
    return Ensemble(links, taggers, manifest)


def vote_mentions(found: Sequence[Found], min_votes: int | None = None) -> Found:
    """The spans found by at least `min_votes` of the taggers (default: a majority)."""
    needed = len(found) // 2 + 1 if min_votes is None else min_votes
    votes: dict[Spans, list[float]] = {}
    for mentions in found:
        for spans, score in mentions:
            votes.setdefault(spans, []).append(score)
    kept = [
        (spans, round(sum(scores) / len(found), 6))
        for spans, scores in votes.items()
        if len(scores) >= needed
    ]
    return sorted(kept, key=lambda item: (item[0][0][0], item[0]))


def ensemble_links(
    models: Sequence[ChemuModel], topic: TopicData, threshold: float | None = None
) -> list[LinkSuggestion]:
    """Links for every document of the topic from the models' mean pair probabilities."""
    threshold = float(models[0].config["threshold"] if threshold is None else threshold)
    links: list[LinkSuggestion] = []
    for document in range(len(topic.documents)):
        scored = [score_pairs(model, topic, document) for model in models]
        features, pairs, _ = scored[0]
        mean = np.mean([probabilities for _, _, probabilities in scored], axis=0)
        links += decode(pairs, mean, features.order, threshold)
    return links


def voted_mentions(taggers: Sequence[MentionTagger], documents: list[list[str]]) -> list[Found]:
    """Per document, the mentions a majority of the taggers found (boundaries corrected first,
    so that taggers that differ only by a bracket agree)."""
    nonempty = [k for k, tokens in enumerate(documents) if tokens]
    texts = [documents[k] for k in nonempty]
    shared = len({(str(t.config.get("encoder_path")), str(t.device)) for t in taggers}) == 1
    vectors = taggers[0].encoder.vectors(texts) if shared and texts else None
    per_tagger = [
        corrected(
            tagger,
            texts,
            mention_tagger.predict(
                tagger.net,
                tagger.sequences(texts, vectors),
                tagger.device,
                precision=tagger.precision,
            ),
        )
        for tagger in taggers
    ]
    results: list[Found] = [[] for _ in documents]
    for position, k in enumerate(nonempty):
        results[k] = vote_mentions([found[position] for found in per_tagger])
    return results


def ensemble_from_text(
    taggers: Sequence[MentionTagger],
    link_models: Sequence[ChemuModel],
    topic: TopicData,
    threshold: float | None = None,
) -> Suggestions:
    """The voted mentions the topic does not have, and links over existing + proposed mentions
    from the link models' mean probabilities (indices as `chemu_mentions.suggest_from_text`)."""
    documents = [document.tokens for document in topic.documents]
    existing = {(m.document, tuple(tuple(span) for span in m.spans)) for m in topic.mentions}
    proposed = [
        MentionSuggestion(document, [list(span) for span in spans], score)
        for document, found in enumerate(voted_mentions(taggers, documents))
        for spans, score in found
        if (document, tuple(tuple(span) for span in spans)) not in existing
    ]
    links = ensemble_links(link_models, with_mentions(topic, proposed), threshold)
    return Suggestions(mentions=proposed, links=links)
