"""SciCo's unified model as SciCo builds it, and the checkpoints the cross-encoder loads.

SciCo's `MulticlassCrossEncoder` (`models/muticlass.py`) is `AutoModel` without its pooling
layer (`self.model`), the vocabulary grown by `<m>` and `</m>`, and one linear layer
(`self.linear`, hidden size -> 4) over the first token's last hidden state. Its PyTorch
Lightning checkpoint is a dict whose `state_dict` names the weights `model.<encoder weight>`
and `linear.weight` / `linear.bias`; it holds no config and no tokenizer (SciCo rebuilds both
from `config["model"]["bert_model"]`), so loading one takes the encoder it was fine-tuned from
(`base_model`: a folder with its config and tokenizer; by default the folder holding the
.ckpt).

`ScicoCrossEncoder` is that module with the same attribute names, so a Lightning state dict
loads into it as it is. Training with the `scico-b2` profile saves it as a folder: the
encoder's own files (`save_pretrained`) and the linear layer in LINEAR_FILE.

Three kinds of `model_path`, told apart here:
- a `.ckpt` file: SciCo's Lightning checkpoint;
- a folder with LINEAR_FILE: a `scico-b2` model trained here;
- any other folder: a sequence-classification checkpoint (allenai/longformer-scico, or a
  model trained with the default profile).
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import torch
from transformers import (
    AutoConfig,
    AutoModel,
    AutoModelForSequenceClassification,
    AutoTokenizer,
)
from transformers.modeling_outputs import SequenceClassifierOutput

from modelserve.backends.scico_decoding import CHILD, COREF, PARENT, UNRELATED
from modelserve.backends.scico_pairs import END, START

LINEAR_FILE = "scico_linear.pt"
LABELS = {UNRELATED: "unrelated", COREF: "coref", PARENT: "parent", CHILD: "child"}
# buffers an older transformers saved that a newer one no longer keeps in its state dict
IGNORED_KEYS = ("position_ids",)


class ScicoCrossEncoder(torch.nn.Module):
    """SciCo's MulticlassCrossEncoder, its forward pass and its attribute names."""

    def __init__(self, encoder: Any, num_classes: int = 4) -> None:
        super().__init__()
        self.model = encoder
        self.linear = torch.nn.Linear(encoder.config.hidden_size, num_classes)
        encoder.config.num_labels = num_classes
        encoder.config.id2label = dict(LABELS)
        encoder.config.label2id = {v: k for k, v in LABELS.items()}
        self._global = "global_attention_mask" in inspect.signature(encoder.forward).parameters

    @property
    def config(self) -> Any:
        return self.model.config

    def forward(
        self,
        input_ids: torch.Tensor,
        attention_mask: torch.Tensor,
        global_attention_mask: torch.Tensor | None = None,
    ) -> SequenceClassifierOutput:
        extra = {}
        if self._global and global_attention_mask is not None:
            extra["global_attention_mask"] = global_attention_mask
        output = self.model(input_ids, attention_mask=attention_mask, **extra)
        return SequenceClassifierOutput(logits=self.linear(output.last_hidden_state[:, 0, :]))

    def resize_token_embeddings(self, size: int) -> None:
        self.model.resize_token_embeddings(size)

    def save_pretrained(self, folder: str | Path) -> None:
        self.model.save_pretrained(folder)
        torch.save(self.linear.state_dict(), Path(folder) / LINEAR_FILE)


def encoder_without_pooler(source: str | Path | Any) -> Any:
    """AutoModel from a folder (or a config) without its pooling layer, as SciCo loads it; a
    family that has no pooling layer to leave out takes no such argument."""

    def make(**options: Any) -> Any:
        if not isinstance(source, str | Path):  # a config: the weights come from a checkpoint
            return AutoModel.from_config(source, **options)  # type: ignore[no-untyped-call]
        return AutoModel.from_pretrained(str(source), local_files_only=True, **options)

    try:
        return make(add_pooling_layer=False)
    except TypeError:
        return make()


def scico_tokenizer(folder: str | Path) -> Any:
    """The encoder's tokenizer with `<m>` and `</m>` added as SciCo adds them (one by one,
    special), so their ids are those of SciCo's grown embedding matrix."""
    tokenizer = AutoTokenizer.from_pretrained(str(folder), local_files_only=True)
    tokenizer.add_tokens(START, special_tokens=True)
    tokenizer.add_tokens(END, special_tokens=True)
    return tokenizer


def load_lightning(checkpoint: str | Path, base: str | Path | None = None) -> tuple[Any, Any]:
    """(tokenizer, model) from SciCo's Lightning checkpoint and the encoder it started from.
    Read with `weights_only`: a checkpoint is data, never code to run."""
    checkpoint = Path(checkpoint)
    base = Path(base) if base else checkpoint.parent
    if not (base / "config.json").is_file():
        raise ValueError(
            f"{checkpoint.name} is a Lightning checkpoint, which holds no config or tokenizer: "
            f"set base_model to the encoder it was fine-tuned from (no config.json in {base})"
        )
    saved = torch.load(checkpoint, map_location="cpu", weights_only=True)
    state = saved.get("state_dict") if isinstance(saved, dict) else None
    if not isinstance(state, dict) or "linear.weight" not in state:
        raise ValueError(
            f"{checkpoint.name} is not SciCo's unified model: its state_dict has no "
            "linear.weight (SciCo's MulticlassCrossEncoder saves model.* and linear.*)"
        )
    tokenizer = scico_tokenizer(base)
    model = ScicoCrossEncoder(encoder_without_pooler(AutoConfig.from_pretrained(str(base))))
    model.resize_token_embeddings(len(tokenizer))
    weights = {k: v for k, v in state.items() if k.startswith(("model.", "linear."))}
    missing, unexpected = model.load_state_dict(weights, strict=False)
    unexpected = [k for k in unexpected if not k.endswith(IGNORED_KEYS)]
    if missing or unexpected:
        raise ValueError(
            f"{checkpoint.name} does not fit {base.name}: "
            f"missing {missing[:5]}, unexpected {unexpected[:5]}"
        )
    return tokenizer, model


def load_folder(folder: str | Path) -> tuple[Any, Any]:
    """(tokenizer, model) from a folder: a scico-b2 model, or a sequence classifier."""
    folder = Path(folder)
    tokenizer = AutoTokenizer.from_pretrained(str(folder), local_files_only=True)
    if not (folder / LINEAR_FILE).is_file():
        return tokenizer, AutoModelForSequenceClassification.from_pretrained(
            str(folder), local_files_only=True
        )
    model = ScicoCrossEncoder(encoder_without_pooler(folder))
    model.linear.load_state_dict(
        torch.load(folder / LINEAR_FILE, map_location="cpu", weights_only=True)
    )
    return tokenizer, model


def load_checkpoint(path: str | Path, base: str | Path | None = None) -> tuple[Any, Any]:
    path = Path(path)
    if path.is_file() and path.suffix == ".ckpt":
        return load_lightning(path, base)
    return load_folder(path)


def is_lightning(path: str | Path) -> bool:
    return Path(path).suffix == ".ckpt"
