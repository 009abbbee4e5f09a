"""The systems a persona eval compares: GoodMemory and the plain baselines, behind one interface.

Every system replays the same life (the scenario's sessions, the feedback
corrections as the user's words, and each earlier probe question) and then
builds the context it would paste into the prompt for a probe. The turn-based
baselines are the shared ones in ``suites/baselines.py``:

* ``empty``           -- no context at all (the null system);
* ``current-session`` -- the seed's baseline: only the session the user is in, i.e. the latest replayed
  session, within the budget (no memory of earlier sessions);
* ``recent-window``   -- the most recent turns of the whole history that fit in the budget;
* ``bm25-turns`` / ``dense-turns`` -- the turns most similar to the request (BM25 / MiniLM cosine);
* ``full-history``    -- every turn, ignoring the budget (its token cost is reported);
* ``goodmemory``      -- ``build_context`` after ``remember`` + ``feedback``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from ..memory import GoodMemory
from ..models import MemoryKind
from .assertions import ContextView, Item
from .schema import Probe, Scenario
from .suites import baselines as bl

__all__ = ["BASELINES", "DEFAULT_BASELINE", "SYSTEMS", "Candidate", "GoodMemoryCandidate", "ReplayClock",
           "TurnCandidate", "history_text", "make_candidates", "replay_turns"]

SYSTEMS = ("goodmemory", "empty", "current-session", "recent-window", "bm25-turns", "dense-turns", "full-history")
BASELINES = tuple(s for s in SYSTEMS if s != "goodmemory")
DEFAULT_BASELINE = "current-session"


class Candidate(Protocol):
    name: str

    def prepare(self, user_id: str, scenario: Scenario) -> None: ...

    def context(self, user_id: str, probe: Probe, budget: int) -> ContextView: ...

    def after_probe(self, user_id: str, probe: Probe) -> None: ...

    def close(self) -> None: ...


class ReplayClock:
    """The replay's "now": set to each event's time, so nothing the eval does is dated by the wall clock.

    ``feedback`` takes no ``at``; without this, corrections replayed in a 2025 life were dated on the
    day the eval ran, and runs on different days ranked them differently.
    """

    def __init__(self) -> None:
        self.now = datetime(2000, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def feedback_time(scenario: Scenario) -> datetime:
    """When the scenario's feedback is given: an hour after its last session."""
    return scenario.sessions[-1].at + timedelta(hours=1)


def replay_turns(scenario: Scenario) -> list[bl.Session]:
    """The scenario as turn sessions (message ids ``<session>:<i>``), then the feedback corrections."""
    sessions = [bl.Session(s.session_id, s.at, [bl.Turn(f"{s.session_id}:{i}", t.role, t.content,
                                                        s.at + timedelta(minutes=i))
                                               for i, t in enumerate(s.turns)]) for s in scenario.sessions]
    corrections = [f.correction for f in scenario.feedback if f.correction]
    if corrections:
        at = feedback_time(scenario)
        sessions.append(bl.Session("feedback", at, [bl.Turn(f"feedback:{i}", "user", c, at)
                                                    for i, c in enumerate(corrections)]))
    return sessions


def history_text(scenario: Scenario) -> str:
    """Everything the user's history holds, for the judge's grounding check."""
    return "\n".join(t.content for s in replay_turns(scenario) for t in s.turns)


def _probe_session(probe: Probe) -> bl.Session:
    return bl.Session(f"probe-{probe.probe_id}", probe.at,
                      [bl.Turn(f"probe-{probe.probe_id}:0", "user", probe.question, probe.at)])


class TurnCandidate:
    """A turn-based baseline from ``suites/baselines.py``; ``latest_only`` keeps only the last replayed session."""

    def __init__(self, name: str, system: Any, *, latest_only: bool = False, budgeted: bool = True) -> None:
        self.name, self.system, self.latest_only, self.budgeted = name, system, latest_only, budgeted
        self.sessions: dict[str, list[bl.Session]] = {}

    def prepare(self, user_id: str, scenario: Scenario) -> None:
        sessions = replay_turns(scenario)
        if self.latest_only:
            sessions = [next(s for s in reversed(sessions) if s.session_id != "feedback")]
        self.sessions[user_id] = sessions
        self.system.load(user_id, sessions)

    def context(self, user_id: str, probe: Probe, budget: int) -> ContextView:
        res = self.system.context(user_id, probe.question, budget, at=probe.at)
        by_id = {t.message_id: t for s in self.sessions[user_id] for t in s.turns}
        items = tuple(Item(m, (m,), by_id[m].content) for m in res.cited)
        return ContextView(self.name, res.text, res.tokens, items, frozenset(by_id))

    def after_probe(self, user_id: str, probe: Probe) -> None:
        if self.latest_only:  # the current session is the one the probe continues; earlier probes are other sessions
            return
        self.sessions[user_id].append(_probe_session(probe))
        self.system.load(user_id, self.sessions[user_id])

    def close(self) -> None:
        self.system.close()


