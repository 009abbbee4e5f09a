"""SQL text, literals, COPY encoding and error mapping for ``PostgresStorage``.

Kept apart from the adapter so ``postgres.py`` reads as the storage contract
and this module as the PostgreSQL details it rests on.
"""

from __future__ import annotations

import hashlib
import math
import struct
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy import String, bindparam, func, literal, text
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.types import UserDefinedType

from ..errors import InvalidInputError, SlotConflictError, StorageError
from ..text import stemmed_query_terms

__all__ = [
    "INSERT_MEMORY",
    "MEMORY_COLUMNS",
    "UPDATE_MEMORY",
    "TERM_STATS_SQL",
    "PgVec",
    "TermStats",
    "copy_binary",
    "integrity_error",
    "lock_key",
    "orig_msg",
    "tsquery",
    "text_score",
    "tsquery_of",
    "idf",
    "vec_binary",
    "vec_literal",
]

MEMORY_COLUMNS = ("id", "user_id", "agent_id", "domain", "slot_scope", "kind", "key", "status", "transferable",
                  "session_id", "created_at", "data")

INSERT_MEMORY = text(
    "INSERT INTO gm_memories (id, user_id, agent_id, domain, slot_scope, kind, key, status, transferable, "
    "session_id, created_at, data, tsv) VALUES (:id, :user_id, :agent_id, :domain, :slot_scope, :kind, :key, "
    ":status, :transferable, :session_id, :created_at, :data, to_tsvector('simple', :body))"
)
UPDATE_MEMORY = text(
    "UPDATE gm_memories SET agent_id = :agent_id, domain = :domain, slot_scope = :slot_scope, kind = :kind, "
    "key = :key, status = :status, transferable = :transferable, session_id = :session_id, "
    "created_at = :created_at, data = :data, tsv = to_tsvector('simple', :body) "
    "WHERE id = :id AND user_id = :user_id"
)


class PgVec(UserDefinedType[Any]):
    """The pgvector type name, for ``CAST(:q AS halfvec)`` (values are bound as text literals)."""

    cache_ok = True

    def __init__(self, name: str = "halfvec") -> None:
        self.name = name

    def get_col_spec(self, **kw: Any) -> str:
        return self.name


def vec_literal(arr: np.ndarray) -> str:
    values = arr.tolist()
    return "[" + ",".join(["%.9g"] * len(values)) % tuple(values) + "]"


def vec_binary(mat: np.ndarray, vector_type: str) -> list[bytes]:
    """pgvector's binary wire format per row: int16 dim, int16 0, then big-endian float16/float32."""
    if mat.ndim != 2:
        raise InvalidInputError("vec_binary takes a matrix (one vector per row)")
    dim = int(mat.shape[1])
    if vector_type == "halfvec":
        with np.errstate(over="ignore"):
            body = mat.astype(">f2")
        if not np.all(np.isfinite(body)):
            raise InvalidInputError("a vector has values beyond halfvec's range (|x| > 65504); normalize it")
    else:
        body = mat.astype(">f4")
    head = struct.pack(">hh", dim, 0)
    return [head + row.tobytes() for row in body]


_COPY_HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack(">ii", 0, 0)
_COPY_TRAILER = struct.pack(">h", -1)


def copy_binary(rows: Iterable[Sequence[bytes]], *, chunk_rows: int = 2000) -> Iterator[bytes]:
    """A ``COPY ... FROM STDIN (FORMAT BINARY)`` stream of rows whose fields are already encoded
    (text columns: UTF-8 bytes; pgvector columns: :func:`vec_binary`). No NULLs."""
    yield _COPY_HEADER
    buf: list[bytes] = []
    for row in rows:
        parts = [struct.pack(">h", len(row))]
        for f in row:
            parts.append(struct.pack(">i", len(f)))
            parts.append(f)
        buf.append(b"".join(parts))
        if len(buf) >= chunk_rows:
            yield b"".join(buf)
            buf = []
    buf.append(_COPY_TRAILER)
    yield b"".join(buf)


def lock_key(*parts: str) -> int:
    digest = hashlib.sha256("\x00".join(parts).encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def tsquery_of(words: Sequence[str]) -> str | None:
    """A ``to_tsquery`` expression: each term quoted, OR-ed. None when empty.

    Terms are word characters only (the shared tokenizer), and quoting keeps
    them literal, so ``&``, ``!``, ``:*`` or quotes in user text are inert.
    """
    if not words:
        return None
    return " | ".join("'" + t.replace("\\", "\\\\").replace("'", "''") + "'" for t in words)


def tsquery(text_: str, max_terms: int = 32) -> str | None:
    return tsquery_of(stemmed_query_terms(text_, max_terms))


# reltuples and ANALYZE's lexeme frequencies of gm_memories.tsv (most common elements)
TERM_STATS_SQL = text(
    "SELECT c.reltuples, s.most_common_elems::text::text[], s.most_common_elem_freqs FROM pg_class c "
    "LEFT JOIN pg_stats s ON s.schemaname = current_schema() AND s.tablename = 'gm_memories' AND s.attname = 'tsv' "
    "WHERE c.oid = to_regclass('gm_memories')")


@dataclass(frozen=True)
class TermStats:
    """How many rows contain a lexeme, estimated from the planner's statistics."""

    rows: float
    freqs: dict[str, float]
    floor: float  # a lexeme missing from the list is rarer than every listed one

    @classmethod
    def from_row(cls, row: Any) -> TermStats | None:
        if row is None or row[0] is None or float(row[0]) <= 0 or not row[1] or not row[2]:
            return None
        elems, freqs = list(row[1]), [float(f) for f in row[2]]
        return cls(rows=float(row[0]), freqs=dict(zip(elems, freqs, strict=False)),
                   floor=freqs[len(elems)] if len(freqs) > len(elems) else min(freqs))

    def estimate(self, term: str) -> float:
        return self.rows * self.freqs.get(term, self.floor)


def idf(matching_rows: float, rows: float) -> float:
    """BM25's inverse document frequency: rare terms weigh more, a term in every row about nothing."""
    return math.log(1.0 + (rows - matching_rows + 0.5) / (matching_rows + 0.5))


def text_score(tsv: Any, config: Any, tsq: Any, words: Sequence[str], stats: TermStats | None) -> Any:
    """The full-text score of a row: with statistics, the sum over the terms of ``idf * ts_rank``.

    BM25's idea on ``ts_rank`` (normalised by the row's length): a common word repeated in a short row
    does not outrank the rare word the question is about. Without statistics, ``ts_rank_cd``.
    """
    if stats is None or len(words) < 2:
        return func.ts_rank_cd(tsv, tsq)
    parts = [func.ts_rank(tsv, func.to_tsquery(config, bindparam(f"q{i}", tsquery_of([w]), type_=String)), 1)
             * literal(idf(stats.estimate(w), stats.rows)) for i, w in enumerate(words)]
    return sum(parts[1:], parts[0])


def orig_msg(exc: DBAPIError) -> str:
    msg = str(exc.orig) if exc.orig is not None else str(exc)
    return " ".join(msg.split()).rstrip(".?")


def integrity_error(exc: IntegrityError) -> StorageError:
    msg = orig_msg(exc)
    diag = getattr(exc.orig, "diag", None)
    constraint = getattr(diag, "constraint_name", None) or ""
    if constraint == "gm_one_active_slot" or "gm_one_active_slot" in msg:
        return SlotConflictError(f"write rejected by the database: two active memories for one slot ({msg})")
    return StorageError(f"write rejected by the database: {msg}")
