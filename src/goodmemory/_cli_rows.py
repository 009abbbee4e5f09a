"""How the CLI shows records and write decisions, and its ``--tag`` option (kept out of ``cli.py``'s commands)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from .models import WriteAction, WriteResult

__all__ = ["Tags", "date", "decision_rows", "record_lines", "record_rows"]

#: repeatable; on ``add`` it labels what is stored, elsewhere it selects memories with any of the tags
Tags = Annotated[list[str] | None, typer.Option(
    "--tag", help="a tag (repeatable): add labels what it stores with it; other commands select any of them")]


def date(d: Any) -> str:
    return d.date().isoformat() if d is not None else ""


def record_rows(records: list[Any]) -> tuple[list[str], list[list[str]]]:
    return (["id", "kind", "key", "status", "valid from", "tags", "text"],
            [[r.id, r.kind.value, r.key, r.status.value, date(r.valid_from), ",".join(r.tags), r.text]
             for r in records])


def record_lines(records: list[Any]) -> str:
    return "\n".join(f"{r.id}  {r.kind.value:<10} {r.status.value:<10} {r.text}"
                     + (f"  [{', '.join(r.tags)}]" if r.tags else "") for r in records)


def decision_rows(res: WriteResult) -> list[tuple[str, str, str, str, str]]:
    """(action, short id, kind, what was decided on, why) per decision; a supersede names what it replaced."""
    records = {m.id: m for m in res.memories}
    out = []
    for d in res.decisions:
        rec = records.get(d.memory_id or "")
        what = rec.text if rec is not None else (d.candidate.text if d.candidate is not None else "")
        kind = rec.kind.value if rec is not None else (d.candidate.kind.value if d.candidate is not None else "")
        why = d.reason + (f"; replaces {d.supersedes[:6]}" if d.action == WriteAction.SUPERSEDE and d.supersedes
                          else "")
        out.append((d.action.value, (d.memory_id or "")[:6], kind, what, why))
    return out
