"""What every adapter does the same way: batch checks, row mapping, filters, events, tombstones.

One implementation here keeps the adapters from drifting apart (an adapter that filtered
``key_prefix`` differently, or checked vectors less strictly, would break the conformance
suite only for some inputs).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from enum import Enum
from types import UnionType
from typing import Any, Union, get_args, get_origin

import numpy as np
from pydantic import BaseModel

from ..errors import DimensionMismatchError, InvalidInputError, SlotConflictError, StorageError
from ..models import MemoryKind, MemoryRecord, new_id
from . import _schema as S
from ._tags import delete_tags, tag_condition
from .base import BORROWING, DeleteCounts, MemoryEvent, MemoryFilter, WriteBatch, slot_scope

__all__ = ["UserHasher", "check_batch", "forget_parsed", "read_record", "delete_rows", "tombstone", "load_user_hasher", "check_bulk_batch", "check_new_turns", "chunks", "event_rows", "key_range", "memory_row",
           "new_turn_keys", "tombstone_dicts", "where"]


def check_batch(user_id: str, batch: WriteBatch, dim: int | None) -> tuple[dict[str, np.ndarray], int | None]:
    """Refuse records of another user and vectors of the wrong dimension or with NaN/inf.

    Returns the vectors as contiguous float32 arrays and the store's dimension after the batch.
    """
    for r in [*batch.inserts, *batch.updates]:
        if r.user_id != user_id:
            raise InvalidInputError(f"record {r.id} belongs to another user than {user_id!r}")
    arrays: dict[str, np.ndarray] = {}
    for mid, vec in batch.vectors.items():
        arr = np.ascontiguousarray(np.asarray(vec, dtype=np.float32).reshape(-1))
        if dim is None:
            dim = int(arr.shape[0])
        elif arr.shape[0] != dim:
            raise DimensionMismatchError(
                f"vector of dimension {arr.shape[0]} for a store of dimension {dim}; "
                "use the embedder the store was created with"
            )
        if not np.all(np.isfinite(arr)):
            raise InvalidInputError(f"vector for memory {mid} has NaN or infinite values")
        arrays[mid] = arr
    return arrays, dim


def check_bulk_batch(user_id: str, batch: WriteBatch, dim: int | None) -> tuple[dict[str, np.ndarray], int | None]:
    """``check_batch`` plus the bulk path's rules: new records only, vectors only for them."""
    if batch.updates:
        raise InvalidInputError("write_bulk takes new records only; write updates with write()")
    arrays, dim = check_batch(user_id, batch, dim)
    new_ids = {r.id for r in batch.inserts}
    stray = next((mid for mid in arrays if mid not in new_ids), None)
    if stray is not None:
        raise StorageError(f"vector for unknown memory {stray}: write_bulk takes vectors of its own new records")
    return arrays, dim


def new_turn_keys(batch: WriteBatch) -> list[str]:
    """Keys of the raw turns (and digests) a batch inserts that no record it updates holds already.

    Each key may be held by one record of the user, except that a batch superseding a turn (a user's correction
    of it) inserts its successor under the same key: the record it updates is the one that holds it.
    """
    replaced = {r.key for r in batch.updates if r.kind == MemoryKind.EPISODE}
    return [r.key for r in batch.inserts if r.kind == MemoryKind.EPISODE and r.key not in replaced]


def check_new_turns(taken: Sequence[str]) -> None:
    """Refuse a batch inserting a turn whose key (``episode.<message id>``) the user already holds.

    Turn ids are planned outside the write transaction (``"{session_id}:{index}"``); two writers in one
    session can plan the same one. Checked inside the transaction, the loser gets a conflict and plans
    again instead of storing a second turn under the same id (or being told its turn was already kept).
    """
    if taken:
        raise SlotConflictError(f"turn {taken[0]!r} was stored by another writer since this write was planned")


