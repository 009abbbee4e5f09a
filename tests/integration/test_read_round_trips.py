"""build_context reads what it needs in a fixed number of statements: the values that replaced its outdated
turns' values come in one list per link of the chains, not one read per turn shown."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import event

from goodmemory import create_good_memory
from goodmemory.testing import FrozenClock

T1 = datetime(2025, 2, 1, 9, tzinfo=UTC)
T2 = datetime(2025, 4, 1, 9, tzinfo=UTC)
T3 = datetime(2025, 6, 1, 9, tzinfo=UTC)
THINGS = ["team standup", "book club", "choir practice", "chess night", "pottery class", "spanish lesson",
          "pilates class", "board meeting"]
TIMES = [("9:15", "9:45", "10:30"), ("6:10", "6:40", "7:20"), ("8:05", "8:35", "8:50"), ("5:15", "5:25", "5:55"),
         ("4:10", "4:20", "4:40"), ("2:05", "2:35", "3:25"), ("7:15", "7:45", "11:05"), ("1:10", "1:40", "1:55")]


def _selects_and_flags(tmp_path: Path, n: int) -> tuple[int, int]:
    mem = create_good_memory(f"sqlite:///{tmp_path / f'r{n}.db'}", clock=FrozenClock(T3))
    for i, (thing, (a, b, c)) in enumerate(zip(THINGS[:n], TIMES, strict=False)):
        for j, (at, text) in enumerate([(T1, f"Our {thing} is at {a} in room {i + 2}."),
                                        (T2, f"The {thing} moved to {b} now, same room {i + 2}."),
                                        (T3, f"The {thing} moved again, it is at {c} now in room {i + 2}.")]):
            mem.remember([{"role": "user", "content": text}], user_id="u", session_id=f"s{i}-{j}", at=at)
    seen: list[str] = []
    event.listen(mem.storage.engine, "before_cursor_execute", lambda *a: seen.append(a[2]))  # type: ignore[attr-defined]
    ctx = mem.build_context("When are the standup, book club, choir, chess, pottery, spanish, pilates and the board "
                            "meeting?", user_id="u", max_tokens=2000)
    mem.close()
    return sum(s.lstrip().upper().startswith("SELECT") for s in seen), ctx.text.count("later:")


def test_outdated_turns_shown_do_not_add_reads(tmp_path: Path) -> None:
    few_reads, few_flags = _selects_and_flags(tmp_path, 2)
    many_reads, many_flags = _selects_and_flags(tmp_path, 8)
    assert many_flags >= few_flags + 4  # the chains were followed: each first value's flag names its latest
    assert many_reads <= few_reads + 1, (few_reads, many_reads)
