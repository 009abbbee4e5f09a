"""The read-path sets (``fixtures/read_sets/``): unseen preference and service conversations, gold recall.

Two sets written for issue 18 before any tuning of the read path: ``preferences`` (preferences stated in
varied words among long filler talk, asked through recommendation questions that avoid those words) and
``service`` (multi-session service conversations whose final question needs 3-6 scattered facts). Each
question has gold message ids; the score of a context is the share of them it cites (gold recall).

The tune/test split is frozen by a fixed hash of the case id (:func:`half`): ``sha256(case_id)``'s first
byte, even -> ``tune``, odd -> ``test``. Tune on the tune half only; the test half is reported, never tuned.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from .baselines import GoodMemorySystem, Session, System, Turn

__all__ = ["SETS", "ReadCase", "ReadUser", "StoredGoodMemory", "half", "load_set", "run_read_sets"]

SETS = ("preferences", "service")


def half(case_id: str) -> str:
    """``tune`` or ``test``, fixed for good by the case id: the first byte of its sha256, even or odd."""
    return "tune" if hashlib.sha256(case_id.encode("utf-8")).digest()[0] % 2 == 0 else "test"


@dataclass(frozen=True)
class ReadCase:
    case_id: str
    question: str
    gold: tuple[str, ...]
    at: datetime
    category: str

    @property
    def half(self) -> str:
        return half(self.case_id)


@dataclass
class ReadUser:
    user_id: str
    sessions: list[Session]
    cases: list[ReadCase] = field(default_factory=list)


def load_set(path: Path) -> list[ReadUser]:
    """A built set (``cases.json``) as users with their sessions and cases."""
    data = json.loads(path.read_text(encoding="utf-8"))
    users = []
    for u in data["users"]:
        sessions = [
            Session(s["session_id"], datetime.fromisoformat(s["at"]),
                    [Turn(t["id"], t["role"], t["content"], datetime.fromisoformat(t["timestamp"]))
                     for t in s["turns"]])
            for s in u["sessions"]
        ]
        cases = [ReadCase(q["case_id"], q["question"], tuple(q["gold"]), datetime.fromisoformat(q["at"]), q["cat"])
                 for q in u["questions"]]
        users.append(ReadUser(u["user_id"], sessions, cases))
    return users


class StoredGoodMemory(GoodMemorySystem):
    """GoodMemory over one SQLite file per user under ``store_dir``, written once and re-read after.

    A read-path A/B on freshly written stores compares two different sets of records: the ids are random, a
    cited id prefix costs 2-6 tokens, and so the ids alone move gold recall by about 0.02 from run to run. Here
    the write path runs only for a user without a file; every later run reads a fresh copy of that file (a
    copy, so whatever a read writes never reaches the next run). Delete ``store_dir`` after a write-path change.
    """

    def __init__(self, store_dir: Path, embedder: Any = None, read_config: Any = None) -> None:
        super().__init__(embedder=embedder)
        self.read_config = read_config  # a GoodMemoryConfig for the reads (the stores are written with the default)
        self.store_dir = Path(store_dir)
        self.store_dir.mkdir(parents=True, exist_ok=True)
        self._copies = tempfile.TemporaryDirectory(prefix="gm-read-")

    def path(self, user_id: str) -> Path:
        return self.store_dir / (re.sub(r"[^A-Za-z0-9_.-]", "_", user_id) + ".sqlite")

    def load(self, user_id: str, sessions: Sequence[Session]) -> None:
        if user_id in self.memories:
            self.memories.pop(user_id).close()
        path = self.path(user_id)
        if not path.exists():
            part = path.with_suffix(".part")
            part.unlink(missing_ok=True)
            self.url = f"sqlite:///{part}"
            super().load(user_id, sessions)
            self.memories.pop(user_id).close()
            part.replace(path)  # a run stopped mid-replay leaves a .part, never a half-written store
        copy = Path(self._copies.name) / path.name
        shutil.copyfile(path, copy)
        self.url = f"sqlite:///{copy}"
        if self.read_config is None:
            self.memories[user_id] = self._new()
        else:
            self.memories[user_id] = self._factory(self.url, embedder=self.embedder, config=self.read_config)

    def close(self) -> None:
        super().close()
        self._copies.cleanup()


def gold_recall(gold: Sequence[str], cited: Sequence[str]) -> float:
    """Share of the gold message ids that the context cites."""
    got = set(cited)
    return sum(1 for g in gold if g in got) / len(gold) if gold else 0.0


def run_read_sets(
    users: Sequence[ReadUser],
    systems: Sequence[System],
    budgets: Sequence[int],
    *,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Every system over every user and budget; ``{half: {budget: {system: {recall, tokens}}}}`` plus the
    per-case rows (``cases``) and the full history's token cost per question (``full_tokens``)."""
    from ...tokens import count_tokens

    rows: list[dict[str, Any]] = []
    full_tokens: dict[str, list[int]] = {"tune": [], "test": []}
    for u in users:
        full = count_tokens("\n".join(t.render() for s in u.sessions for t in s.turns))
        for c in u.cases:
            full_tokens[c.half].append(full)
        for system in systems:
            if progress is not None:
                progress(f"{u.user_id} · {system.name}")
            system.load(u.user_id, u.sessions)
            for c in u.cases:
                for b in budgets:
                    ctx = system.context(u.user_id, c.question, b, c.at)
                    rows.append({"case": c.case_id, "half": c.half, "cat": c.category, "budget": b,
                                 "system": system.name, "recall": gold_recall(c.gold, ctx.cited),
                                 "tokens": ctx.tokens})
    out: dict[str, Any] = {"halves": {}, "cases": rows}
    for h in ("tune", "test"):
        table: dict[str, dict[str, dict[str, float]]] = {}
        for b in budgets:
            for system in systems:
                sel = [r for r in rows if r["half"] == h and r["budget"] == b and r["system"] == system.name]
                if sel:
                    table.setdefault(str(b), {})[system.name] = {
                        "recall": sum(r["recall"] for r in sel) / len(sel),
                        "tokens": sum(r["tokens"] for r in sel) / len(sel),
                        "n": len(sel),
                    }
        out["halves"][h] = table
        ft = full_tokens[h]
        out.setdefault("full_tokens", {})[h] = sum(ft) / len(ft) if ft else None
    return out
