"""GoodMemory: long-term user memory for LLM agents.

>>> from goodmemory import create_good_memory
"""

from .aio import AsyncGoodMemory, create_async_good_memory
from .config import GoodMemoryConfig
from .errors import (
    ConfigurationError,
    DimensionMismatchError,
    EmbeddingError,
    ExtractionError,
    GoodMemoryError,
    InvalidInputError,
    LLMError,
    MemoryNotFoundError,
    SchemaVersionError,
    SlotConflictError,
    StorageError,
    StorageUnavailableError,
)
from .memory import GoodMemory, create_good_memory
from .models import (
    Candidate,
    Context,
    ContextItem,
    FeedbackResult,
    FeedbackSignal,
    ForgetReceipt,
    HistoryEntry,
    MaintenanceReport,
    MemoryKind,
    MemoryRecord,
    MemoryStatus,
    Message,
    RecallHit,
    RecallResult,
    UserExport,
    WriteAction,
    WriteDecision,
    WriteResult,
)

__version__ = "0.1.0"

__all__ = [
    "AsyncGoodMemory",
    "Candidate",
    "ConfigurationError",
    "Context",
    "ContextItem",
    "DimensionMismatchError",
    "EmbeddingError",
    "ExtractionError",
    "FeedbackResult",
    "FeedbackSignal",
    "ForgetReceipt",
    "GoodMemory",
    "GoodMemoryConfig",
    "GoodMemoryError",
    "HistoryEntry",
    "InvalidInputError",
    "LLMError",
    "MaintenanceReport",
    "MemoryKind",
    "MemoryNotFoundError",
    "MemoryRecord",
    "MemoryStatus",
    "Message",
    "RecallHit",
    "RecallResult",
    "SchemaVersionError",
    "SlotConflictError",
    "StorageError",
    "StorageUnavailableError",
    "UserExport",
    "WriteAction",
    "WriteDecision",
    "WriteResult",
    "__version__",
    "create_async_good_memory",
    "create_good_memory",
]
