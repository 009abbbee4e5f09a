"""How ``SQLStorage`` lists on SQLite: the statement for a filter, and the index it names.

SQLite has no statistics on a store not yet closed once (``PRAGMA optimize`` runs at close), and without them it
picks an index by the number of equality columns alone: a list of three turns by key, or of one session's turns,
walked every turn of the user through (user, kind, ...). A list whose best index is known names it.
"""

from __future__ import annotations

import builtins
from dataclasses import replace
from typing import Any

from sqlalchemy import bindparam, column, func, literal_column, select

from . import _schema as S
from ._common import key_range, prefix_bounds, where
from .base import MemoryFilter

__all__ = ["bound_params", "list_index", "list_select", "shape"]


def list_select(user_id: Any, flt: MemoryFilter, limit: int | None, *, ids_param: bool = False,
                keys_param: bool = False, bind_suffix: str | None = None) -> Any:
    """The ``SELECT data, created_at, id`` of a list. ``ids_param``: the ids come as one JSON array bound to
    ``gm_ids`` (any number of them); ``keys_param``: the keys as a list bound to ``gm_keys``. ``bind_suffix``:
    the keys and the key prefix are bound, as ``gm_keys<suffix>`` and ``gm_lo<suffix>``/``gm_hi<suffix>``
    (see :func:`bound_params`), so one statement serves every list of the filter's shape."""
    if bind_suffix is not None:
        keys_param = flt.keys is not None
    c = S.memories.c
    selective = (flt.keys is not None or flt.memory_ids is not None or flt.key_prefix is not None
                 or flt.kinds is not None)
    index = list_index(flt, limit, ids_param=ids_param)
    in_order = index is not None and index != "gm_mem_user_session"  # the index walk yields the order
    # with a selective filter, "+column" keeps SQLite from walking an ordering index over every row
    # (without statistics - a store not yet closed once - a kind's list walked all 10k rows: 5 ms -> 0.3 ms)
    order: builtins.list[Any] = (
        [literal_column("+gm_memories.created_at"), literal_column("+gm_memories.id")] if selective and not in_order
        else [c.created_at, c.id])
    if flt.newest_first:
        order = [o.desc() for o in order]
    if flt.most_important_first:
        order = [func.json_extract(c.data, "$.importance").desc(), func.json_extract(c.data, "$.confidence").desc(),
                 c.id]
    sfx = bind_suffix or ""
    by_prefix: Any = key_range if bind_suffix is None else (
        lambda col, _p: [col >= bindparam(f"gm_lo{sfx}"), col < bindparam(f"gm_hi{sfx}")])
    conds = where(user_id, replace(flt, memory_ids=None if ids_param else flt.memory_ids,
                                   keys=None if keys_param else flt.keys), by_prefix)
    if keys_param:
        conds.append(c.key.in_(bindparam(f"gm_keys{sfx}", expanding=True)))
    if ids_param:
        conds.append(c.id.in_(select(column("value")).select_from(func.json_each(bindparam("gm_ids")))))
    if flt.memory_ids is not None:
        # look the ids up by primary key: without statistics SQLite would walk a (user_id, ...) index
        # over every row of the user (measured 126 ms -> 15 ms for 120 ids among 30k rows)
        conds[0] = literal_column("+gm_memories.user_id") == user_id
    stmt = select(c.data, c.created_at, c.id).where(*conds).order_by(*order)
    if index is not None:
        stmt = stmt.with_hint(S.memories, f"INDEXED BY {index}", "sqlite")
    return stmt.limit(limit) if limit is not None else stmt


def list_index(flt: MemoryFilter, limit: int | None, *, ids_param: bool = False) -> str | None:
    """The index a list names, or ``None`` to let SQLite choose.

    * Keys or a key prefix: (user, key) holds a few rows; a one-kind list of three turns by key walked every turn
      of the user on (user, kind, ...) instead (15 ms at 10k memories: every outdated-mark check of ``remember``).
    * One session's rows: (user, session_id) holds a few dozen; through (user, kind, ...) a session's turns took a
      walk over every turn of the user (8 ms for 21 rows at 10k memories: the reply search of every supersede).
    * One kind in one status of one domain, newest first with a limit: (user, kind, domain, status, created_at, id)
      holds those rows in that order (v11), so the walk stops at the limit (the restatement search of every
      remember: a domain's 400 newest turns).
    * One kind in one status, newest first with a limit: (user, kind, status, created_at), likewise; without it
      SQLite walks (user, created_at) over every row, and "+created_at" sorts all of them (30-40 ms -> 12 ms).
    """
    if flt.memory_ids is not None or ids_param:
        return None  # a few rows by primary key (see ``list_select``)
    if flt.keys is not None or flt.key_prefix is not None:
        return "gm_mem_user_key"  # a few rows, whatever else the filter says
    if flt.session_id is not None:
        return "gm_mem_user_session"
    if not (flt.kinds is not None and len(flt.kinds) == 1 and flt.statuses is not None and len(flt.statuses) == 1
            and flt.newest_first and limit is not None):
        return None
    return "gm_mem_user_kind_domain" if flt.domain is not None else "gm_mem_user_kind"


def shape(flt: MemoryFilter) -> MemoryFilter:
    """``flt`` without the values :func:`list_select` binds under ``bind_suffix``: the key of its statement."""
    return replace(flt, keys=None if flt.keys is None else (), key_prefix=None if flt.key_prefix is None else "")


def bound_params(flt: MemoryFilter, suffix: str) -> dict[str, Any]:
    """The values of ``flt`` that :func:`list_select` binds under ``bind_suffix=suffix``."""
    out: dict[str, Any] = {}
    if flt.keys is not None:
        out[f"gm_keys{suffix}"] = list(flt.keys)
    if flt.key_prefix is not None:
        out[f"gm_lo{suffix}"], out[f"gm_hi{suffix}"] = prefix_bounds(flt.key_prefix)
    return out

