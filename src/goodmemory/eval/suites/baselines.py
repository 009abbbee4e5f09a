"""Reference retrieval systems shared by the external suites, and the GoodMemory adapter.

Every system implements :class:`System`: ``load`` replays one user's sessions,
``context`` returns the block the system would paste into the prompt for a
question at a token budget, together with the message ids it "cites". The
reference systems work on raw turns:

* ``no_memory``     -- an empty context;
* ``recent_window`` -- the most recent turns that fit in the budget;
* ``full_context``  -- every turn, ignoring the budget (its tokens are reported);
* ``bm25_turns``    -- the top turns by Okapi BM25 to the question, packed until the budget;
* ``dense_turns``   -- the top turns by embedding cosine to the question, packed until the budget.

:class:`GoodMemorySystem` wraps ``goodmemory.create_good_memory`` behind the same
interface, so the suites compare it with the baselines like for like.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

import numpy as np

from ...tokens import count_tokens

__all__ = [
    "BASELINE_NAMES",
    "BM25Index",
    "BM25Turns",
    "ContextResult",
    "DenseTurns",
    "FullContext",
    "GoodMemorySystem",
    "NoMemory",
    "RecentWindow",
    "Session",
    "System",
    "Turn",
    "goodmemory_available",
    "make_systems",
]

BASELINE_NAMES = ("no_memory", "recent_window", "full_context", "bm25_turns", "dense_turns")

_WORD = re.compile(r"[a-z0-9]+(?:['\-][a-z0-9]+)*")
_STOP_WORDS = (
    "a an the and or but if of to in on at for with from by as is are was were be been being am do does did "
    "i me my you your he she it we they them our their his her its this that these those what which who whom "
    "how when where why can could would should will shall may might must have has had not no so than then "
    "there here just about into over also any all some up out very too"
)
_STOP = frozenset(_STOP_WORDS.split())


@dataclass(frozen=True)
class Turn:
    """One message of a replayed conversation."""

    message_id: str
    role: str
    content: str
    timestamp: datetime | None = None
    name: str | None = None

    def render(self) -> str:
        """The line a turn-based baseline puts in its context."""
        return f"[{self.message_id}] {self.role}: {self.content}"


@dataclass
class Session:
    """One conversation session: its id, time and turns, in order."""

    session_id: str
    at: datetime | None
    turns: list[Turn] = field(default_factory=list)


@dataclass
class ContextResult:
    """What a system pastes into the prompt, its size and the message ids it cites."""

    text: str
    tokens: int
    cited: list[str] = field(default_factory=list)


class System(Protocol):
    """A memory system under evaluation."""

    name: str

    def load(self, user_id: str, sessions: Sequence[Session]) -> None: ...

    def context(
        self, user_id: str, question: str, budget: int, at: datetime | None = None
    ) -> ContextResult: ...

    def close(self) -> None: ...


def tokenize(text: str) -> list[str]:
    """Lowercased word tokens without stop words (for BM25)."""
    return [w for w in _WORD.findall(text.lower()) if w not in _STOP]


class BM25Index:
    """Okapi BM25 over a fixed list of documents (k1=1.5, b=0.75)."""

    def __init__(self, docs: Sequence[str], k1: float = 1.5, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.tfs = [Counter(tokenize(d)) for d in docs]
        self.lens = [sum(tf.values()) for tf in self.tfs]
        self.avg = (sum(self.lens) / len(self.lens)) if self.lens else 0.0
        df: Counter[str] = Counter()
        for tf in self.tfs:
            df.update(tf.keys())
        n = len(self.tfs)
        self.idf = {t: math.log(1.0 + (n - c + 0.5) / (c + 0.5)) for t, c in df.items()}

    def scores(self, query: str) -> list[float]:
        terms = [t for t in set(tokenize(query)) if t in self.idf]
        out = []
        for tf, dl in zip(self.tfs, self.lens, strict=True):
            s = 0.0
            norm = self.k1 * (1 - self.b + self.b * dl / self.avg) if self.avg else self.k1
            for t in terms:
                f = tf.get(t, 0)
                if f:
                    s += self.idf[t] * f * (self.k1 + 1) / (f + norm)
            out.append(s)
        return out


class _TurnStore:
    """Keeps each user's turns with their rendered lines and token counts."""

    def __init__(self) -> None:
        self.turns: dict[str, list[Turn]] = {}
        self.lines: dict[str, list[str]] = {}
        self.line_tokens: dict[str, list[int]] = {}

    def load(self, user_id: str, sessions: Sequence[Session]) -> None:
        turns = [t for s in sessions for t in s.turns]
        self.turns[user_id] = turns
        self.lines[user_id] = [t.render() for t in turns]
        self.line_tokens[user_id] = [count_tokens(line) for line in self.lines[user_id]]

    def pack(
        self,
        user_id: str,
        order: Sequence[int],
        budget: int | None,
        *,
        stop_at_first: bool = False,
        chronological: bool = False,
    ) -> ContextResult:
        """Packs turns in ``order`` while they fit in ``budget`` (``None``: no budget)."""
        lines, toks = self.lines[user_id], self.line_tokens[user_id]
        chosen: list[int] = []
        used = 0
        for i in order:
            cost = toks[i] + (1 if chosen else 0)  # a newline between lines
            if budget is not None and used + cost > budget:
                if stop_at_first:
                    break
                continue
            chosen.append(i)
            used += cost
        if chronological:
            chosen.sort()
        text = "\n".join(lines[i] for i in chosen)
        tokens = count_tokens(text)
        while budget is not None and chosen and tokens > budget:  # merges across lines are rare; be exact
            chosen.pop()
            text = "\n".join(lines[i] for i in chosen)
            tokens = count_tokens(text)
        return ContextResult(text, tokens, [self.turns[user_id][i].message_id for i in chosen])

    def close(self) -> None:
        self.turns.clear()
        self.lines.clear()
        self.line_tokens.clear()


