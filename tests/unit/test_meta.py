"""The typed reading of shared metadata (``_meta.read_meta``): strict (an unreadable value stays unread and is
reported, never guessed), lossless (unknown keys and unreadable values are written back untouched), and
``dump()`` is a fixed point."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from goodmemory._meta import MemoryMeta, read_meta
from goodmemory.lifecycle import expire, expires_at
from goodmemory.models import MemoryKind, MemoryRecord
from goodmemory.verification import assess

NOW = datetime(2026, 3, 1, tzinfo=UTC)
TYPED = frozenset(MemoryMeta.model_fields)


def _record(**metadata: Any) -> MemoryRecord:
    return MemoryRecord(user_id="u", kind=MemoryKind.FACT, key="travel.booking", value="x", text="x",
                        created_at=NOW - timedelta(days=400), metadata=metadata)


# values a lenient parser would read as a moment (a number as a Unix time, a bool as 0/1, ...) or that are not one
UNREADABLE_ENDS = ["soon", "next week", "", "2026-13-01", "05/01/2026", 1700000000, 1.5, True, 0, ["2026-01-05"],
                   {"at": "2026-01-05"}]


@pytest.mark.parametrize("raw", UNREADABLE_ENDS, ids=repr)
def test_an_unreadable_end_stays_unread_and_is_reported(raw: Any) -> None:
    meta = read_meta({"expires_at": raw, "mine": 1})
    assert meta.expires_at is None
    assert meta.unreadable == {"expires_at": raw}
    assert meta.dump() == {"expires_at": raw, "mine": 1}
    r = _record(expires_at=raw)
    assert expires_at(r) is None and expire(r, NOW) is None  # no end, so never expired on a guess


def test_pydantics_own_datetime_parsing_would_guess_what_the_strict_reader_refuses() -> None:
    # why the reader is not a plain ``datetime`` field: this is the guess it must not make
    assert TypeAdapter(datetime).validate_python(1700000000).year == 2023
    assert read_meta({"expires_at": 1700000000}).expires_at is None


@pytest.mark.parametrize(("raw", "moment"), [
    ("2026-01-05", datetime(2026, 1, 5, tzinfo=UTC)),
    ("2026-01-05T10:30:00", datetime(2026, 1, 5, 10, 30, tzinfo=UTC)),  # naive is UTC, as everywhere
    ("2026-01-05T10:30:00+02:00", datetime(2026, 1, 5, 10, 30, tzinfo=timezone(timedelta(hours=2)))),
    ("2026-01-05T10:30Z", datetime(2026, 1, 5, 10, 30, tzinfo=UTC)),
])
def test_an_iso_end_is_read_and_dumped_in_canonical_form(raw: str, moment: datetime) -> None:
    meta = read_meta({"expires_at": raw})
    assert meta.expires_at == moment and meta.expires_at.utcoffset() == moment.utcoffset()
    assert meta.unreadable == {}
    assert meta.dump() == {"expires_at": moment.isoformat()}
    assert expires_at(_record(expires_at=raw)) == moment


@pytest.mark.parametrize("raw", ["2026-01-05T10:00:00", "Jan 5", 20260105, "", "tomorrow"], ids=repr)
def test_an_event_day_is_read_only_as_an_iso_day(raw: Any) -> None:
    meta = read_meta({"date": raw, "family": "booking"})
    assert meta.date is None and meta.unreadable == {"date": raw}
    assert expires_at(_record(date=raw, family="booking")) is None
    assert _passport(raw).marker is None
    assert _passport("2026-02-01").marker == "expired 2026-02-01"  # a readable day is read


def _passport(day: Any) -> Any:
    return assess(MemoryRecord(user_id="u", kind=MemoryKind.FACT, key="passport.expiration", value="x", text="x",
                               created_at=NOW, metadata={"date": day}), NOW)


def test_an_unreadable_value_of_any_typed_key_is_kept_raw_and_the_others_are_still_read() -> None:
    given_ = {"stale": "yes", "seq": True, "density": "high", "line_ids": "m1", "date": "2026-02-01", "x": [1]}
    meta = read_meta(given_)
    assert meta.unreadable == {"stale": "yes", "seq": True, "density": "high", "line_ids": "m1"}
    assert meta.stale is None and meta.seq is None and meta.density is None
    assert meta.date == date(2026, 2, 1)
    assert meta.dump() == given_ and list(meta.dump()) == list(given_)  # the stored order too


_json = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8)
                     | st.floats(allow_nan=False, allow_infinity=False),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                     max_leaves=6)
_moments = st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2100, 1, 1),
                        timezones=st.sampled_from([UTC, timezone(timedelta(hours=-5))]))
_canonical = st.fixed_dictionaries({}, optional={
    "expires_at": _moments.map(lambda d: d.isoformat()),
    "date": st.dates(min_value=date(1990, 1, 1), max_value=date(2100, 1, 1)).map(date.isoformat),
    "stale": st.booleans(), "seq": st.integers(0, 10**6), "turn_hash": st.text(max_size=8),
    "density": st.floats(0, 1), "digest": st.booleans(), "line_ids": st.lists(st.text(max_size=4), max_size=3),
    "denies": st.lists(st.text(max_size=4), max_size=3), "state": st.sampled_from(["open", "closed"]),
    "outdated": st.lists(st.fixed_dictionaries({"key": st.text(max_size=4), "old": st.text(max_size=4)}), max_size=2),
    "family": st.text(max_size=6), "rule": st.text(max_size=6), "replaces": st.text(max_size=6),
})


@settings(max_examples=300, deadline=None)
@given(_canonical, st.dictionaries(st.text(max_size=8).filter(lambda k: k not in TYPED), _json, max_size=4))
def test_canonical_metadata_round_trips_exactly(typed: dict[str, Any], unknown: dict[str, Any]) -> None:
    stored = {**unknown, **typed}
    meta = read_meta(stored)
    assert meta.unreadable == {}
    assert meta.dump() == stored and list(meta.dump()) == list(stored)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(sorted(TYPED)) | st.text(max_size=6), _json | _moments.map(str), max_size=6))
def test_any_metadata_loses_nothing_and_dump_is_a_fixed_point(stored: dict[str, Any]) -> None:
    meta = read_meta(stored)
    out = meta.dump()
    assert set(out) == set(stored)
    for k, v in stored.items():
        if k not in TYPED or k in meta.unreadable:
            assert out[k] == v  # unknown and unreadable values are never rewritten
    again = read_meta(out)
    assert again.dump() == out and again.unreadable == meta.unreadable
