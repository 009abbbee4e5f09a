"""An embedder for any OpenAI-compatible ``/v1/embeddings`` endpoint."""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from ..errors import EmbeddingError
from .base import check_matrix, normalize_rows

__all__ = ["OpenAIEmbedder"]


class OpenAIEmbedder:
    def __init__(
        self,
        model: str = "text-embedding-3-small",
        *,
        dim: int,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 30.0,
        batch_size: int = 128,
    ) -> None:
        import openai

        self.name = f"openai:{model}"
        self.model = model
        self.dim = dim
        self.batch_size = batch_size
        self._client = openai.OpenAI(
            base_url=base_url or os.environ.get("OPENAI_BASE_URL"),
            api_key=api_key or os.environ.get("OPENAI_API_KEY") or "unused",
            timeout=timeout_s,
            max_retries=2,
        )

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        rows: list[list[float]] = []
        try:
            for start in range(0, len(texts), self.batch_size):
                chunk = list(texts[start : start + self.batch_size])
                resp = self._client.embeddings.create(model=self.model, input=chunk)
                rows.extend(item.embedding for item in sorted(resp.data, key=lambda d: d.index))
        except Exception as exc:
            raise EmbeddingError(f"embedding endpoint failed: {exc}") from exc
        if not rows:
            return np.zeros((0, self.dim), dtype=np.float32)
        return normalize_rows(check_matrix(np.array(rows), len(texts), self.dim, self.name))