def memory_row(r: MemoryRecord) -> dict[str, Any]:
    """The ``gm_memories`` columns of a record: indexed scope columns plus the full record as JSON."""
    return {
        "id": r.id,
        "user_id": r.user_id,
        "agent_id": r.agent_id or "",
        "domain": r.domain or "",
        "slot_scope": slot_scope(r),
        "kind": r.kind.value,
        "key": r.key,
        "status": r.status.value,
        "transferable": r.transferable,
        "session_id": r.source.session_id or "",
        "created_at": r.created_at.isoformat(),
        "data": r.model_dump_json(),
    }


def prefix_bounds(prefix: str) -> tuple[str, str]:
    """The strings starting with ``prefix`` are those from the first bound (inclusive) to the second (exclusive)."""
    return prefix, prefix + "\U0010ffff"


def key_range(column: Any, prefix: str) -> list[Any]:
    """``key`` starts with ``prefix`` as a range, which a (user_id, key) index serves under binary
    collation (SQLite). Databases with linguistic collations pass their own condition."""
    lo, hi = prefix_bounds(prefix)
    return [column >= lo, column < hi]


def where(user_id: Any, flt: MemoryFilter,
          key_prefix: Callable[[Any, str], list[Any]] = key_range) -> list[Any]:
    """SQL conditions for ``flt``; the user's scope is always the first."""
    c = S.memories.c
    conds: list[Any] = [c.user_id == user_id]
    if flt.statuses is not None:
        conds.append(c.status.in_([s.value for s in flt.statuses]))
    if flt.kinds is not None:
        conds.append(c.kind.in_([k.value for k in flt.kinds]))
    if flt.exclude_kinds is not None:
        # "kind <> 'episode'" with the kind as a literal (an enum value, never user input): the term a partial
        # index is matched on (v8: a user's newest memories that are not raw turns, remember's 500 slots)
        from sqlalchemy import literal_column

        conds.extend(c.kind != literal_column(f"'{k.value}'") for k in flt.exclude_kinds)
    if flt.visible_in_domain is not None:
        conds.append((c.domain == "") | (c.domain == flt.visible_in_domain) | (c.transferable.is_(True)))
    if flt.domain is not None:
        conds.append(c.domain == flt.domain)
    if flt.keys is not None:
        conds.append(c.key.in_(list(flt.keys)))
    if flt.key_prefix is not None:
        conds.extend(key_prefix(c.key, flt.key_prefix))
    if flt.session_id is not None:
        conds.append(c.session_id == flt.session_id)
    if flt.agent_id is not None:
        conds.append(c.agent_id == flt.agent_id)
    if flt.memory_ids is not None:
        conds.append(c.id.in_(list(flt.memory_ids)))
    if flt.tags is not None:
        conds.append(tag_condition(user_id, flt.tags))
    return conds


def event_rows(user_id: str, events: Sequence[MemoryEvent]) -> list[dict[str, Any]]:
    return [
        {"user_id": user_id, "memory_id": e.memory_id, "action": e.action, "at": e.at.isoformat(),
         "detail": json.dumps(e.detail, default=str)}
        for e in events
    ]


def tombstone_dicts(rows: Sequence[Any]) -> list[dict[str, Any]]:
    return [
        {"id": r.id, "user_hash": r.user_hash, "at": r.at, "reason": r.reason, "counts": json.loads(r.counts)}
        for r in rows
    ]


def chunks(items: Sequence[str], n: int) -> Iterator[list[str]]:
    for i in range(0, len(items), n):
        yield list(items[i : i + n])


USER_PARAM = "gm_user_id"


