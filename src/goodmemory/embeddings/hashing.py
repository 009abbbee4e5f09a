"""A deterministic hashing embedder: for tests, and a loud fallback.

Words and character trigrams are hashed into a fixed number of buckets. It
knows nothing of meaning, only of shared words, so it is no substitute for
the packaged MiniLM model in production.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from .base import normalize_rows

__all__ = ["HashingEmbedder"]

_WORD = re.compile(r"\w+", re.UNICODE)


class HashingEmbedder:
    #: words hashed to buckets: alike spellings, not alike meanings (the write path keeps no statements by meaning)
    semantic = False

    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        self.name = f"hashing-{dim}"

    def _bucket(self, token: str) -> tuple[int, float]:
        digest = hashlib.blake2b(token.encode("utf-8", "surrogatepass"), digest_size=8).digest()
        value = int.from_bytes(digest, "little")
        return value % self.dim, 1.0 if (value >> 63) & 1 else -1.0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            words = _WORD.findall(text.lower())
            for word in words:
                idx, sign = self._bucket("w:" + word)
                out[row, idx] += 2.0 * sign
                padded = f"#{word}#"
                for i in range(len(padded) - 2):
                    idx, sign = self._bucket("t:" + padded[i : i + 3])
                    out[row, idx] += 0.5 * sign
        return normalize_rows(out)