class GoodMemoryCandidate:
    """GoodMemory through its facade; keeps the remember/feedback/recall traces of the last replay."""

    name = "goodmemory"

    def __init__(self, mem: GoodMemory, clock: ReplayClock | None = None) -> None:
        self.mem = mem
        self.clock = clock or ReplayClock()
        self.traces: dict[str, Any] = {}
        self.last_context: Any = None
        self.feedback_message_ids: set[str] = set()  # messages feedback corrections created

    def prepare(self, user_id: str, scenario: Scenario) -> None:
        self.mem.forget(user_id=user_id, all=True)
        self.feedback_message_ids = set()
        remember: list[dict[str, Any]] = []
        for s in scenario.sessions:
            msgs = [{"role": t.role, "content": t.content, "id": f"{s.session_id}:{i}",
                     "timestamp": s.at + timedelta(minutes=i)} for i, t in enumerate(s.turns)]
            self.clock.now = s.at + timedelta(minutes=len(s.turns))
            res = self.mem.remember(msgs, user_id=user_id, session_id=s.session_id, domain=s.domain, at=s.at)
            remember.append({"session_id": s.session_id, "domain": s.domain, "at": s.at.isoformat(),
                             "result": res.model_dump(mode="json", exclude={"memories"}),
                             "memories": [{"id": m.id, "kind": m.kind.value, "key": m.key, "text": m.text,
                                           "status": m.status.value} for m in res.memories
                                          if m.kind != MemoryKind.EPISODE]})
        self.clock.now = feedback_time(scenario)
        self.traces = {"remember": remember, "feedback": self._feedback(user_id, scenario)}

    def _feedback(self, user_id: str, scenario: Scenario) -> list[dict[str, Any]]:
        traces: list[dict[str, Any]] = []
        for step in scenario.feedback:
            needle = step.match.lower()
            targets = [r for r in self.mem.list(user_id=user_id) if needle in r.text.lower()]
            targets.sort(key=lambda r: (r.kind == MemoryKind.EPISODE, -r.event_time.timestamp()))
            if not targets:
                traces.append({"match": step.match, "signal": step.signal, "applied": False,
                               "reason": "no active memory contains the match text"})
                continue
            res = self.mem.feedback(targets[0].id, step.signal, user_id=user_id, correction=step.correction)
            if res.memory is not None:
                self.feedback_message_ids.update(res.memory.source.message_ids)
            traces.append({"match": step.match, "signal": step.signal, "applied": True, "memory_id": targets[0].id,
                           "result": res.model_dump(mode="json", exclude={"memory"})})
        return traces

    def context(self, user_id: str, probe: Probe, budget: int) -> ContextView:
        self.clock.now = probe.at
        self.traces["recall"] = self.mem.recall(probe.question, user_id=user_id, domain=probe.domain,
                                                at=probe.at).model_dump(mode="json")
        ctx = self.mem.build_context(probe.question, user_id=user_id, domain=probe.domain, max_tokens=budget,
                                     at=probe.at)
        self.last_context = ctx
        known = frozenset(m.id for m in self.mem.export(user_id=user_id).memories)
        items = tuple(Item(i.memory_id, tuple(i.source_message_ids or ()), i.text) for i in ctx.items)
        return ContextView(self.name, ctx.text, int(ctx.tokens), items, known)

    def after_probe(self, user_id: str, probe: Probe) -> None:
        # the user's request becomes part of their history, as in a live agent
        self.mem.remember([{"role": "user", "content": probe.question, "id": f"probe-{probe.probe_id}:0"}],
                          user_id=user_id, session_id=f"probe-{probe.probe_id}", domain=probe.domain, at=probe.at)

    def close(self) -> None:
        self.mem.close()


def make_candidates(names: Sequence[str], *, make_memory: Callable[[ReplayClock], GoodMemory] | None,
                    embedder: Callable[[], Any]) -> dict[str, Candidate]:
    """The named systems, in order; ``embedder`` is called once, only if dense-turns is asked for."""
    out: dict[str, Candidate] = {}
    for name in names:
        if name in out:
            continue
        if name == "goodmemory":
            if make_memory is None:
                raise ValueError("goodmemory needs a memory factory")
            clock = ReplayClock()
            out[name] = GoodMemoryCandidate(make_memory(clock), clock)
        elif name == "empty":
            out[name] = TurnCandidate(name, bl.NoMemory())
        elif name == "current-session":
            out[name] = TurnCandidate(name, bl.RecentWindow(), latest_only=True)
        elif name == "recent-window":
            out[name] = TurnCandidate(name, bl.RecentWindow())
        elif name == "bm25-turns":
            out[name] = TurnCandidate(name, bl.BM25Turns())
        elif name == "dense-turns":
            out[name] = TurnCandidate(name, bl.DenseTurns(embedder()))
        elif name == "full-history":
            out[name] = TurnCandidate(name, bl.FullContext(), budgeted=False)
        else:
            raise ValueError(f"unknown system {name!r}; choose from {', '.join(SYSTEMS)}")
    return out
