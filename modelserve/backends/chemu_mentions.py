"""Anaphora from raw text: find the mentions (a BIOHD tagger), then link them (the chemu model).

What other code calls (pure: no Django, no settings; every folder is passed in; the app's
default is <MODELS_DIR>/`DIRECTORY`):

- `train_chemu_mentions(topics, out_dir, *, progress=no_progress, seed=0, ...)`: train
  the mention tagger on gold ChEMU topics (`TopicData`, every mention a gold mention),
  score it end to end on the held-out share (with `link_model`, or the one saved in
  `link_model_dir`) and save it to `out_dir`. `vector_folder`: the frozen encoder's vectors
  are kept there per document (`vector_cache`), so a later training encodes only new or
  changed documents. `progress(fraction, message)` is
  `base.Progress`; a Celery task can pass its own. Returns a summary dict (scores, seconds).
- `mentions_trained(model_dir) -> bool`: whether a complete tagger is saved there.
- `load_mentions(model_dir, device="auto") -> MentionTagger`: loaded once per process.
- `propose_mentions(tagger, topic) -> list[MentionSuggestion]`: mentions found in the topic's
  text that it does not already have.
- `suggest_from_text(tagger, link_model, topic, threshold=None) -> Suggestions`: proposed
  mentions, plus links over the existing and proposed mentions (indices as
  `base.LinkSuggestion` says). The `chemu` backend calls it when a tagger is trained.

Held-out figures, the commands and what was tried: docs/mentions.md.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

from corefscore.corpus import MentionData, TopicData
from corefscore.metrics.counts import Counts, add_counts
from corefscore.metrics.mention_detection import mention_detection_counts
from corefscore.scoring.api import score_chemu
from modelserve.arrays import FloatArray
from modelserve.backends import biohd, chemu_boundaries, mention_tagger
from modelserve.backends.base import MentionSuggestion, Progress, Suggestions, no_progress
from modelserve.backends.chemu_linking import suggest_links, with_links
from modelserve.backends.chemu_model import ChemuModel
from modelserve.backends.mention_features import WordEncoder, WordVocabulary
from modelserve.backends.mention_tagger import MentionTagger, Sequence
from modelserve.backends.vector_cache import VectorCache
from modelserve.devices import pick_device

DIRECTORY = "chemu-mentions"  # the tagger's folder in the models folder
# The defaults (so that both steps train in under 3 minutes on 2 cores): 14 epochs with the
# learning rate falling to 0, 128 channels per direction, batches of 16 documents. 20 epochs
# at a constant rate and 192 channels took 2.2x longer for the same held-out scores
# (docs/mentions.md, "Training time").
EPOCHS = 14
HIDDEN = 128


def mentions_trained(model_dir: str | Path) -> bool:
    return mention_tagger.is_complete(model_dir)


def load_mentions(model_dir: str | Path, device: str | torch.device = "auto") -> MentionTagger:
    return mention_tagger.load(model_dir, device)


# ------------------------------------------------------------------------------ predicting


def corrected(
    tagger: MentionTagger, documents: list[list[str]], found: list[list[tuple[biohd.Spans, float]]]
) -> list[list[tuple[biohd.Spans, float]]]:
    """The tagger's mentions with their boundaries corrected (`chemu_boundaries`), unless its
    config says `correct_boundaries: false`."""
    if not tagger.config.get("correct_boundaries", True):
        return found
    return [
        chemu_boundaries.correct(tokens, mentions)
        for tokens, mentions in zip(documents, found, strict=True)
    ]


def found_mentions(tagger: MentionTagger, topic: TopicData) -> list[MentionSuggestion]:
    """Every mention the tagger finds in the topic's documents (boundaries corrected)."""
    documents = [document.tokens for document in topic.documents]
    return [
        MentionSuggestion(document, [list(span) for span in spans], score)
        for document, mentions in enumerate(
            corrected(tagger, documents, tagger.mentions(documents))
        )
        for spans, score in mentions
    ]


def propose_mentions(tagger: MentionTagger, topic: TopicData) -> list[MentionSuggestion]:
    """The mentions found that the topic does not have (same document and spans)."""
    existing = {(m.document, tuple(tuple(span) for span in m.spans)) for m in topic.mentions}
    return [
        mention
        for mention in found_mentions(tagger, topic)
        if (mention.document, tuple(tuple(span) for span in mention.spans)) not in existing
    ]


def with_mentions(topic: TopicData, proposed: list[MentionSuggestion]) -> TopicData:
    """A copy of the topic with the proposed mentions appended after its own (no links)."""
    result = copy.copy(topic)
    result.mentions = list(topic.mentions) + [
        MentionData(m.document, tuple((start, end) for start, end in m.spans)) for m in proposed
    ]
    result.links = []
    return result


