"""Tasks closed by a yes to the assistant's "did you ...?" or dropped as no longer needed (issue 17, w67).

Sentences are this file's own. The first two tests fail before w67: the answer became a note and the drop nothing,
so both tasks stayed open. The others hold before and after: what the rules must leave open.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from goodmemory import GoodMemory

T0 = datetime(2025, 5, 1, 9, 0, tzinfo=UTC)


def _states(mem: GoodMemory, *sessions: list[tuple[str, str]], user: str = "u") -> dict[str, str]:
    for i, turns in enumerate(sessions):
        mem.remember([{"role": r, "content": t} for r, t in turns], user_id=user, at=T0 + timedelta(days=3 * i))
    return {r.key: str(r.metadata.get("state")) for r in mem.list(user_id=user) if r.key.startswith("task.")}


def test_a_yes_to_did_you_closes_the_task_the_question_names(frozen_mem: GoodMemory) -> None:
    got = _states(frozen_mem, [("user", "I have to post the spare keys to my brother.")],
                  [("assistant", "Did you post the keys to your brother?"), ("user", "Yes, they arrived yesterday.")])
    assert list(got.values()) == ["closed"]


def test_no_need_any_more_closes_the_task_it_names(frozen_mem: GoodMemory) -> None:
    got = _states(frozen_mem, [("user", "I need to renew the parking permit.")],
                  [("user", "No need to renew the parking permit any more, I sold the car.")])
    assert list(got.values()) == ["closed"]


@pytest.mark.parametrize(("question", "reply"), [
    ("Did you post the keys to your brother?", "Not yet, the post office was shut."),
    ("Did you post the keys to your brother?", "Yes, I'll do it tomorrow morning."),
    ("Did you enjoy the film?", "Yes, loved it."),
    ("Do you still need to post the keys?", "Yes please, remind me."),
])
def test_an_answer_that_is_no_done_leaves_it_open(frozen_mem: GoodMemory, question: str, reply: str) -> None:
    got = _states(frozen_mem, [("user", "I have to post the spare keys to my brother.")],
                  [("assistant", question), ("user", reply)])
    assert got and all(s == "open" for s in got.values()), got


def test_a_drop_of_something_else_leaves_it_open(frozen_mem: GoodMemory) -> None:
    got = _states(frozen_mem, [("user", "I need to renew the parking permit.")],
                  [("user", "No need to thank me, it was nothing.")])
    assert list(got.values()) == ["open"]


def test_another_users_close_closes_nothing_of_this_users(frozen_mem: GoodMemory) -> None:
    _states(frozen_mem, [("user", "I need to renew the parking permit.")])
    _states(frozen_mem, [("user", "I need to renew the parking permit.")],
            [("user", "No need to renew the parking permit any more.")], user="v")
    assert {r.metadata.get("state") for r in frozen_mem.list(user_id="u") if r.key.startswith("task.")} == {"open"}
