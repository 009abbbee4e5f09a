"""The exception tree of GoodMemory.

Every error the public API raises is a subclass of :class:`GoodMemoryError`;
pydantic, SQLAlchemy, numpy or HTTP errors are wrapped, never leaked raw::

    GoodMemoryError
    ├── InvalidInputError          bad arguments: say what to fix; nothing stored changed
    ├── MemoryNotFoundError        no such memory in this user's scope (other users' ids look the same)
    ├── ConfigurationError         a setting, extra or model that is missing or wrong
    ├── ExtractionError            the extractor failed; the remember() call wrote nothing
    ├── EmbeddingError             the embedder failed or returned the wrong shape
    ├── LLMError                   an OpenAI-compatible endpoint failed (timeouts, 429, bad output)
    └── StorageError               the store failed; the transaction was rolled back
        ├── SlotConflictError          a concurrent writer changed the slot first (remember() retries)
        ├── StorageUnavailableError    the database cannot be reached or opened
        ├── SchemaVersionError         the database was written by a newer GoodMemory
        └── DimensionMismatchError     a vector of the wrong dimension for this store
"""

from __future__ import annotations

__all__ = [
    "ConfigurationError",
    "DimensionMismatchError",
    "EmbeddingError",
    "ExtractionError",
    "GoodMemoryError",
    "InvalidInputError",
    "LLMError",
    "MemoryNotFoundError",
    "SchemaVersionError",
    "SlotConflictError",
    "StorageError",
    "StorageUnavailableError",
]


class GoodMemoryError(Exception):
    """Base class of every error GoodMemory raises on purpose."""


class InvalidInputError(GoodMemoryError, ValueError):
    """An argument is malformed; the message names the argument and the fix."""


class MemoryNotFoundError(GoodMemoryError, LookupError):
    """No memory with this id exists in the caller's scope."""


class ConfigurationError(GoodMemoryError):
    """A configuration value, optional extra or packaged model is missing or wrong."""


class ExtractionError(GoodMemoryError):
    """The extractor failed; nothing from the remember() call was written."""


class EmbeddingError(GoodMemoryError):
    """The embedder failed or produced vectors of an unexpected shape."""


class LLMError(GoodMemoryError):
    """A call to an OpenAI-compatible endpoint failed after its retries."""


class StorageError(GoodMemoryError):
    """The storage backend failed; the current transaction was rolled back."""


class SlotConflictError(StorageError):
    """Another writer changed what this write was planned against (a slot taken, a record gone)."""


class StorageUnavailableError(StorageError):
    """The database cannot be reached or opened."""


class SchemaVersionError(StorageError):
    """The database schema is newer than this version of GoodMemory understands."""


class DimensionMismatchError(StorageError, InvalidInputError):
    """A vector's dimension differs from the dimension the store was created with."""
