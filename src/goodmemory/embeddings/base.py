"""The embedder contract.

``embed(texts)`` returns a float32 matrix of shape ``(len(texts), dim)`` whose
rows are L2-normalised, so a dot product is the cosine similarity (higher is
more similar, in [-1, 1]).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from ..errors import EmbeddingError

__all__ = ["Embedder", "check_matrix", "normalize_rows"]


@runtime_checkable
class Embedder(Protocol):
    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def normalize_rows(mat: np.ndarray) -> np.ndarray:
    mat = np.asarray(mat, dtype=np.float32)
    norms = np.linalg.norm(mat, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (mat / norms).astype(np.float32, copy=False)


def check_matrix(mat: np.ndarray, n: int, dim: int, who: str) -> np.ndarray:
    """Validate an embedder's output; a wrong shape or NaN is an EmbeddingError."""
    arr = np.asarray(mat, dtype=np.float32)
    if arr.ndim != 2 or arr.shape != (n, dim):
        raise EmbeddingError(f"{who} returned shape {arr.shape}, expected ({n}, {dim})")
    if not np.isfinite(arr).all():
        raise EmbeddingError(f"{who} returned non-finite values")
    return arr