class StatementCache:
    """List statements built once per shape (filters and limits), with the user as a bound parameter.

    Building a SQLAlchemy statement for a filter costs more than SQLite answering it (measured
    0.36 ms to build vs about 0.1 ms to run for a kind's list); ``build_context`` asks the same
    shapes query after query. Shapes naming ids or keys are built every time (they rarely repeat).
    """

    def __init__(self, size: int = 256) -> None:
        self._size = size
        self._items: OrderedDict[Any, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Any, build: Callable[[], Any]) -> Any:
        """The statement cached under ``key``, built (once) by ``build`` when missing."""
        with self._lock:
            stmt = self._items.get(key)
            if stmt is not None:
                self._items.move_to_end(key)
                return stmt
        stmt = build()
        with self._lock:
            self._items[key] = stmt
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return stmt

    def list_union(self, user_id: str, requests: Sequence[tuple[MemoryFilter, int | None]],
                   select_for: Callable[[Any, MemoryFilter, int | None], Any]) -> tuple[Any, dict[str, Any]]:
        """A statement answering ``requests`` (see :func:`list_union`) and its parameters."""
        if not cacheable(*(f for f, _ in requests)):
            return list_union(requests, lambda f, n, _i: select_for(user_id, f, n)), {}
        stmt = self.get(("list", tuple(requests)),
                        lambda: list_union(requests, lambda f, n, _i: select_for(user_param(), f, n)))
        return stmt, {USER_PARAM: user_id}


def user_param() -> Any:
    """The user as a bound parameter (``USER_PARAM``) of a cached statement."""
    from sqlalchemy import bindparam

    return bindparam(USER_PARAM)


def cacheable(*filters: MemoryFilter) -> bool:
    """Filters naming ids or keys make statements that rarely repeat: not worth caching."""
    return all(f.memory_ids is None and f.keys is None for f in filters)


def list_union(requests: Sequence[tuple[MemoryFilter, int | None]],
               select_for: Callable[[MemoryFilter, int | None, int], Any]) -> Any:
    """One ``UNION ALL`` statement for several lists: each branch tagged with its request's index.

    ``select_for(filter, limit, index)`` gives a branch's ``SELECT data, created_at, id ... ORDER BY ... LIMIT``
    (the index names the branch's own bound parameters where it binds them); its order
    is restored by :func:`split_lists` (a union does not promise to keep it).
    """
    from sqlalchemy import literal, select, union_all

    branches = []
    for i, (flt, limit) in enumerate(requests):
        sub = select_for(flt, limit, i).subquery()
        branches.append(select(literal(i).label("q"), *sub.c))
    return union_all(*branches) if len(branches) > 1 else branches[0]


# Records read back from our own storage: each distinct stored JSON is validated once, then handed out as copies.
# remember reads the user's ~500 newest memories on every call and build_context ~90 candidates, mostly the same
# rows again; validating one (six datetime validators, nested source) costs ~3x copying it. The key is the whole
# stored JSON (user id included), so a hit is exactly the row that was read, and a changed row is a miss.
_PARSED: OrderedDict[str, MemoryRecord] = OrderedDict()
_PARSED_MAX = 8_192
_PARSED_LOCK = threading.Lock()


def _thaw(value: Any) -> Any:
    """A fresh copy of a JSON value's containers (what ``copy.deepcopy`` does for JSON, several times faster)."""
    if isinstance(value, dict):  # scalars are kept without a call each: most values of a record's metadata
        return {k: (_thaw(v) if isinstance(v, _CONTAINERS) else v) for k, v in value.items()}
    if isinstance(value, list):
        return [(_thaw(v) if isinstance(v, _CONTAINERS) else v) for v in value]
    return value


_CONTAINERS = (dict, list)  # a tuple: isinstance with ``dict | list`` is ~2x slower, on every metadata value
_SCALARS = (str, int, float, bool, datetime, Enum, type(None))
_FLAT, _DEEP = 0, 1
_MUTABLE_FIELDS: dict[type, tuple[tuple[str, int], ...]] = {}


def _is_scalar(ann: Any) -> bool:
    args = get_args(ann) if get_origin(ann) in (Union, UnionType) else (ann,)
    return all(isinstance(a, type) and issubclass(a, _SCALARS) for a in args)


