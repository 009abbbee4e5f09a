"""Validation of the eval fixtures p21-p36, p39, p40 (part B of the persona dataset).

Each persona / scenario file is loaded with ``yaml.safe_load`` and validated against the
pydantic schema; on top of the schema, the lifecycle rules of the dataset are checked, and
every checkable signal of a probe is checked to be something the user literally said.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from goodmemory.eval.schema import DOMAINS, Persona, Scenario

pytestmark = pytest.mark.eval

ROOT = Path(__file__).resolve().parents[2]
PERSONA_DIR = ROOT / "fixtures" / "personas"
SCENARIO_DIR = ROOT / "fixtures" / "scenarios"

LIFECYCLE_BY_NN: dict[int, str] = {
    **{n: "medium" for n in range(21, 29)},
    **{n: "medium_complex" for n in range(29, 37)},
    39: "long",
    40: "long",
}

# (min turns, max turns, min sessions, max sessions, min probes, max probes)
RULES: dict[str, tuple[int, int, int, int, int, int]] = {
    "medium": (8, 15, 2, 4, 3, 5),
    "medium_complex": (12, 18, 3, 4, 4, 6),
    "long": (20, 40, 5, 8, 6, 8),
}

ALLOWED_DOMAINS = DOMAINS


def _stem(nn: int) -> str:
    matches = sorted(PERSONA_DIR.glob(f"p{nn:02d}_*.yaml"))
    assert len(matches) == 1, f"expected exactly one persona file for p{nn:02d}, found {matches}"
    return matches[0].stem


def _load(path: Path) -> dict:
    with path.open(encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    assert isinstance(data, dict), f"{path.name}: top level must be a mapping"
    return data


def _pair(nn: int) -> tuple[str, Persona, Scenario]:
    stem = _stem(nn)
    scenario_path = SCENARIO_DIR / f"{stem}.yaml"
    assert scenario_path.exists(), f"missing scenario file {scenario_path.name}"
    persona = Persona.model_validate(_load(PERSONA_DIR / f"{stem}.yaml"))
    scenario = Scenario.model_validate(_load(scenario_path))
    return stem, persona, scenario


def _user_turns(scenario: Scenario) -> list[str]:
    return [t.content.lower() for s in scenario.sessions for t in s.turns if t.role == "user"]


def _said(scenario: Scenario, phrase: str) -> bool:
    needle = phrase.lower()
    return any(needle in text for text in _user_turns(scenario))


NNS = sorted(LIFECYCLE_BY_NN)
IDS = [f"p{nn:02d}" for nn in NNS]


@pytest.mark.parametrize("nn", NNS, ids=IDS)
def test_persona_file_validates(nn: int) -> None:
    stem = _stem(nn)
    persona = Persona.model_validate(_load(PERSONA_DIR / f"{stem}.yaml"))
    assert persona.persona_id == stem, f"{stem}: persona_id must equal the file stem"
    assert persona.lifecycle == LIFECYCLE_BY_NN[nn], f"{stem}: wrong lifecycle"
    assert 2 <= len(persona.domains) <= 4, f"{stem}: domains must be 2-4"
    assert set(persona.domains) <= ALLOWED_DOMAINS, f"{stem}: unknown domain in {persona.domains}"
    assert len(set(persona.domains)) == len(persona.domains), f"{stem}: duplicate domain"
    assert persona.known_relationships and persona.memory_risks and persona.drift_events


@pytest.mark.parametrize("nn", NNS, ids=IDS)
def test_scenario_file_validates(nn: int) -> None:
    stem = _stem(nn)
    scenario = Scenario.model_validate(_load(SCENARIO_DIR / f"{stem}.yaml"))
    assert scenario.persona_id == stem, f"{stem}: scenario persona_id must equal the file stem"


@pytest.mark.parametrize("nn", NNS, ids=IDS)
def test_lifecycle_rules(nn: int) -> None:
    stem, persona, scenario = _pair(nn)
    t_min, t_max, s_min, s_max, p_min, p_max = RULES[persona.lifecycle]
    assert t_min <= scenario.turn_count <= t_max, f"{stem}: {scenario.turn_count} turns"
    assert s_min <= len(scenario.sessions) <= s_max, f"{stem}: {len(scenario.sessions)} sessions"
    assert p_min <= len(scenario.probes) <= p_max, f"{stem}: {len(scenario.probes)} probes"

    session_ids = {s.session_id for s in scenario.sessions}
    for event in persona.drift_events:
        assert event.session_id in session_ids, f"{stem}: drift event in unknown session {event.session_id}"

    settings = {p.evaluation_setting for p in scenario.probes}
    if persona.lifecycle == "medium_complex":
        assert any(p.expected_update_wins for p in scenario.probes), f"{stem}: needs an update probe"
        assert "cross_domain" in settings, f"{stem}: needs a cross-domain probe"
    if persona.lifecycle == "long":
        assert persona.drift_events, f"{stem}: needs a drift event"
        assert any(re.search(r"\bactually\b", t) for t in _user_turns(scenario)), (
            f"{stem}: needs a correction turn"
        )
        assert any(
            p.evaluation_setting == "stale" and p.expected_stale_suppression for p in scenario.probes
        ), f"{stem}: needs a stale probe"
        for event in persona.drift_events:
            assert _said(scenario, event.new), f"{stem}: drift new value {event.new!r} never said"


@pytest.mark.parametrize("nn", NNS, ids=IDS)
def test_sessions_and_turns(nn: int) -> None:
    stem, persona, scenario = _pair(nn)
    for session in scenario.sessions:
        assert session.domain in persona.domains, f"{stem}/{session.session_id}: domain {session.domain}"
        assert session.at.tzinfo is not None, f"{stem}/{session.session_id}: timestamp needs a timezone (Z)"
        assert session.turns[0].role == "user", f"{stem}/{session.session_id}: must open with the user"
        roles = [t.role for t in session.turns]
        assert all(a != b for a, b in zip(roles, roles[1:], strict=False)), (
            f"{stem}/{session.session_id}: roles must alternate"
        )
    assert len({s.domain for s in scenario.sessions}) >= 2, f"{stem}: replay should span at least two domains"


@pytest.mark.parametrize("nn", NNS, ids=IDS)
def test_probe_signals_are_literal_and_consistent(nn: int) -> None:
    stem, persona, scenario = _pair(nn)
    probe_ids = [p.probe_id for p in scenario.probes]
    assert len(set(probe_ids)) == len(probe_ids), f"{stem}: duplicate probe ids"
    for p in scenario.probes:
        where = f"{stem}/{p.probe_id}"
        assert p.at.tzinfo is not None, f"{where}: timestamp needs a timezone (Z)"
        assert p.domain in persona.domains, f"{where}: domain {p.domain} not a persona domain"
        assert set(p.memory_source_domains) <= set(persona.domains), f"{where}: bad memory_source_domains"
        if p.evaluation_setting == "cross_domain":
            assert p.domain not in p.memory_source_domains, f"{where}: cross-domain probe must change domain"
            assert p.expected_transfer_signals, f"{where}: cross-domain probe needs a transfer signal"
        for s in p.expected_transfer_signals:
            assert 1 <= len(s.split()) <= 4, f"{where}: transfer signal {s!r} must be 1-4 words"
            assert _said(scenario, s), f"{where}: transfer signal {s!r} never said by the user"
        for s in p.expected_non_transfer_signals:
            assert _said(scenario, s), f"{where}: non-transfer signal {s!r} never said by the user"
            other = [
                d
                for d, prefs in persona.domain_specific_preferences.items()
                if d != p.domain and any(s.lower() in x.lower() for x in prefs)
            ]
            assert other, f"{where}: non-transfer signal {s!r} is not a preference of another domain"
        for upd in p.expected_update_wins:
            assert _said(scenario, upd.new), f"{where}: update new {upd.new!r} never said"
            assert _said(scenario, upd.old), f"{where}: update old {upd.old!r} never said"
            assert upd.new.lower() not in upd.old.lower() and upd.old.lower() not in upd.new.lower(), where
            turns = _user_turns(scenario)
            first_old = next(i for i, t in enumerate(turns) if upd.old.lower() in t)
            last_new = max(i for i, t in enumerate(turns) if upd.new.lower() in t)
            assert first_old < last_new, f"{where}: the new value must come after the old one"
        for s in p.expected_stale_suppression + p.wrong_personalization_signals:
            assert _said(scenario, s), f"{where}: signal {s!r} never said by the user"
        bad = {
            x.lower()
            for x in p.expected_non_transfer_signals
            + p.expected_stale_suppression
            + p.wrong_personalization_signals
            + [u.old for u in p.expected_update_wins]
        }
        good = {x.lower() for x in p.expected_transfer_signals + [u.new for u in p.expected_update_wins]}
        for g in good:
            for b in bad:
                assert g not in b and b not in g, f"{where}: wanted {g!r} overlaps unwanted {b!r}"
        question = p.question.lower()
        for s in p.expected_transfer_signals + [u.new for u in p.expected_update_wins]:
            assert s.lower() not in question, f"{where}: {s!r} is given away by the question itself"
        for s in (
            p.expected_non_transfer_signals + p.expected_stale_suppression + p.wrong_personalization_signals
        ):
            assert s.lower() not in question, f"{where}: unwanted {s!r} is already in the question"
        if p.evaluation_setting == "update":
            assert p.expected_update_wins, f"{where}: update probe needs expected_update_wins"
        if p.evaluation_setting == "stale":
            assert p.expected_stale_suppression, f"{where}: stale probe needs expected_stale_suppression"


@pytest.mark.parametrize("nn", NNS, ids=IDS)
def test_feedback_matches_a_stated_fact(nn: int) -> None:
    stem, persona, scenario = _pair(nn)
    for fb in scenario.feedback:
        assert _said(scenario, fb.match), f"{stem}: feedback match {fb.match!r} never said"
        if fb.signal == "correct":
            assert fb.correction, f"{stem}: a 'correct' feedback needs a correction"
        if fb.domain is not None:
            assert fb.domain in persona.domains, f"{stem}: feedback domain {fb.domain}"


def test_part_b_set_coverage() -> None:
    pairs = [_pair(nn) for nn in NNS]
    personas = [p for _, p, _ in pairs]
    probes = [pr for _, _, s in pairs for pr in s.probes]
    for attr in ("name", "profession", "locale"):
        values = [getattr(p, attr).lower() for p in personas]
        assert len(set(values)) == len(values), f"two personas share a {attr}"
    assert {p.layer for p in probes} == {"retrieval", "personalization", "governance"}
    assert {p.evaluation_setting for p in probes} == {
        "in_domain",
        "cross_domain",
        "update",
        "stale",
        "governance",
    }
    with_feedback = sum(1 for _, _, s in pairs if s.feedback)
    assert with_feedback >= len(pairs) // 4, f"only {with_feedback} scenarios carry feedback"
    assert {fb.signal for _, _, s in pairs for fb in s.feedback} >= {"confirm", "correct"}
