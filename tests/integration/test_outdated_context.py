"""An old value is never shown as if current: through the facade, with the packaged embedder.

The context shows an outdated turn with the phrase the user took back hidden, and the flag names what it is now.
The sentences are this test's own; none is from a persona or a corpus.
"""

from __future__ import annotations

from datetime import UTC, datetime

from _shared import module_mem  # noqa: F401 (the module's mem: one memory shared by its tests)

from goodmemory import GoodMemory
from goodmemory._outdated import HIDDEN

T1 = datetime(2025, 2, 1, 9, tzinfo=UTC)
T2 = datetime(2025, 4, 1, 9, tzinfo=UTC)
T3 = datetime(2025, 6, 1, 9, tzinfo=UTC)


NOW = T3  # the shared mem's clock (_shared.module_mem)


def _sessions(mem: GoodMemory, user: str, domain: str, *sessions: tuple[datetime, list[tuple[str, str]]]) -> None:
    for i, (at, turns) in enumerate(sessions):
        mem.remember([{"role": r, "content": c} for r, c in turns], user_id=user, session_id=f"s{i}", at=at,
                     domain=domain)


def _lines(mem: GoodMemory, user: str, domain: str, query: str) -> list[str]:
    return [line for line in mem.build_context(query, user_id=user, domain=domain, max_tokens=600).text.splitlines()
            if line.startswith("- [")]


def test_a_denied_value_is_hidden_in_the_turns_that_state_it(mem: GoodMemory) -> None:
    _sessions(mem, "ferry", "travel",
              (T1, [("user", "Our ferry to the island leaves at 7:40 from pier 3 every Saturday."),
                    ("assistant", "Noted, the 7:40 from pier 3.")]),
              (T2, [("user", "Small correction: the ferry leaves at 8:10 now, not 7:40.")]))
    lines = _lines(mem, "ferry", "travel", "When does our ferry leave?")
    old = [line for line in lines if "pier 3" in line]
    assert len(old) == 2, lines  # the user's turn and the assistant's restatement
    for line in old:
        assert HIDDEN in line and "7:40" not in line and "8:10" in line, line
    # the only line left with the old time is the correction itself, next to the new one
    assert all("8:10" in line for line in lines if "7:40" in line), lines


def test_the_figures_of_a_thing_that_ended_are_hidden(mem: GoodMemory) -> None:
    _sessions(mem, "vespa", "money",
              (T1, [("user", "The Vespa needs a new clutch, the garage quoted 340 euros."),
                    ("assistant", "So 340 for the Vespa clutch, noted.")]),
              (T2, [("user", "We sold the Vespa, the clutch was not worth it.")]))
    lines = _lines(mem, "vespa", "money", "Do we still need money for the Vespa clutch?")
    assert not [line for line in lines if "340" in line], lines
    assert sum(HIDDEN in line and "sold the Vespa" in line for line in lines) == 2, lines


def test_a_flag_names_the_value_that_replaced_the_replacement(mem: GoodMemory) -> None:
    _sessions(mem, "standup", "work",
              (T1, [("user", "Our team standup is at 9:15 in room 4.")]),
              (T2, [("user", "The team standup moved to 9:45 now, same room 4.")]),
              (T3, [("user", "The team standup moved again, it is at 10:30 now in room 4.")]))
    first = next(line for line in _lines(mem, "standup", "work", "When is the team standup?") if "9:15" in line)
    assert "9:45" in first and "later:" in first and "10:30" in first, first


def test_the_reply_that_acknowledges_an_old_value_is_flagged_with_the_new_one(mem: GoodMemory) -> None:
    # the new value names the same person as the old one, so no dropped word finds the reply: its position does
    _sessions(mem, "keeper", "sport",
              (T1, [("user", "Drills at six, yes. Our goalkeeper Mateo keeps fumbling corner kicks, "
                             "I still need to drill him on Friday, remind me."),
                    ("assistant", "Noted — corner-kick drills with Mateo on Friday.")]),
              (T2, [("user", "Mateo moved up to the first team, so our new goalkeeper is Bruno.")]))
    lines = _lines(mem, "keeper", "sport", "Who is our goalkeeper, and what should I drill with him?")
    reply = next(line for line in lines if "assistant: Noted" in line)
    assert "outdated, now:" in reply and "Bruno" in reply, lines
    # every line naming the old goalkeeper also names the new one
    assert all("Bruno" in line for line in lines if "Mateo" in line), lines


