"""The `cross-encoder` backend: a fine-tuned pair classifier such as allenai/longformer-scico.

Input: SciCo's own pair encoding (modelserve/backends/scico_pairs.py): each mention's
paragraph with `<m>` / `</m>` around it and the separator after it (CDLM: inside `<doc-s>` ...
`</doc-s>`), the two concatenated with the separator into one string; global attention on the
first token and on the markers where the model takes it. A context is cut around its mention
only when the pair would not fit the model.

Classes come from the checkpoint's `id2label`, by name; a checkpoint that names them
`LABEL_0..3` (longformer-scico does) is read in SciCo's order - 0 unrelated, 1 coref, 2 m1 is
a parent of m2, 3 m1 is a child of m2 - and `label_note` says so. Every ordered pair is scored,
batched, on the GPU when there is one; then SciCo's decoding (scico_decoding.py), the mode a
parameter: `scico-released` (default, the released code, ascending greedy order) or `paper`.
The thresholds default to those saved with the model by `python -m modelserve.train --backend
cross-encoder` (tuned on dev), else SciCo's configs/multiclass.yaml (0.6 and 0.4).

`model_path` is a checkpoint folder, a `scico-b2` model or SciCo's own Lightning .ckpt (with
`base_model`, the encoder it started from): scico_checkpoints.py tells them apart. Inference
runs in half precision on a GPU unless `precision` (default: what the model was trained with;
fp32 for SciCo's checkpoint, as SciCo ran it) says fp32.
"""

from __future__ import annotations

import inspect
import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import torch

from corefscore.corpus import TopicData
from modelserve.arrays import FloatArray, IntArray
from modelserve.backends.base import Progress, Suggestions, no_progress
from modelserve.backends.decoding import cluster_confidences, member_confidences, to_suggestions
from modelserve.backends.parameters import with_defaults
from modelserve.backends.scico_checkpoints import is_lightning, load_checkpoint
from modelserve.backends.scico_decoding import (
    AGG_THRESHOLD,
    CHILD,
    COREF,
    HYPERNYM_THRESHOLD,
    PARENT,
    UNRELATED,
    coref_adjacency,
    decode,
)
from modelserve.backends.scico_pairs import (
    DOC_END,
    DOC_START,
    END,
    START,
    is_cdlm,
    marked_context,
    pair_text,
)
from modelserve.backends.scico_pairs import (
    global_attention_mask as attention_on_markers,
)
from modelserve.devices import pick_device
from modelserve.encoders import SerialTokenizer, context_window, mention_document, sentence_range
from modelserve.loaded_models import LoadedModels

logger = logging.getLogger(__name__)

THRESHOLDS_FILE = "scico_thresholds.json"  # written by training, beside the weights
ALIASES = {
    UNRELATED: {"unrelated", "notrelated", "none", "norelation", "negative", "other", "neutral"},
    COREF: {"coref", "corefer", "coreference", "corefers", "identical", "same", "equivalent"},
    PARENT: {"parent", "hypernym", "m1parent", "m1isparentofm2", "m1parentofm2", "broader"},
    CHILD: {"child", "hyponym", "m1child", "m1ischildofm2", "m1childofm2", "narrower"},
}
SCICO_ORDER_NOTE = (
    "id2label {labels} names no SciCo classes: reading outputs in SciCo's order "
    "(0 unrelated, 1 coref, 2 m1 parent of m2, 3 m1 child of m2), as allenai/longformer-scico uses"
)

_LOADED: LoadedModels[tuple[str, str, str], tuple[Any, Any]] = LoadedModels("cross-encoders")


def label_order(id2label: dict[int, str], num_labels: int) -> tuple[list[int], str | None]:
    """For each model output, its SciCo class; and a note when the order had to be assumed."""
    found: list[int] = []
    for index in range(num_labels):
        name = re.sub(r"[^a-z0-9]", "", str(id2label.get(index, "")).lower())
        known = next((cls for cls, names in ALIASES.items() if name in names), None)
        if known is not None:
            found.append(known)
    if num_labels == 4 and len(set(found)) == 4:  # every output named, each class once
        return found, None
    if num_labels == 4:
        return [UNRELATED, COREF, PARENT, CHILD], SCICO_ORDER_NOTE.format(labels=dict(id2label))
    raise ValueError(
        f"a SciCo pair classifier has 4 classes; this checkpoint has {num_labels} ({id2label})"
    )


