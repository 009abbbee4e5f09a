"""Vectors some of which are embedded only when first read: a pipeline that may not need a text's vector defers
it instead of sending it through the model up front."""

from __future__ import annotations

from collections.abc import Hashable, Mapping

import numpy as np

from .base import Embedder, normalize_rows

__all__ = ["DeferredVectors"]


class DeferredVectors:
    """Unit vectors by key, some deferred: a deferred text is embedded when its vector is first read (all the
    deferred ones at once). Reads and membership answer as if every vector had been embedded up front."""

    def __init__(self, embedder: Embedder, vectors: Mapping[Hashable, np.ndarray]) -> None:
        self._embedder = embedder
        self._vecs: dict[Hashable, np.ndarray] = dict(vectors)
        self._texts: dict[Hashable, str] = {}

    def defer(self, key: Hashable, text: str) -> None:
        self._texts[key] = text

    def copy_to(self, key: Hashable, other: DeferredVectors, new_key: Hashable) -> None:
        if key in self._texts:
            other._vecs.pop(new_key, None)
            other._texts[new_key] = self._texts[key]
        else:
            other._texts.pop(new_key, None)
            other._vecs[new_key] = self._vecs[key]

    def _resolve(self) -> None:
        keys = list(self._texts)
        vecs = normalize_rows(self._embedder.embed([self._texts[k] for k in keys]))
        self._vecs.update(zip(keys, vecs, strict=True))
        self._texts.clear()

    def __contains__(self, key: object) -> bool:
        return key in self._vecs or key in self._texts

    def get(self, key: Hashable) -> np.ndarray | None:
        if key in self._texts:
            self._resolve()
        return self._vecs.get(key)

    def __getitem__(self, key: Hashable) -> np.ndarray:
        vec = self.get(key)
        if vec is None:
            raise KeyError(key)
        return vec

    def __setitem__(self, key: Hashable, vec: np.ndarray) -> None:
        self._texts.pop(key, None)
        self._vecs[key] = vec