def test_a_reply_to_another_turn_is_not_flagged(mem: GoodMemory) -> None:
    _sessions(mem, "keeper2", "sport",
              (T1, [("user", "Our goalkeeper Mateo keeps fumbling corner kicks, I still need to drill him, remind me."),
                    ("assistant", "Noted — drills with Mateo."),
                    ("user", "Also Mateo's brother Lucas wants to join the club."),
                    ("assistant", "Lucas and Mateo in one team, nice.")]),
              (T2, [("user", "Mateo moved up to the first team, so our new goalkeeper is Bruno.")]))
    lines = _lines(mem, "keeper2", "sport", "Does Lucas want to join the club?")
    other = next(line for line in lines if "Lucas and Mateo" in line)
    assert "outdated" not in other, lines


def test_a_rejected_memory_is_hidden_in_the_turn_it_was_read_from(mem: GoodMemory) -> None:
    _sessions(mem, "bakery", "money",
              (T1, [("user", "My plan for now is to sell the bakery at 55 and sail around Greece. Does the money work?"),
                    ("assistant", "It can, if the sale covers the boat.")]))
    target = next(r for r in mem.list(user_id="bakery") if r.kind.value != "episode" and "bakery" in r.value)
    before = _lines(mem, "bakery", "money", "What is my plan for the bakery?")
    assert any("sail around Greece" in line for line in before), before
    mem.feedback(target.id, "reject", user_id="bakery")
    lines = _lines(mem, "bakery", "money", "What is my plan for the bakery?")
    turn = next(line for line in lines if "Does the money work?" in line)
    assert "retracted by the user" in turn and "[retracted]" in turn and "Greece" not in turn, lines
    assert not any("sail around Greece" in line for line in lines), lines
    # the turn itself is kept: the reject changed how it is shown, not what is stored
    stored = [r for r in mem.list(user_id="bakery", kinds=["episode"]) if "Does the money work?" in r.text]
    assert len(stored) == 1 and "sail around Greece" in stored[0].text
    # forgetting the rejected memory leaves no copy of its value in a mark
    mem.forget(target.id, user_id="bakery")
    left = mem.export(user_id="bakery").memories
    assert not [r for r in left if "Greece" in r.model_dump_json()], left


def test_a_corrected_turn_does_not_pass_its_marks_to_the_correction(mem: GoodMemory) -> None:
    _sessions(mem, "tram", "travel",
              (T1, [("user", "The night tram to the depot leaves at 23:50 from stop 12.")]),
              (T2, [("user", "Small correction: the night tram leaves at 00:20 now, not 23:50.")]))
    turn = next(r for r in mem.list(user_id="tram", kinds=["episode"]) if "stop 12" in r.text)
    assert turn.metadata.get("outdated"), turn.metadata  # the setup: the old turn is marked
    res = mem.feedback(turn.id, "correct", user_id="tram", correction="The night tram stops at stop 14 since May.")
    new = mem.list(user_id="tram", kinds=["episode"])
    fixed = next(r for r in new if r.id == res.new_memory_id)
    assert not fixed.metadata.get("outdated"), fixed.metadata
    lines = _lines(mem, "tram", "travel", "Where does the night tram stop?")
    line = next(line for line in lines if "stop 14" in line)
    assert "outdated" not in line, lines


def test_a_turn_is_not_flagged_outdated_by_a_correction_that_says_what_the_turn_says(mem: GoodMemory) -> None:
    # an agent "corrects" a memory into the words its own turn already said: the turn is where the value is current
    _sessions(mem, "kiln", "craft",
              (T1, [("user", "Sorry, the kiln is fired on Thursdays, not Tuesdays. 14 pieces go in it.")]))
    memo = next(r for r in mem.list(user_id="kiln") if r.kind.value != "episode" and "kiln" in r.value.lower())
    mem.feedback(memo.id, "correct", user_id="kiln", correction="The kiln is fired on Thursdays with 14 pieces, not Tuesdays.")
    turn = next(r for r in mem.list(user_id="kiln", kinds=["episode"]) if r.text.startswith("user: Sorry"))
    assert turn.metadata.get("outdated"), turn.metadata  # the setup: the correction marked the turn
    lines = _lines(mem, "kiln", "craft", "When is the kiln fired?")
    line = next(line for line in lines if "\"Sorry, the kiln" in line)
    assert "outdated" not in line and "Thursdays" in line, lines
