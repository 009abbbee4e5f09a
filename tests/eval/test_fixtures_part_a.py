"""Validates part A of the eval fixtures: personas/scenarios p01-p20 (medium) and p37-p38 (long).

Every file is loaded with ``yaml.safe_load`` and validated against the eval schema; on top of
the schema this checks the lifecycle rules (turn, session and probe counts; drift, correction
and stale situations for long lives) and that every deterministic signal a probe expects is a
literal phrase the user really said in the replay, so the signal checks can be satisfied.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from goodmemory.eval.schema import DOMAINS, Persona, Probe, Scenario

pytestmark = pytest.mark.eval

ROOT = Path(__file__).resolve().parents[2]
PERSONA_DIR = ROOT / "fixtures" / "personas"
SCENARIO_DIR = ROOT / "fixtures" / "scenarios"

MEDIUM_NUMBERS = [f"{n:02d}" for n in range(1, 21)]
LONG_NUMBERS = ["37", "38"]
OUR_NUMBERS = MEDIUM_NUMBERS + LONG_NUMBERS

ALLOWED_DOMAINS = DOMAINS

LIMITS = {
    # lifecycle: (min turns, max turns, min sessions, max sessions, min probes, max probes)
    "medium": (8, 15, 2, 4, 3, 5),
    "long": (20, 40, 5, 8, 6, 8),
}

CORRECTION = re.compile(r"\bactually\b", re.IGNORECASE)


def _stems() -> list[str]:
    stems = []
    for nn in OUR_NUMBERS:
        found = sorted(PERSONA_DIR.glob(f"p{nn}_*.yaml"))
        stems.extend(p.stem for p in found)
        if not found:
            stems.append(f"p{nn}_MISSING")
    return stems


STEMS = _stems()


def _load(path: Path) -> Any:
    assert path.exists(), f"missing fixture {path.relative_to(ROOT)}"
    with path.open(encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def _pair(stem: str) -> tuple[Persona, Scenario]:
    persona = Persona.model_validate(_load(PERSONA_DIR / f"{stem}.yaml"))
    scenario = Scenario.model_validate(_load(SCENARIO_DIR / f"{stem}.yaml"))
    return persona, scenario


def _user_text(scenario: Scenario) -> str:
    return "\n".join(t.content for s in scenario.sessions for t in s.turns if t.role == "user").lower()


def test_every_number_has_exactly_one_persona_and_scenario() -> None:
    for nn in OUR_NUMBERS:
        personas = sorted(PERSONA_DIR.glob(f"p{nn}_*.yaml"))
        scenarios = sorted(SCENARIO_DIR.glob(f"p{nn}_*.yaml"))
        assert len(personas) == 1, f"p{nn}: expected one persona file, got {personas}"
        assert [p.name for p in scenarios] == [p.name for p in personas], f"p{nn}: scenario stem differs"


@pytest.mark.parametrize("stem", STEMS)
def test_persona_validates(stem: str) -> None:
    persona = Persona.model_validate(_load(PERSONA_DIR / f"{stem}.yaml"))
    assert persona.persona_id == stem
    number = stem[1:3]
    assert persona.lifecycle == ("long" if number in LONG_NUMBERS else "medium")
    assert 2 <= len(persona.domains) <= 4, persona.domains
    assert set(persona.domains) <= ALLOWED_DOMAINS, set(persona.domains) - ALLOWED_DOMAINS
    assert len(set(persona.domains)) == len(persona.domains)
    for rel in persona.known_relationships:
        assert rel.notes.strip(), f"relationship {rel.name} has no notes"


@pytest.mark.parametrize("stem", STEMS)
def test_scenario_validates_and_follows_lifecycle(stem: str) -> None:
    persona, scenario = _pair(stem)
    assert scenario.persona_id == stem
    min_t, max_t, min_s, max_s, min_p, max_p = LIMITS[persona.lifecycle]
    assert min_t <= scenario.turn_count <= max_t, f"{scenario.turn_count} turns"
    assert min_s <= len(scenario.sessions) <= max_s, f"{len(scenario.sessions)} sessions"
    assert min_p <= len(scenario.probes) <= max_p, f"{len(scenario.probes)} probes"

    for session in scenario.sessions:
        assert session.at.tzinfo is not None, f"{session.session_id}: timestamp needs a zone (Z)"
        assert session.domain in persona.domains, f"{session.session_id}: domain {session.domain}"
        assert session.turns[0].role == "user", f"{session.session_id}: should open with the user"
        roles = [t.role for t in session.turns]
        assert all(a != b for a, b in zip(roles, roles[1:], strict=False)), (
            f"{session.session_id}: roles must alternate"
        )

    session_ids = {s.session_id for s in scenario.sessions}
    for drift in persona.drift_events:
        assert drift.session_id in session_ids, f"drift event points at unknown session {drift.session_id}"

    user = _user_text(scenario)
    for step in scenario.feedback:
        assert step.match.lower() in user, f"feedback match {step.match!r} was never said"
        if step.signal == "correct":
            assert step.correction, "a correct step needs a correction"
        if step.domain is not None:
            assert step.domain in persona.domains


@pytest.mark.parametrize("stem", [s for s in STEMS if s[1:3] in LONG_NUMBERS])
def test_long_lives_have_drift_correction_and_stale(stem: str) -> None:
    persona, scenario = _pair(stem)
    assert persona.drift_events, "a long life needs a drift event"
    user_turns = [t.content for s in scenario.sessions for t in s.turns if t.role == "user"]
    assert any(CORRECTION.search(t) for t in user_turns), (
        "no explicit correction ('Actually, ...') by the user"
    )
    stale = [p for p in scenario.probes if p.evaluation_setting == "stale" and p.expected_stale_suppression]
    assert stale, "a long life needs a stale probe with expected_stale_suppression"
    drift_sessions = [
        s for s in scenario.sessions if s.session_id in {d.session_id for d in persona.drift_events}
    ]
    assert any(s is not scenario.sessions[0] for s in drift_sessions), (
        "drift must happen after the first session"
    )


def _check_probe(probe: Probe, persona: Persona, scenario: Scenario) -> None:
    user = _user_text(scenario)
    question = probe.question.lower()
    assert probe.domain in persona.domains, f"{probe.probe_id}: domain {probe.domain}"
    assert set(probe.memory_source_domains) <= set(persona.domains), probe.probe_id
    assert probe.at.tzinfo is not None
    assert probe.at > scenario.sessions[-1].at, f"{probe.probe_id}: must be asked after the replay"
    if probe.evaluation_setting == "cross_domain":
        assert probe.domain not in probe.memory_source_domains, (
            f"{probe.probe_id}: cross_domain needs another source"
        )
    if probe.evaluation_setting == "update":
        assert probe.expected_update_wins, f"{probe.probe_id}: update probe without expected_update_wins"
    if probe.evaluation_setting == "stale":
        assert probe.expected_stale_suppression, f"{probe.probe_id}: stale probe without suppression"

    for sig in probe.expected_transfer_signals:
        assert 1 <= len(sig.split()) <= 4, f"{probe.probe_id}: signal {sig!r} should be 1-4 words"
        assert sig.lower() in user, f"{probe.probe_id}: transfer signal {sig!r} never said by the user"
        assert sig.lower() not in question, f"{probe.probe_id}: {sig!r} is given away by the question"
    for upd in probe.expected_update_wins:
        assert upd.new.lower() in user, f"{probe.probe_id}: new value {upd.new!r} never said"
        assert upd.old.lower() in user, f"{probe.probe_id}: old value {upd.old!r} never said"
        assert upd.new.lower() not in question, f"{probe.probe_id}: new value {upd.new!r} is in the question"
        assert upd.new.lower() != upd.old.lower()
    for sig in probe.expected_stale_suppression:
        assert sig.lower() in user, f"{probe.probe_id}: stale value {sig!r} never said"
        assert sig.lower() not in question, f"{probe.probe_id}: stale value {sig!r} is in the question"
    other_domain_prefs = " ".join(
        pref
        for dom, prefs in persona.domain_specific_preferences.items()
        if dom != probe.domain
        for pref in prefs
    ).lower()
    for sig in probe.expected_non_transfer_signals:
        assert sig.lower() in user, f"{probe.probe_id}: non-transfer signal {sig!r} never said"
        assert sig.lower() in other_domain_prefs, (
            f"{probe.probe_id}: non-transfer {sig!r} is not a domain-specific preference of another domain"
        )
    for sig in probe.wrong_personalization_signals:
        assert sig.lower() not in question, f"{probe.probe_id}: wrong signal {sig!r} is in the question"
    # a phrase cannot be both required and forbidden
    wanted = {s.lower() for s in probe.expected_transfer_signals} | {
        u.new.lower() for u in probe.expected_update_wins
    }
    unwanted = (
        {s.lower() for s in probe.expected_non_transfer_signals}
        | {s.lower() for s in probe.expected_stale_suppression}
        | {s.lower() for s in probe.wrong_personalization_signals}
        | {u.old.lower() for u in probe.expected_update_wins}
    )
    assert not wanted & unwanted, f"{probe.probe_id}: {wanted & unwanted} both expected and forbidden"


@pytest.mark.parametrize("stem", STEMS)
def test_probe_signals_are_literal_and_consistent(stem: str) -> None:
    persona, scenario = _pair(stem)
    for probe in scenario.probes:
        assert probe.probe_id.startswith(stem[:3] + "_"), (
            f"{probe.probe_id}: id should start with {stem[:3]}_"
        )
        _check_probe(probe, persona, scenario)
    ids = [p.probe_id for p in scenario.probes]
    assert len(set(ids)) == len(ids), "duplicate probe ids"
    layers = {p.layer for p in scenario.probes}
    assert len(layers) >= 2, f"probes use only {layers}"
    if persona.lifecycle == "long":
        assert {"update", "stale"} <= {p.evaluation_setting for p in scenario.probes}


def test_part_a_covers_the_matrix() -> None:
    personas, scenarios = [], []
    for stem in STEMS:
        persona, scenario = _pair(stem)
        personas.append(persona)
        scenarios.append(scenario)
    probes = [p for s in scenarios for p in s.probes]
    assert {p.layer for p in probes} == {"retrieval", "personalization", "governance"}
    assert {p.evaluation_setting for p in probes} == {
        "in_domain",
        "cross_domain",
        "update",
        "stale",
        "governance",
    }
    assert len({p.task_family for p in probes}) >= 9
    assert len({p.name for p in personas}) == len(personas), "duplicate names"
    assert len({p.profession.lower() for p in personas}) == len(personas), "duplicate professions"
    assert len({p.locale for p in personas}) >= 15, "too few locales"
    with_feedback = sum(1 for s in scenarios if s.feedback)
    assert len(scenarios) // 5 <= with_feedback <= len(scenarios) // 2 + 1, (
        f"{with_feedback} scenarios with feedback"
    )
    signals = {fs.signal for s in scenarios for fs in s.feedback}
    assert {"confirm", "correct"} <= signals
    domains = Counter(d for p in personas for d in p.domains)
    assert set(domains) == ALLOWED_DOMAINS, f"unused domains: {ALLOWED_DOMAINS - set(domains)}"
