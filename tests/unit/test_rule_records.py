"""Every rule record of the rule extractor keeps its own examples: each positive example yields the stated
key and value from that rule (the candidate says which rule fired), each negative example yields nothing
from it, and every key a rule writes is in one of the key families the record declares."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from _extracting import extract

from goodmemory.extraction._engine import Example, Rule
from goodmemory.extraction.rules import PATTERN_NAMES, RULES
from goodmemory.models import Candidate
from goodmemory.taxonomy import family_by_name, family_of

AT = datetime(2025, 3, 5, 10, 0, tzinfo=UTC)  # a Wednesday


def _run(ex: Example) -> list[Candidate]:
    return extract(*ex.before, ex.text, at=AT, existing=dict(ex.existing))


CASES = [pytest.param(rule, ex, id=f"{rule.name}:{ex.text[:40]}") for rule in RULES for ex in rule.examples]


def test_every_record_has_a_positive_and_a_negative_example() -> None:
    assert len(PATTERN_NAMES) == len(RULES), "rule names are unique"
    for rule in RULES:
        assert any(ex.key for ex in rule.examples), f"{rule.name}: no positive example"
        assert any(ex.key is None for ex in rule.examples), f"{rule.name}: no negative example"
        for fam in rule.families:
            assert fam == "*" or family_by_name(fam) is not None, f"{rule.name}: unknown family {fam}"


@pytest.mark.parametrize(("rule", "ex"), CASES)
def test_record_example(rule: Rule, ex: Example) -> None:
    out = _run(ex)
    mine = [c for c in out if c.metadata.get("rule") == rule.name]
    if ex.key is None:
        assert not mine, [(c.key, c.value) for c in mine]
        return
    assert (ex.key, ex.value) in [(c.key, c.value) for c in mine], [(c.key, c.value, c.metadata.get("rule")) for c in out]
    for c in mine:
        fam = family_of(c.key)
        assert fam is not None and ("*" in rule.families or fam.name in rule.families), (c.key, rule.families)


def test_every_rule_candidate_names_its_rule() -> None:
    out = _run(Example("My name is Ines Barros and I live in Coimbra. I need to call the insurer by Friday."))
    assert {c.metadata["rule"] for c in out} == {"name", "home_city", "open_loop"}


@pytest.mark.parametrize(("text", "is_broken"), [
    ("User needs to book a session with Dr.", True),
    ("User works as a now a florist.", True),
    ("User needs to talk to the.", True),
    ("User's home address is 12 Oak Dr.", False),
    ("User needs to measure the hallway.", False),
])
def test_a_fragment_is_not_a_clause(text: str, is_broken: bool) -> None:
    from goodmemory.extraction._engine import broken

    assert broken(text) is is_broken


@pytest.mark.parametrize(("said", "task"), [
    ("I haven't measured the hallway yet.", "measure the hallway"),
    ("I haven't cancelled the gym membership.", "cancel the gym membership"),
    ("I haven't handled the insurance claim.", "handle the insurance claim"),
])
def test_an_unfinished_chore_keeps_its_verb_whole(said: str, task: str) -> None:
    (c,) = [c for c in _run(Example(said)) if c.metadata.get("rule") == "open_loop"]
    assert c.metadata["task"] == task and c.text == f"User needs to {task}."


def test_no_record_example_leaves_a_fragment() -> None:
    from goodmemory.extraction._engine import broken

    texts = [c.text for rule in RULES for ex in rule.examples for c in _run(ex) if not c.metadata.get("statement")]
    assert texts and not [t for t in texts if broken(t)]


def test_an_issued_number_the_agent_calls_old_is_not_kept() -> None:
    out = _run(Example("Thanks.", before=("A: Your old policy number was QK-11234. Your new policy number is QK-55678.",)))
    assert [(c.key, c.value) for c in out if c.metadata.get("issued_by_assistant")] == [("policy.number", "QK-55678")]
