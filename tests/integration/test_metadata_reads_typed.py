"""Every metadata key the library writes on a memory reads as its declared type (``_meta.MemoryMeta``).

Candidate metadata is a free JSON object shared by the write and read paths; a key written with another type than
the one the read path expects breaks the read. A "no" answer's mark was once written as ``denies: True`` while the
context reads ``denies`` as the list of phrases a change denies, and ``build_context`` raised ``TypeError`` on any
store holding such an answer. This replays a sample of the write corpus and a few service-style calls and checks
that no stored record has a typed key it cannot read.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

from goodmemory import create_good_memory
from goodmemory._meta import read_meta
from goodmemory.testing import FrozenClock

ROOT = Path(__file__).resolve().parents[2]
_CALLS = [
    [{"role": "user", "content": "I bank with Halifax and the app is awful"}],
    [{"role": "assistant", "content": "Are you still with Halifax? The steps differ by bank."},
     {"role": "user", "content": "nope, Monzo since June. the joint one"}],
    [{"role": "assistant", "content": "Which bank are you with at the moment? Some apps have pots."},
     {"role": "user", "content": "Starling, moved everything over in april"}],
    [{"role": "user", "content": "yeah could you change my email to mo.hassan@fastmail.com, the old one's full of spam"}],
    [{"role": "user", "content": "My usual is a flat white. Actually it's an oat cortado these days, not a flat white"}],
]


def _lives(n: int) -> list:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import run_write_eval as W
    finally:
        sys.path.pop(0)
    return W.load_corpus()[:: max(1, len(W.load_corpus()) // n)][:n]


def test_no_stored_record_has_a_typed_key_it_cannot_read() -> None:
    clock = FrozenClock(datetime(2025, 1, 6, 9, tzinfo=UTC))
    bad: list[tuple[str, dict]] = []
    with create_good_memory("sqlite://", clock=clock) as mem:
        for i, call in enumerate(_CALLS):
            clock.set(datetime(2025, 1, 6 + i, 9, tzinfo=UTC))
            mem.remember(call, user_id="calls")
        for j, life in enumerate(_lives(60)):
            for k, (at, turns) in enumerate(life.sessions):
                clock.set(at)
                mem.remember(turns, user_id=f"life{j}", session_id=f"s{k}", at=at)
        users = ["calls", *(f"life{j}" for j in range(60))]
        for user in users:
            for r in mem.list(user_id=user, include_history=True):
                unread = read_meta(r.metadata).unreadable
                if unread:
                    bad.append((r.key, unread))
        # and the context reads every store
        for user in users[:10]:
            mem.build_context("what do you know about me?", user_id=user, max_tokens=300)
    assert not bad, bad[:5]