class CrossEncoderBackend:
    name = "cross-encoder"

    def __init__(
        self, params: dict[str, Any] | None = None, *, loaded: tuple[Any, Any] | None = None
    ) -> None:
        """`loaded`: (tokenizer, model) already in memory (training encodes its pairs and
        scores its dev topics with the model it is fine-tuning); else from model_path."""
        self.params = with_defaults(self.name, params)  # parameters.py declares them
        if not self.params["model_path"]:
            raise ValueError(
                "the cross-encoder backend needs model_path (a local checkpoint directory)"
            )
        saved = _saved_training(self.params["model_path"])
        self.agg_threshold = float(
            _first(self.params["agg_threshold"], saved.get("agg_threshold"), AGG_THRESHOLD)
        )
        self.hypernym_threshold = float(
            _first(
                self.params["hypernym_threshold"],
                saved.get("hypernym_threshold"),
                HYPERNYM_THRESHOLD,
            )
        )
        self.device = pick_device(self.params["device"])
        # fp32 is SciCo's (its Trainer sets no precision): a scico-b2 model and SciCo's own
        # Lightning checkpoint default to it; the default profile's models to fp16 on a GPU
        lightning = is_lightning(self.params["model_path"])
        self.precision = str(
            _first(
                self.params["precision"], saved.get("precision"), "fp32" if lightning else "fp16"
            )
        )
        self.tokenizer, self.model = loaded or _load(
            self.params["model_path"], self.device, self.params["base_model"]
        )
        config = self.model.config
        self.order, self.label_note = label_order(
            {int(k): v for k, v in (config.id2label or {}).items()}, int(config.num_labels)
        )
        if self.label_note:
            logger.warning("%s: %s", self.params["model_path"], self.label_note)
        self.start_id, self.end_id = (self._marker_id(token) for token in (START, END))
        self.cdlm = is_cdlm(self.tokenizer, str(self.params["model_path"]))
        self.marker_ids = [self.start_id, self.end_id]
        if self.cdlm:
            self.marker_ids += [self._marker_id(token) for token in (DOC_START, DOC_END)]
        self.separator = str(self.tokenizer.sep_token)
        self.global_attention = (
            "global_attention_mask" in inspect.signature(self.model.forward).parameters
        )
        self.max_length = self._max_length()

    def _marker_id(self, token: str) -> int:
        ids = self.tokenizer(f"a {token} b", add_special_tokens=False)["input_ids"]
        token_id = self.tokenizer.convert_tokens_to_ids(token)
        if token_id is None or token_id == self.tokenizer.unk_token_id or token_id not in ids:
            raise ValueError(
                f"{self.params['model_path']}: the tokenizer has no {token} token; "
                "a SciCo cross-encoder is fine-tuned with <m> and </m> added as special tokens"
            )
        return int(token_id)

    def _max_length(self) -> int:
        limits = [int(self.params["max_length"] or 1_000_000)]
        if 0 < getattr(self.tokenizer, "model_max_length", 0) < 1_000_000:
            limits.append(int(self.tokenizer.model_max_length))
        positions = getattr(self.model.config, "max_position_embeddings", None)
        if positions:
            pad = self.model.config.pad_token_id
            limits.append(
                int(positions)
                - (
                    pad + 1
                    if pad is not None
                    and self.model.config.model_type in {"roberta", "longformer", "xlm-roberta"}
                    else 0
                )
            )
        return min(limits)

    # -- inputs --------------------------------------------------------------------------

    def contexts(self, topic: TopicData) -> list[str]:
        """Each mention's marked context (SciCo's), cut around the mention only where the
        pair would not fit: each side gets half of what the special tokens leave."""
        fixed = self.tokenizer.num_special_tokens_to_add(pair=False) + 3 + (4 if self.cdlm else 0)
        budget = (self.max_length - fixed) // 2
        counts: dict[int, list[int]] = {}
        texts = []
        for mention in topic.mentions:
            document = mention_document(topic, mention)
            if mention.document not in counts:
                pieces = self.tokenizer(
                    [" " + t for t in document.tokens], add_special_tokens=False
                )["input_ids"]
                counts[mention.document] = [len(p) for p in pieces] if document.tokens else []
            words = [w for s, e in mention.spans for w in range(s, e + 1)]
            lo, hi = (
                sentence_range(document, words)
                if self.params["context"] == "sentence"
                else (0, len(document.tokens))
            )
            marks = 2 * len(mention.spans)
            lo, hi = context_window(counts[mention.document], words, max(budget - marks, 1), lo, hi)
            texts.append(
                marked_context(
                    document.tokens, mention.spans, self.separator, cdlm=self.cdlm, lo=lo, hi=hi
                )
            )
        return texts

    def encode(self, pairs: list[str]) -> dict[str, torch.Tensor]:
        """Model inputs for pair strings, as SciCo's tokenize_batch builds them."""
        encoding = self.tokenizer(
            pairs, padding=True, truncation=True, max_length=self.max_length, return_tensors="pt"
        )
        inputs = {"input_ids": encoding["input_ids"], "attention_mask": encoding["attention_mask"]}
        if self.global_attention:
            inputs["global_attention_mask"] = self.global_attention_mask(encoding["input_ids"])
        return inputs

    def batches(
        self, topic: TopicData
    ) -> Iterator[tuple[IntArray, IntArray, dict[str, torch.Tensor]]]:
        """(first, second, model inputs) per batch of ordered pairs, shortest pairs first."""
        texts = self.contexts(topic)
        n = len(texts)
        first, second = np.nonzero(~np.eye(n, dtype=bool))
        lengths = np.array([len(t) for t in texts])
        order = np.argsort(lengths[first] + lengths[second], kind="stable")
        first, second = first[order], second[order]
        size = max(1, int(self.params["batch_size"]))
        for start in range(0, len(first), size):
            f, s = first[start : start + size], second[start : start + size]
            pairs = [
                pair_text(texts[i], texts[j], self.separator) for i, j in zip(f, s, strict=True)
            ]
            yield f, s, self.encode(pairs)

    def global_attention_mask(self, input_ids: torch.Tensor) -> torch.Tensor:
        """1 on the first token ([CLS] / <s>) and on every marker, as in SciCo."""
        return attention_on_markers(input_ids, self.marker_ids)

    # -- scoring -------------------------------------------------------------------------

    @torch.inference_mode()
    def pair_probabilities(self, topic: TopicData, progress: Progress = no_progress) -> FloatArray:
        """n x n x 4 probabilities in SciCo's class order (diagonal left at zero)."""
        n = len(topic.mentions)
        out = np.zeros((n, n, 4), dtype=np.float32)
        total, done = n * (n - 1), 0
        use_half = self.device.type == "cuda" and self.precision == "fp16"
        for f, s, inputs in self.batches(topic):
            inputs = {k: v.to(self.device) for k, v in inputs.items()}
            with torch.autocast("cuda", dtype=torch.float16, enabled=use_half):
                logits = self.model(**inputs).logits
            probs = torch.softmax(logits.float(), dim=-1).cpu().numpy()
            out[f[:, None], s[:, None], np.array(self.order)[None, :]] = probs
            done += len(f)
            progress(0.9 * done / max(total, 1), f"scored {done}/{total} mention pairs")
        return out

    def suggest(self, topic: TopicData, *, progress: Progress = no_progress) -> Suggestions:
        probabilities = self.pair_probabilities(topic, progress)
        suggestions = decoded_suggestions(
            probabilities,
            decoding=str(self.params["decoding"]),
            agg_threshold=self.agg_threshold,
            hypernym_threshold=self.hypernym_threshold,
        )
        progress(1.0, "done")
        return suggestions


