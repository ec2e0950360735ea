"""Where a model runs: the GPU when there is one, the CPU otherwise.

Every backend asks here, so one setting (`SUGGEST_DEVICE`, passed in by the caller) decides
for all of them: `auto` (CUDA if available), `cpu`, `cuda` or `cuda:N`.
"""

from __future__ import annotations

import logging

import torch

logger = logging.getLogger(__name__)


def pick_device(preference: str | None = "auto") -> torch.device:
    """The torch device for `preference`; a CUDA request without CUDA falls back to the CPU.

    Falling back (with a warning) rather than failing keeps a worker configured for a GPU
    machine usable on a laptop: suggestions are slower, never missing.
    """
    choice = (preference or "auto").strip().lower()
    if choice == "cpu":
        return torch.device("cpu")
    if choice == "auto":
        return torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
    if choice.startswith("cuda"):
        if torch.cuda.is_available():
            return torch.device(choice)
        logger.warning("device %r requested but CUDA is not available: using the CPU", choice)
        return torch.device("cpu")
    raise ValueError(f"unknown device preference {preference!r}: use auto, cpu, cuda or cuda:N")