class NoMemory(_TurnStore):
    name = "no_memory"

    def context(self, user_id: str, question: str, budget: int, at: datetime | None = None) -> ContextResult:
        return ContextResult("", 0, [])


class RecentWindow(_TurnStore):
    name = "recent_window"

    def context(self, user_id: str, question: str, budget: int, at: datetime | None = None) -> ContextResult:
        n = len(self.turns[user_id])
        return self.pack(user_id, range(n - 1, -1, -1), budget, stop_at_first=True, chronological=True)


class FullContext(_TurnStore):
    name = "full_context"

    def context(self, user_id: str, question: str, budget: int, at: datetime | None = None) -> ContextResult:
        return self.pack(user_id, range(len(self.turns[user_id])), None)


class BM25Turns(_TurnStore):
    name = "bm25_turns"

    def __init__(self) -> None:
        super().__init__()
        self.index: dict[str, BM25Index] = {}

    def load(self, user_id: str, sessions: Sequence[Session]) -> None:
        super().load(user_id, sessions)
        self.index[user_id] = BM25Index([t.content for t in self.turns[user_id]])

    def context(self, user_id: str, question: str, budget: int, at: datetime | None = None) -> ContextResult:
        scores = self.index[user_id].scores(question)
        order = sorted((i for i, s in enumerate(scores) if s > 0), key=lambda i: (-scores[i], i))
        return self.pack(user_id, order, budget)


class DenseTurns(_TurnStore):
    name = "dense_turns"

    def __init__(self, embedder: Any) -> None:
        super().__init__()
        self.embedder = embedder
        self.vectors: dict[str, np.ndarray] = {}

    def load(self, user_id: str, sessions: Sequence[Session]) -> None:
        super().load(user_id, sessions)
        texts = [t.content for t in self.turns[user_id]]
        self.vectors[user_id] = self.embedder.embed(texts) if texts else np.zeros((0, 1), np.float32)

    def context(self, user_id: str, question: str, budget: int, at: datetime | None = None) -> ContextResult:
        mat = self.vectors[user_id]
        if not len(mat):
            return ContextResult("", 0, [])
        sims = mat @ self.embedder.embed([question])[0]
        order = [int(i) for i in np.argsort(-sims, kind="stable")]
        return self.pack(user_id, order, budget)


def goodmemory_available() -> bool:
    """Whether the facade ``goodmemory.create_good_memory`` can be imported."""
    try:
        from goodmemory import create_good_memory  # noqa: F401
    except ImportError:
        return False
    return True


class GoodMemorySystem:
    """GoodMemory through its public facade: one in-memory SQLite store per replayed user."""

    name = "goodmemory"

    def __init__(
        self, embedder: Any = None, url: str = "sqlite://", clock: Callable[[], datetime] | None = None
    ) -> None:
        from goodmemory import create_good_memory

        self._factory = create_good_memory
        self.embedder, self.url, self.clock = embedder, url, clock
        self.memories: dict[str, Any] = {}
        self.last_context: Any = None

    def _new(self) -> Any:
        kwargs: dict[str, Any] = {}
        if self.embedder is not None:
            kwargs["embedder"] = self.embedder
        if self.clock is not None:
            kwargs["clock"] = self.clock
        return self._factory(self.url, **kwargs)

    def load(self, user_id: str, sessions: Sequence[Session]) -> None:
        if user_id in self.memories:
            self.memories.pop(user_id).close()
        mem = self._new()
        self.memories[user_id] = mem
        for s in sessions:
            msgs = []
            for t in s.turns:
                m: dict[str, Any] = {"role": t.role, "content": t.content, "id": t.message_id}
                if t.timestamp is not None:
                    m["timestamp"] = t.timestamp
                if t.name:
                    m["name"] = t.name
                msgs.append(m)
            if msgs:
                mem.remember(msgs, user_id=user_id, session_id=s.session_id, at=s.at)

    def context(self, user_id: str, question: str, budget: int, at: datetime | None = None) -> ContextResult:
        ctx = self.memories[user_id].build_context(question, user_id=user_id, max_tokens=budget, at=at)
        self.last_context = ctx
        cited: list[str] = []
        seen: set[str] = set()
        for item in ctx.items:
            for mid in getattr(item, "source_message_ids", None) or []:
                if mid not in seen:
                    seen.add(mid)
                    cited.append(mid)
        return ContextResult(ctx.text, int(ctx.tokens), cited)

    def close(self) -> None:
        for mem in self.memories.values():
            mem.close()
        self.memories.clear()


def make_systems(
    names: Sequence[str], embedder: Any, *, warn: Callable[[str], None] | None = None
) -> list[Any]:
    """Builds the named systems in order; ``goodmemory`` is skipped with a warning if not importable."""
    out: list[Any] = []
    for name in names:
        if name == "goodmemory":
            if goodmemory_available():
                out.append(GoodMemorySystem(embedder=embedder))
            elif warn is not None:
                warn("goodmemory.create_good_memory is not importable yet: skipping the goodmemory system")
        elif name == "no_memory":
            out.append(NoMemory())
        elif name == "recent_window":
            out.append(RecentWindow())
        elif name == "full_context":
            out.append(FullContext())
        elif name == "bm25_turns":
            out.append(BM25Turns())
        elif name == "dense_turns":
            out.append(DenseTurns(embedder))
        else:
            raise ValueError(f"unknown system {name!r}; choose from goodmemory, {', '.join(BASELINE_NAMES)}")
    return out
