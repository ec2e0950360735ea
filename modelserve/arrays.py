"""The array types the model code passes around."""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

# Scores, probabilities, embeddings: float32 out of torch, float64 out of numpy and scipy.
FloatArray: TypeAlias = npt.NDArray[np.floating[Any]]
# Token ids, attention masks, labels.
IntArray: TypeAlias = npt.NDArray[np.integer[Any]]
