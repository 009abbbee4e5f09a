"""Storage URLs as users paste them: the PostgreSQL spellings hosting providers hand out, and credentials kept
out of messages and telemetry."""

from __future__ import annotations

import re

__all__ = ["psycopg_url", "redact_url"]

_CREDENTIALS = re.compile(r"(://)([^/@]*)@")


def psycopg_url(url: str) -> str:
    """``postgres://`` and ``postgresql://`` on the psycopg 3 driver; any other URL unchanged."""
    for scheme in ("postgres://", "postgresql://"):
        if url.startswith(scheme):
            return "postgresql+psycopg://" + url[len(scheme):]
    return url


def redact_url(url: str) -> str:
    """``url`` without its ``user:password@`` part."""
    return _CREDENTIALS.sub(r"\1", url)
