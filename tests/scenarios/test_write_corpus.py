"""The write-side generalization corpus replayed through the real facade (rule extractor, packaged
embedder): floors at what the extractor and write policy reach, so a regression fails.

The corpus and its split live in fixtures/write_corpus and scripts/run_write_eval.py; the floors
are per half so a gain on the tune half that costs the test half shows up here.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

_SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "run_write_eval.py"
_spec = importlib.util.spec_from_file_location("run_write_eval", _SCRIPT)
assert _spec and _spec.loader
wev: Any = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("run_write_eval", wev)  # dataclasses look their module up
_spec.loader.exec_module(wev)

# (changes superseded %, additions kept %, stable found %, max garbled) per half
FLOORS = {
    # with rare_w51's 59 harder lives: 99/111, 18/18, 115/117; with changes_w57's 48 lives of changes the
    # supersede decision misses (and non-changes beside them): 112/142, 21/23, 125/129; with a value taken on, an
    # onset and a provider's sort as evidence of change (w57): 121/142, 21/23, 125/129; test 28/39, 12/12, 59/63;
    # with a GP and a dentist as sorts: tune 124/142; with "left A for B" dropped from the value: 125/142;
    # with an onset alone, "signed up with" and "I" no longer evidence of a change: 124/142;
    # with changes_w61's 54 lives in phrasings not in the corpus yet (before any change): 143/178, 26/29, 179/185;
    # with w61's fixes (softeners, emergency contact, commute, a child's school, the reporting line, ...): 168/178,
    # 29/29, 182/185 (test unchanged 28/39, 12/12, 59/63);
    # with changes_w63's 55 lives in the eleven types the test half still failed (before any change): 191/221,
    # 32/32, 188/194; with w63's fixes (reply language and units frames, a home told by its consequence, provider
    # moves, weekday + date, another person's flight, journeys to a named place, tone words): 205/221, 32/32,
    # 190/194 (test 30/39, 12/12, 60/63); with a refused format after "skip/drop" and "for me": 206/221;
    # with changes_w64's 84 lives (before any change): 243/276, 36/37, 204/214; with w64's fixes (the value a
    # replacement keeps, a gone pet as subject, colliding additions, a named relative's sentence, refusals and
    # tone frames, ages/birthdays in passing): 258/276, 37/37, 210/214 (test 31/39, 12/12, 61/63);
    # with filler_w66's 32 stable lives under everyday chatter (before any change): 258/276, 37/37, 236/246; with
    # w66's guards (a common word names no value unless alike, weekdays name no slot, colliding word keys): 240/246
    # with echoes_w67's 10 lives (an agent's question repeats a number the answer corrects; written before they ran:
    # 8/10 before the change): 265/282, 37/37, 242/248 (test 32/40, 12/12, 62/64) with the echo rule and "Not
    # really, ..." no longer a correction
    # with closes_w67's 10 task lives (written before they ran: 6/10 before, the 4 closes failing) and the answered
    # and no-longer-needed closes: 10/10; tasks closed tune 5/7 -> 7/7 (test 3/4 unchanged)
    # with an event told by a past-only verb after I/we that no family claims dropped (its turn keeps it): fact
    # precision tune 312/397 -> 311/361, test 52/57 unchanged; changes/additions/stable unchanged
    # with "X poached/headhunted me from Y" a value taken on, Y out of the value kept: changes tune 266/282
    # with changes_w69's 64 lives written blind (48 changes, 8 additions, 8 stable; before any change on them):
    # 299/330, 44/45, 252/260 (w69 alone: changes 31/48, additions 7/8, stable 6/8); with "same kind of X" no hedge,
    # ", not yet" no denial of a value and another person's "new GP" not the user's: stable 254/260
    # with adds_w69's 32 lives written blind (16 additions, 16 stable; before any change on them: 15/16, 15/16):
    # changes 311/330, additions 60/61, stable 269/276
    "tune": (90.0, 97.5, 97.0, 0),
    "test": (79.0, 100.0, 96.5, 0),
}


@pytest.fixture(scope="module")
def results() -> list[dict[str, Any]]:
    return wev.run(wev.load_corpus(), progress=False)


# files of lives written later for the tune half only (ids chosen so that they hash there)
TUNE_ONLY = frozenset(["precision_w52", "sorts_w41", "rare_w51", "extract_w58", "changes_w57", "changes_w61",
                       "changes_w63", "changes_w64", "filler_w66", "changes_w69",
                       "adds_w69"])


def test_split_is_fixed_and_balanced() -> None:
    lives = wev.load_corpus()
    assert len(lives) >= 200 and len({life.attr for life in lives}) >= 40
    halves = [life.half for life in lives if life.source not in TUNE_ONLY]
    assert 0.4 < halves.count("test") / len(halves) < 0.6
    # a later file adds no life to the test half
    assert all(life.half == "tune" for life in lives if life.source in TUNE_ONLY)
    # the hash halves any set of ids
    ids = [wev.split_of(f"life-{i}") for i in range(2000)]
    assert 0.45 < ids.count("test") / len(ids) < 0.55
    assert wev.split_of("home-we-relocated") == "test" and wev.split_of("home-correction-typo") == "tune"


@pytest.mark.parametrize("half", ["tune", "test"])
def test_floors(results: list[dict[str, Any]], half: str) -> None:
    s = wev.summarize([r for r in results if r["half"] == half])
    changes, additions, stable, max_garbled = FLOORS[half]
    assert s["changes_superseded"]["pct"] >= changes, s
    assert s["additions_kept"]["pct"] >= additions, s
    assert s["stable_found"]["pct"] >= stable, s
    assert s["garbled"] <= max_garbled, s


def test_matching_rules() -> None:
    assert wev.holds("User's phone number is 07700-900456.", "07700 900456")
    assert not wev.holds("User's phone number is 07700 900123.", "07700 900456")
    assert wev.holds("User cancelled Streamly.", "cancel")
    assert not wev.holds("User is 57 years old.", "7")
    assert wev.garbled("User works as a now a product manager.")
    assert wev.garbled("User needs to schedule knee surgery with Dr.")
    assert wev.garbled("User lives in Porto.") is None


def test_days_match_their_iso_form() -> None:
    assert wev.holds("User has a dentist appointment on 2025-03-19 at 10:00.", "March 19")
    assert wev.holds("User has a dentist appointment on 2025-03-19.", "19 March")
    assert not wev.holds("User has a dentist appointment on 2025-03-12.", "March 19")
    assert wev.garbled("User's phone number is 0161 496 0732.") is None


def test_cross_pairs_counts_a_value_another_life_replaced() -> None:
    at = wev.datetime(2025, 1, 5, 9, tzinfo=wev.UTC)
    home = wev.Life(id="x-home", attr="home_city", type="stable",
                    sessions=[(at, [{"role": "user", "content": "I live in Corbridge."}])], current=["Corbridge"])
    move = wev.Life(id="x-move", attr="moving", type="change",
                    sessions=[(at, [{"role": "user", "content": "We relocated to Hexham last month."}])],
                    current=["Hexham"])
    pet = wev.Life(id="x-pet", attr="pet", type="stable",
                   sessions=[(at, [{"role": "user", "content": "We have a tabby cat called Miso."}])], current=["Miso"])
    # the two lives are one attribute under two names: each, replayed second, replaces the other's city
    moved = wev.cross_pairs([home, move], 2)
    assert moved["judged"] == 2 and moved["false_supersedes"] == 2
    assert {"a": "x-home", "b": "x-move", "lost": ["Corbridge"]} in moved["lost"]
    assert wev.cross_pairs([home, pet], 2)["false_supersedes"] == 0
