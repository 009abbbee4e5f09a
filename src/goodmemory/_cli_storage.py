"""The storage URL as the ``goodmemory`` command takes it: PostgreSQL spellings, and files it must not touch."""

from __future__ import annotations

from pathlib import Path

from .storage._url import psycopg_url as _psycopg_url

__all__ = ["foreign_sqlite", "psycopg_url"]


def psycopg_url(url: str | None) -> str | None:
    """``postgres://`` and ``postgresql://`` (as hosting providers hand them out) on the psycopg 3 driver."""
    return None if url is None else _psycopg_url(url)


def foreign_sqlite(url: str) -> str | None:
    """The path of an existing SQLite file that holds tables but is not a GoodMemory database."""
    import sqlite3

    from sqlalchemy.engine import make_url

    try:
        path = make_url(url).database if url.startswith("sqlite") else None
    except Exception:  # a malformed URL: create_good_memory says what is wrong
        return None
    if not path or path == ":memory:" or not Path(path).is_file() or Path(path).stat().st_size == 0:
        return None
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            names = {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            conn.close()
    except sqlite3.Error:
        return None  # not SQLite at all: the adapter explains
    return path if names and "gm_meta" not in names else None