def suggest_from_text(
    tagger: MentionTagger,
    link_model: ChemuModel,
    topic: TopicData,
    threshold: float | None = None,
) -> Suggestions:
    """Proposed mentions and links over existing + proposed mentions (index len(topic.mentions)
    + k names proposed mention k). Default threshold: the one tuned on predicted mentions."""
    proposed = propose_mentions(tagger, topic)
    if threshold is None:
        threshold = tagger.config.get("link_threshold")
    links = suggest_links(link_model, with_mentions(topic, proposed), threshold)
    return Suggestions(mentions=proposed, links=links)


# ------------------------------------------------------------------------------ training


def gold_sequences(
    topics: list[TopicData], vectors: list[Any], vocabulary: WordVocabulary, layers: int
) -> list[Sequence]:
    sequences = []
    index = 0
    for topic in topics:
        for d, document in enumerate(topic.documents):
            spans = [m.spans for m in topic.mentions if m.document == d]
            tags = biohd.encode(spans, len(document.tokens), max_layers=layers)
            tags += [[biohd.O] * len(document.tokens)] * (layers - len(tags))
            sequences.append(
                Sequence(
                    vectors[index],
                    vocabulary.word_ids(document.tokens),
                    vocabulary.char_ids(document.tokens),
                    torch.tensor(tags).numpy(),
                )
            )
            index += 1
    return sequences


def documents_of(topics: list[TopicData]) -> list[list[str]]:
    return [document.tokens for topic in topics for document in topic.documents]


def encoded(
    encoder: WordEncoder,
    topics: list[TopicData],
    cache: dict[tuple[str, int], FloatArray] | None = None,
    store: VectorCache | None = None,
) -> list[FloatArray]:
    """The encoder vectors of every document of the topics, in order; `cache` (keyed by topic
    id and document index) spares encoding them again for another seed, and `store` (on
    disk, keyed by the tokens and the encoder) for another training."""
    cache = {} if cache is None else cache
    keys = [(t.external_id, d) for t in topics for d in range(len(t.documents))]
    documents = documents_of(topics)
    missing = []
    for k, key in enumerate(keys):
        if key in cache:
            continue
        stored = store.get(documents[k]) if store is not None else None
        if stored is None:
            missing.append(k)
        else:
            cache[key] = stored
    for k, vectors in zip(missing, encoder.vectors([documents[k] for k in missing]), strict=True):
        cache[keys[k]] = vectors
        if store is not None:
            store.put(documents[k], vectors)
    return [cache[key] for key in keys]


def train_tagger(
    train: list[TopicData],
    *,
    vectors: list[Any],
    encoder: WordEncoder,
    seed: int,
    epochs: int,
    layers: int,
    hidden: int,
    device: torch.device,
    encoder_path: str | None,
    on_epoch: Callable[[int, float], None],
    context: str = "conv",
    precision: str = "float32",
) -> MentionTagger:
    """Fit a tagger on gold topics whose documents' encoder vectors are given (in order)."""
    vocabulary = WordVocabulary.build(documents_of(train))
    precision = mention_tagger.resolve_precision(precision, device)
    config: dict[str, Any] = {
        "precision": precision,
        "encoder_path": encoder_path,
        "encoder_dim": encoder.dim,
        "layers": layers,
        "hidden": hidden,
        "context": context,
        "epochs": epochs,
        "seed": seed,
    }
    torch.manual_seed(seed)
    net = mention_tagger.build_net(config, vocabulary)
    sequences = gold_sequences(train, vectors, vocabulary, layers)
    mention_tagger.fit(
        net,
        sequences,
        epochs=epochs,
        seed=seed,
        device=device,
        precision=precision,
        progress=on_epoch,
    )
    return MentionTagger(net, vocabulary, encoder, config, device)


def evaluate(
    tagger: MentionTagger,
    link_model: ChemuModel | None,
    holdout: list[TopicData],
    vectors: list[Any],
    threshold: float | None = None,
) -> dict[str, Any]:
    """Held-out mention detection and, with a link model, end-to-end relation scores."""
    documents = documents_of(holdout)
    found = mention_tagger.predict(
        tagger.net, tagger.sequences(documents, vectors), tagger.device, precision=tagger.precision
    )
    found = corrected(tagger, documents, found)
    systems = []
    exact: list[Counts] = []
    relaxed: list[Counts] = []
    index = 0
    for topic in holdout:
        proposed = []
        for d in range(len(topic.documents)):
            proposed += [
                MentionSuggestion(d, [list(s) for s in spans], score)
                for spans, score in found[index]
            ]
            index += 1
        gold_keys = [m.key for m in topic.mentions]
        keys = [(m.document, tuple((s, e) for s, e in m.spans)) for m in proposed]
        exact.append(mention_detection_counts(gold_keys, keys))
        relaxed.append(mention_detection_counts(gold_keys, keys, relaxed=True))
        raw = with_mentions(without_mentions(topic), proposed)
        if link_model is not None:
            raw = with_links(raw, suggest_links(link_model, raw, threshold))
        systems.append(raw)
    scores: dict[str, Any] = {
        "mentions": {"exact": add_counts(exact).prf(), "relaxed": add_counts(relaxed).prf()}
    }
    if link_model is not None:
        scores.update(score_chemu(holdout, systems))
    return scores