def _mutable_fields(cls: type[BaseModel]) -> tuple[tuple[str, int], ...]:
    """The fields of ``cls`` whose values may be containers or models (all but str/number/bool/datetime/enum,
    optional or not), each with how it is copied: ``_FLAT`` for a ``list[<scalar>]`` (a shallow copy shares
    nothing mutable: a record's message ids, tags, conflicts), ``_DEEP`` for the rest. Found once per class."""
    plan = _MUTABLE_FIELDS.get(cls)
    if plan is None:
        out = []
        for name, f in cls.model_fields.items():
            ann = f.annotation
            if _is_scalar(ann):
                continue
            flat = get_origin(ann) is list and len(get_args(ann)) == 1 and _is_scalar(get_args(ann)[0])
            out.append((name, _FLAT if flat else _DEEP))
        plan = _MUTABLE_FIELDS[cls] = tuple(out)
    return plan


def _fresh(model: Any) -> Any:
    """A copy that shares nothing mutable with ``model`` (lists, dicts, nested models copied; the rest is
    immutable: str, numbers, datetimes, enums). Built field by field as pydantic's ``__copy__`` does, copying
    only the fields whose annotation allows a container: ~2x cheaper than validating the JSON again, where
    ``model_copy`` plus an isinstance walk over every field was ~2x dearer (5.6 / 10 / 21 us a record)."""
    cls = type(model)
    out = object.__new__(cls)
    state = model.__dict__.copy()
    for name, how in _mutable_fields(cls):
        v = state[name]
        if how == _FLAT and type(v) is list:
            state[name] = v.copy()
        elif isinstance(v, BaseModel):
            state[name] = _fresh(v)
        elif isinstance(v, _CONTAINERS):
            state[name] = _thaw(v)
    setattr_ = object.__setattr__
    setattr_(out, "__dict__", state)
    setattr_(out, "__pydantic_fields_set__", set(model.__pydantic_fields_set__))
    extra = model.__pydantic_extra__
    setattr_(out, "__pydantic_extra__", None if extra is None else _thaw(extra))
    private = getattr(model, "__pydantic_private__", None)
    setattr_(out, "__pydantic_private__", None if private is None else dict(private))
    return out


def forget_parsed() -> None:
    """Drop every record kept by :func:`read_record`: a delete (forget, eviction, expiry) leaves no copy of what
    it deleted in this process, nor of the versions a forget rewrote before deleting (deletes are rare)."""
    with _PARSED_LOCK:
        _PARSED.clear()


def read_record(data: str | bytes) -> MemoryRecord:
    """A stored record (its JSON from our own table), as a record the caller may change freely (inside
    ``base.borrowed_reads``: the parsed record itself, which the caller must not change)."""
    key = data if isinstance(data, str) else data.decode("utf-8")
    with _PARSED_LOCK:
        hit = _PARSED.get(key)
        if hit is not None:
            _PARSED.move_to_end(key)
    if hit is None:
        hit = MemoryRecord.model_validate_json(key)
        with _PARSED_LOCK:
            _PARSED[key] = hit
            if len(_PARSED) > _PARSED_MAX:
                _PARSED.popitem(last=False)
    return hit if BORROWING.on else _fresh(hit)


def split_lists(rows: Sequence[Any], requests: Sequence[tuple[MemoryFilter, int | None]]) -> list[list[MemoryRecord]]:
    """Rows ``(q, data, created_at, id)`` of :func:`list_union` back into one ordered list per request."""
    groups: list[list[Any]] = [[] for _ in requests]
    for row in rows:
        groups[int(row[0])].append(row)
    out: list[list[MemoryRecord]] = []
    for (flt, _), group in zip(requests, groups, strict=True):
        records = [read_record(r[1]) for r in group]
        records.sort(key=flt.sort_key(), reverse=flt.newest_first)
        out.append(records)
    return out