def decoded_suggestions(
    probabilities: FloatArray, *, decoding: str, agg_threshold: float, hypernym_threshold: float
) -> Suggestions:
    """SciCo's decoding as suggestions; confidences from the undirected coref adjacency."""
    decoded = decode(
        probabilities,
        decoding=decoding,
        agg_threshold=agg_threshold,
        hypernym_threshold=hypernym_threshold,
    )
    adjacency = coref_adjacency(probabilities).astype(np.float64)
    similarity = np.maximum(adjacency, adjacency.T)
    return to_suggestions(
        decoded.clusters,
        cluster_confidences(similarity, decoded.clusters),
        decoded.relations,
        member_confidences(similarity, decoded.clusters),
    )


def _first(*values: Any) -> Any:
    return next(v for v in values if v is not None)


def _saved_training(path: str | Path) -> dict[str, Any]:
    """What training saved beside this model (its tuned thresholds, its inference precision),
    if it saved anything (a Lightning .ckpt or a downloaded checkpoint has nothing)."""
    file = Path(path).expanduser() / THRESHOLDS_FILE
    if not file.is_file():
        return {}
    values = json.loads(file.read_text())
    saved: dict[str, Any] = {
        k: float(values[k]) for k in ("agg_threshold", "hypernym_threshold") if k in values
    }
    if values.get("hyperparameters", {}).get("precision") in ("fp16", "fp32"):
        saved["precision"] = values["hyperparameters"]["precision"]
    return saved


def _load(path: str | Path, device: torch.device, base: str | None = None) -> tuple[Any, Any]:
    """Tokenizer and model from local files only, once per process and device while they stay
    in the bounded cache (loaded_models.py): a checkpoint
    folder or SciCo's Lightning .ckpt (scico_checkpoints.py; `base`: the encoder it started
    from)."""
    resolved = str(Path(path).expanduser().resolve())

    def load() -> tuple[Any, Any]:
        tokenizer, model = load_checkpoint(resolved, base)
        # Shared by every run of the process, whatever thread it runs in (encoders.py).
        return SerialTokenizer(tokenizer), model.to(device).eval()

    return _LOADED.get((resolved, str(device), str(base or "")), load)
