"""The cross-encoder's training profiles: its hyperparameters by name. Light (no torch), so the
web server can check a project's chosen profile.

- `default`: B.2's per-device settings (batch 4, gradient accumulation 4: 16 pairs per
  optimiser step), the sequence-classification head of the checkpoint's family, thresholds
  tuned over a finer grid than SciCo's with CoNLL F1 breaking path-ratio ties, half precision
  at inference on a GPU. What the product did before the profiles, kept as the default.
- `scico-b2`: SciCo's recipe exactly (appendix B.2, `configs/multiclass.yaml`,
  `models/muticlass.py`, `tune_hp_multiclass.py`): the paper's 8 GPUs x batch 4 x gradient
  accumulation 4 = 128 pairs per optimiser step, here on one device as batch 4 x accumulation
  32; one linear layer over the first token's last hidden state; thresholds tuned over
  `np.arange(0.4, 0.61, 0.1)` for both, keeping the first pair (clustering threshold outer,
  hierarchy inner) with the highest micro path ratio (`np.argmax`, no tie-break); float32
  inference (SciCo's Trainer sets no precision).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

AGG_GRID = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
HYPERNYM_GRID = (0.3, 0.4, 0.5, 0.6, 0.7)
# np.arange(0.4, 0.61, 0.1) is 0.4, 0.5, 0.6000000000000001: the same float32 threshold as 0.6
SCICO_GRID = (0.4, 0.5, 0.6)

HEADS = ("auto", "linear")  # auto: AutoModelForSequenceClassification's; linear: SciCo's
CRITERIA = ("path-ratio-then-conll", "scico")  # scico: path ratio alone, first best kept
PRECISIONS = ("fp16", "fp32")  # inference on a GPU (a CPU computes in float32 either way)


@dataclass(frozen=True)
class Hyperparameters:
    """SciCo's configs/multiclass.yaml (B.2) per device, and how the model is decoded."""

    epochs: int = 1
    lr: float = 1e-5
    batch_size: int = 4
    gradient_accumulation: int = 4
    gradient_clip: float = 1.0
    seed: int = 0
    context: str = "document"  # document (SciCo's full_doc) | sentence
    max_length: int | None = None
    head: str = "auto"
    agg_grid: tuple[float, ...] = field(default=AGG_GRID)
    hypernym_grid: tuple[float, ...] = field(default=HYPERNYM_GRID)
    criterion: str = "path-ratio-then-conll"
    precision: str = "fp16"
    profile: str = "default"

    @property
    def effective_batch(self) -> int:
        """Pairs per optimiser step."""
        return self.batch_size * self.gradient_accumulation


PROFILES: dict[str, Hyperparameters] = {
    "default": Hyperparameters(),
    "scico-b2": Hyperparameters(
        gradient_accumulation=32,
        head="linear",
        agg_grid=SCICO_GRID,
        hypernym_grid=SCICO_GRID,
        criterion="scico",
        precision="fp32",
        profile="scico-b2",
    ),
}
DEFAULT_PROFILE = "default"


def profile_hyperparameters(name: str = DEFAULT_PROFILE, **changes: Any) -> Hyperparameters:
    """The profile's hyperparameters with `changes` (epochs, seed...) applied."""
    if name not in PROFILES:
        raise ValueError(f"unknown training profile {name!r}; known: {', '.join(PROFILES)}")
    return replace(PROFILES[name], **changes)