class UserHasher:
    """The user id as stored where content is gone (tombstones, cache versions): a keyed hash.

    ``HMAC(store key, sha256(user id))``: a plain hash of a guessable id is no protection (hash the
    candidates and compare); with a per-store key the file alone does not answer "was alice here?"
    from a dictionary built elsewhere. Keying the earlier plain sha256 lets old rows be rekeyed
    without knowing the user ids.
    """

    def __init__(self, key: bytes) -> None:
        self._key = key

    def rekey(self, plain_hash: str) -> str:
        return hmac.new(self._key, plain_hash.encode("ascii"), hashlib.sha256).hexdigest()

    def __call__(self, user_id: str) -> str:
        return self.rekey(hashlib.sha256(user_id.encode("utf-8", "surrogatepass")).hexdigest())


def load_user_hasher(conn: Any) -> UserHasher:
    """The store's key from ``gm_meta`` (inside the caller's migration transaction); made on first use,
    when the plain hashes written before are rekeyed in place."""
    from sqlalchemy import insert, inspect, select, update

    row = conn.execute(select(S.meta.c.value).where(S.meta.c.name == "user_hash_key")).first()
    if row is not None:
        return UserHasher(bytes.fromhex(row[0]))
    hasher = UserHasher(secrets.token_bytes(32))
    conn.execute(insert(S.meta).values(name="user_hash_key", value=hasher._key.hex()))
    for tbl, col in ((S.tombstones, "user_hash"), (S.user_versions, "user_id")):
        if not inspect(conn).has_table(tbl.name):
            continue
        for (old,) in conn.execute(select(tbl.c[col]).distinct()).all():
            conn.execute(update(tbl).where(tbl.c[col] == old).values({col: hasher.rekey(old)}))
    return hasher


def tombstone(counts: DeleteCounts, user_hash: str, reason: str, at: datetime | None = None) -> dict[str, Any]:
    """Content-free: a keyed hash of the user id (see ``UserHasher``), when (``at``: the caller's clock, else
    the wall clock), why, and how much."""
    from datetime import UTC

    return {
        "id": counts.tombstone_id,
        "user_hash": user_hash,
        "at": (at or datetime.now(UTC)).isoformat(),
        "reason": reason,
        "counts": counts.as_dict(),
    }


def delete_rows(conn: Any, user_id: str, memory_ids: Sequence[str], *, user_hash: str, reason: str,
                vectors: Any, full_text: Callable[[Any, list[str]], int], chunk: int = 500,
                at: datetime | None = None) -> DeleteCounts:
    """``delete`` of the SQL adapters, inside the caller's transaction: the user's ids that exist, then per
    chunk their full-text entries (``full_text(conn, ids)`` deletes or counts them: the adapter's own index),
    vectors (``vectors``: the adapter's ``gm_vectors`` table), history and rows, then the tombstone."""
    from sqlalchemy import delete, insert, select

    forget_parsed()

    m = S.memories.c
    ids = list(dict.fromkeys(memory_ids))
    counts = DeleteCounts()
    for part in chunks(ids, chunk):
        counts.memory_ids += [r[0] for r in conn.execute(select(m.id).where(m.user_id == user_id, m.id.in_(part)))]
    for part in chunks(counts.memory_ids, chunk):
        counts.full_text += full_text(conn, part)
        counts.vectors += conn.execute(
            delete(vectors).where(vectors.c.user_id == user_id, vectors.c.memory_id.in_(part))).rowcount
        counts.history += conn.execute(
            delete(S.events).where(S.events.c.user_id == user_id, S.events.c.memory_id.in_(part))).rowcount
        delete_tags(conn, user_id, part)
        counts.rows += conn.execute(delete(S.memories).where(m.user_id == user_id, m.id.in_(part))).rowcount
    counts.tombstone_id = new_id()
    t = tombstone(counts, user_hash, reason, at)
    conn.execute(insert(S.tombstones).values(id=t["id"], user_hash=t["user_hash"], at=t["at"], reason=reason,
                                             counts=json.dumps(t["counts"])))
    return counts
