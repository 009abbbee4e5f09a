"""OpenTelemetry spans for the facade, following the ``gen_ai.memory.*`` conventions.

Install ``goodmemory[otel]`` and configure a tracer provider as usual; the
facade then emits one span per ``remember``, ``feedback``, ``import_`` and
``maintain`` (``update_memory``), ``recall`` and ``build_context``
(``search_memory``) and ``forget`` (``delete_memory``). ``maintain`` is an
``update_memory``: it rewrites stored records (decay, staleness,
consolidation) and purges expired ones, and the well-known operation names
have no better fit; ``goodmemory.method`` tells the calls apart.

- ``gen_ai.operation.name``: the operation;
- ``goodmemory.method``: the facade method (``remember``, ``import_``, ...);
- ``gen_ai.memory.store.id``: the storage URL without credentials;
- ``gen_ai.memory.record.id``: set when the operation touches one record
  (``forget(memory_id)``, ``feedback(memory_id)``, a remember or import that
  stored exactly one memory);
  absent on ``delete_memory`` when every record of the user goes;
- ``gen_ai.memory.query.text``: only with ``GOODMEMORY_OTEL_CAPTURE_QUERY=1``
  (queries can hold personal data);
- ``goodmemory.*``: counts (memories written, hits, tokens, rows deleted,
  users maintained and what maintenance did), the feedback signal and the
  id of the record a correction created. The user id, the correction text
  and feedback notes are never recorded.

Without ``opentelemetry-api`` installed, :func:`traced` returns the function
unchanged; with the API but no SDK configured, spans are non-recording and
no attribute is computed. Behaviour of the facade is identical either way.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any, TypeVar

from ..storage._url import redact_url

__all__ = [
    "CAPTURE_QUERY_ENV",
    "OPERATIONS",
    "instrument_facade",
    "otel_available",
    "redact_url",
    "set_tracer_provider",
    "store_id",
    "traced",
]

F = TypeVar("F", bound=Callable[..., Any])
C = TypeVar("C", bound=type)

CAPTURE_QUERY_ENV = "GOODMEMORY_OTEL_CAPTURE_QUERY"
TRACER_NAME = "goodmemory"

#: facade method -> gen_ai.operation.name
OPERATIONS = {
    "remember": "update_memory",
    "recall": "search_memory",
    "build_context": "search_memory",
    "forget": "delete_memory",
    "feedback": "update_memory",
    "import_": "update_memory",
    "maintain": "update_memory",
}

_SIGNALS = frozenset({"confirm", "reject", "correct", "helpful", "not_helpful"})
_MAINTENANCE_COUNTS = ("decayed", "marked_stale", "consolidated", "compacted", "expired", "purged")

_provider: Any = None  # an explicit provider (tests, or users who avoid the global one)
_available: bool | None = None


def otel_available() -> bool:
    """Whether ``opentelemetry-api`` can be imported (checked once)."""
    global _available
    if _available is None:
        try:
            import opentelemetry.trace  # noqa: F401
        except ImportError:
            _available = False
        else:
            _available = True
    return _available


def set_tracer_provider(provider: Any) -> None:
    """Use ``provider`` for GoodMemory spans instead of the global one (``None`` restores the global)."""
    global _provider
    _provider = provider


def _tracer() -> Any:
    from opentelemetry import trace

    from .._version import __version__

    if _provider is not None:
        return _provider.get_tracer(TRACER_NAME, __version__)
    return trace.get_tracer(TRACER_NAME, __version__)


def _capture_query() -> bool:
    return os.environ.get(CAPTURE_QUERY_ENV, "").strip().lower() in ("1", "true", "yes", "on")




def store_id(storage: Any) -> str:
    """A stable name for the store: its URL without credentials, else its class name."""
    url = getattr(storage, "url", None)
    if isinstance(url, str) and url:
        return redact_url(url)
    return type(storage).__name__


def _before(method: str, self: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    attrs: dict[str, Any] = {"gen_ai.operation.name": OPERATIONS[method], "goodmemory.method": method}
    storage = getattr(self, "storage", None)
    if storage is not None:
        attrs["gen_ai.memory.store.id"] = store_id(storage)
    if method in ("recall", "build_context"):
        query = args[0] if args else kwargs.get("query")
        if isinstance(query, str) and _capture_query():
            attrs["gen_ai.memory.query.text"] = query
        if kwargs.get("domain"):
            attrs["goodmemory.domain"] = str(kwargs["domain"])
    elif method == "forget":
        memory_id = args[0] if args else kwargs.get("memory_id")
        if isinstance(memory_id, str):
            attrs["gen_ai.memory.record.id"] = memory_id
        attrs["goodmemory.dry_run"] = bool(kwargs.get("dry_run", False))
    elif method == "remember":
        messages = args[0] if args else kwargs.get("messages")
        if isinstance(messages, (list, tuple)):
            attrs["goodmemory.messages"] = len(messages)
    elif method == "feedback":
        memory_id = args[0] if args else kwargs.get("memory_id")
        if isinstance(memory_id, str):
            attrs["gen_ai.memory.record.id"] = memory_id
        signal = args[1] if len(args) > 1 else kwargs.get("signal")
        signal = getattr(signal, "value", signal)
        if isinstance(signal, str) and signal in _SIGNALS:  # not an arbitrary caller string
            attrs["goodmemory.feedback.signal"] = signal
    return attrs


def _after(method: str, result: Any) -> dict[str, Any]:
    attrs: dict[str, Any] = {}
    if method in ("remember", "import_"):
        stored = [m.id for m in getattr(result, "memories", [])]
        attrs["goodmemory.memories"] = len(stored)
        attrs["goodmemory.decisions"] = len(getattr(result, "decisions", []))
        if len(stored) == 1:
            attrs["gen_ai.memory.record.id"] = stored[0]
    elif method == "recall":
        attrs["goodmemory.hits"] = len(getattr(result, "hits", []))
    elif method == "build_context":
        attrs["goodmemory.items"] = len(getattr(result, "items", []))
        attrs["goodmemory.tokens"] = int(getattr(result, "tokens", 0))
    elif method == "forget":
        deleted = getattr(result, "deleted", {}) or {}
        attrs["goodmemory.deleted_rows"] = int(deleted.get("rows", 0))
    elif method == "feedback":
        new_id = getattr(result, "new_memory_id", None)
        if isinstance(new_id, str):
            attrs["goodmemory.new_record.id"] = new_id
    elif method == "maintain":
        attrs["goodmemory.users"] = len(getattr(result, "user_ids", []))
        for key in _MAINTENANCE_COUNTS:
            attrs[f"goodmemory.{key}"] = int(getattr(result, key, 0))
    return attrs


def traced(operation: str) -> Callable[[F], F]:
    """Decorate a facade method (a key of :data:`OPERATIONS`) with a span.

    ``operation`` is the method name. Without ``opentelemetry-api`` the method
    is returned as it is.
    """
    if operation not in OPERATIONS:
        raise ValueError(f"traced() knows {sorted(OPERATIONS)}, not {operation!r}")

    def decorate(fn: F) -> F:
        if not otel_available():
            return fn
        from opentelemetry.trace import SpanKind, Status, StatusCode

        name = f"{OPERATIONS[operation]} goodmemory"

        @functools.wraps(fn)
        def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
            with _tracer().start_as_current_span(name, kind=SpanKind.CLIENT, record_exception=False,
                                                 set_status_on_exception=False) as span:
                recording = span.is_recording()
                if recording:
                    span.set_attributes(_before(operation, self, args, kwargs))
                try:
                    result = fn(self, *args, **kwargs)
                except Exception as exc:
                    if recording:
                        # the type, not the message: messages can quote user input
                        span.set_attribute("error.type", type(exc).__name__)
                        span.set_status(Status(StatusCode.ERROR, type(exc).__name__))
                    raise
                if recording:
                    span.set_attributes(_after(operation, result))
                return result

        return wrapper  # type: ignore[return-value]

    return decorate


def instrument_facade(cls: C) -> C:
    """Class decorator: wrap the facade's traced methods with :func:`traced` (no-op without otel)."""
    if otel_available():
        for method in OPERATIONS:
            setattr(cls, method, traced(method)(getattr(cls, method)))
    return cls