def _saved_link_model(directory: str | Path | None, device: str) -> ChemuModel | None:
    """The chemu link model saved in `directory`, if there is one (for end-to-end held-out
    scores)."""
    from modelserve.backends import chemu_model

    if directory is None or not chemu_model.is_complete(directory):
        return None
    return chemu_model.load(directory, device)


def without_mentions(topic: TopicData) -> TopicData:
    """A copy of the topic with its text alone (no mentions, links or clusters)."""
    result = copy.copy(topic)
    result.mentions, result.links, result.clusters = [], [], []
    return result


def train_chemu_mentions(
    topics: list[TopicData],
    out_dir: str | Path,
    *,
    progress: Progress = no_progress,
    seed: int = 0,
    holdout_fraction: float = 0.15,
    epochs: int = EPOCHS,
    layers: int = 2,
    hidden: int = HIDDEN,
    context: str = "conv",
    precision: str = "float32",
    correct_boundaries: bool = True,
    encoder_path: str | None = None,
    device: str = "auto",
    link_model: ChemuModel | None = None,
    link_model_dir: str | Path | None = None,
    vector_cache: dict[tuple[str, int], FloatArray] | None = None,
    vector_folder: str | Path | None = None,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Train the tagger on gold topics, score it on a held-out share (end to end when a
    `link_model` is given), save it; returns the summary (also saved in its config.json).
    `correct_boundaries`: whether its mentions' brackets are balanced (`chemu_boundaries`)."""
    from modelserve.backends.chemu_training import split_topics

    started = time.monotonic()
    if link_model is None:
        link_model = _saved_link_model(link_model_dir, device)
    # the link model's filter, so that one seed holds out the same topics for both steps
    usable = [t for t in topics if t.links and len(t.mentions) >= 2]
    if not usable:
        raise ValueError("no topic with gold links to train on")
    train, holdout = split_topics(usable, holdout_fraction, seed)
    log(f"mention tagger: {len(train)} topics for training, {len(holdout)} held out")
    target = pick_device(device)
    progress(0.0, "encoding the documents")
    encoder = WordEncoder(encoder_path, target)
    store = VectorCache(vector_folder, encoder) if vector_folder is not None else None
    vectors = encoded(encoder, train + holdout, vector_cache, store)
    train_vectors, holdout_vectors = (
        vectors[: len(documents_of(train))],
        vectors[len(documents_of(train)) :],
    )
    encode_seconds = time.monotonic() - started
    log(f"encoded {len(vectors)} documents in {encode_seconds:.0f} s")

    def on_epoch(epoch: int, loss: float) -> None:
        log(f"epoch {epoch}/{epochs}: loss {loss:.4f}")
        progress(0.3 + 0.6 * epoch / epochs, f"training the mention tagger: epoch {epoch}/{epochs}")

    progress(0.3, "training the mention tagger")
    tagger = train_tagger(
        train,
        vectors=train_vectors,
        encoder=encoder,
        seed=seed,
        epochs=epochs,
        layers=layers,
        hidden=hidden,
        device=target,
        encoder_path=encoder_path,
        on_epoch=on_epoch,
        context=context,
        precision=precision,
    )
    train_seconds = time.monotonic() - started
    tagger.config["correct_boundaries"] = correct_boundaries  # at every use, held-out included
    scores = None
    if holdout:
        progress(0.9, "scoring the held-out snippets")
        scores = evaluate(tagger, link_model, holdout, holdout_vectors)
    tagger.config.update(
        train_seconds=round(train_seconds, 1),
        encode_seconds=round(encode_seconds, 1),
        holdout_fraction=holdout_fraction,
        train_topics=len(train),
        holdout_topics=[t.external_id for t in holdout],
        holdout_scores=scores,
    )
    out = Path(out_dir)
    mention_tagger.save(tagger, out)
    progress(1.0, f"mention tagger saved ({train_seconds:.0f} s)")
    log(f"saved to {out} (training took {train_seconds:.0f} s)")
    return {
        "out_dir": str(out),
        "scores": scores,
        "train_seconds": train_seconds,
        "encode_seconds": encode_seconds,  # part of train_seconds (~0 when cached)
    }
