"""The adapter for a storage URL (``create_good_memory``, ``goodmemory doctor``)."""

from __future__ import annotations

from ..config import StorageConfig
from ..errors import ConfigurationError, InvalidInputError
from ._url import psycopg_url, redact_url
from .base import Storage

__all__ = ["open_storage"]


def open_storage(url: str, settings: StorageConfig | None = None) -> Storage:
    """The adapter for ``url``, configured with ``settings`` (pool, index and SQLite options)."""
    if not isinstance(url, str) or not url:
        raise InvalidInputError("storage must be a URL string or a Storage object")
    settings, url = settings or StorageConfig(), psycopg_url(url)
    if url.startswith("sqlite"):
        from .sql import SQLStorage

        return SQLStorage(url, **settings.sqlite_options())
    if url.startswith("memory://"):
        from .memory import InMemoryStorage

        return InMemoryStorage()
    if url.startswith(("postgresql://", "postgresql+psycopg://")):
        try:
            import psycopg  # noqa: F401
        except ImportError as exc:
            raise ConfigurationError(
                "PostgreSQL storage needs psycopg 3 and pgvector: pip install goodmemory[postgres]"
            ) from exc
        from .postgres import PostgresStorage

        return PostgresStorage(url, **settings.postgres_options())
    raise InvalidInputError(
        f"unsupported storage URL {redact_url(url)!r}: use sqlite:///path.db, sqlite://, memory:// or "
        "postgresql+psycopg://user:password@host/db"
    )
