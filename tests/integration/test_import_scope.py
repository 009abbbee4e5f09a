"""import_ never tells the caller whether an id exists for another user, refuses oversized or duplicated
records with InvalidInputError, and imports all of an export or none of it (issue 20, item 10)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from goodmemory import InvalidInputError, create_good_memory
from goodmemory.testing import FakeEmbedder, FrozenClock

pytestmark = pytest.mark.integration


@pytest.fixture(params=["sqlite", "memory"])
def mem(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    url = f"sqlite:///{tmp_path / 'gm.db'}" if request.param == "sqlite" else "memory://"
    with create_good_memory(url, embedder=FakeEmbedder(), clock=FrozenClock()) as m:
        m.remember([{"role": "user", "content": "My dog is called Rex."}], user_id="alice", session_id="s")
        yield m


def _as(export: dict[str, Any], user: str, *, ids: list[str] | None = None) -> dict[str, Any]:
    out = {**export, "user_id": user, "memories": [{**r, "user_id": user} for r in export["memories"]]}
    if ids is not None:
        out["memories"] = [{**r, "id": i} for r, i in zip(out["memories"], ids, strict=True)]
    return out


def _outcome(mem: Any, export: dict[str, Any], user: str) -> tuple[str, list[str]]:
    try:
        res = mem.import_(export, user_id=user)
    except Exception as exc:  # the observable answer, whatever it is
        return type(exc).__name__, []
    return "ok", [m.id for m in res.memories]


def test_import_cannot_tell_whether_another_users_id_exists(mem: Any) -> None:
    alice = mem.export(user_id="alice").model_dump(mode="json")
    before = mem.export(user_id="alice").model_dump_json()
    taken = [r["id"] for r in alice["memories"]]
    fresh = [hashlib.sha256(f"fresh{i}".encode()).hexdigest()[:32] for i in range(len(taken))]
    foreign = _outcome(mem, _as(alice, "mallory", ids=taken), "mallory")
    unknown = _outcome(mem, _as(alice, "trudy", ids=fresh), "trudy")
    assert foreign[0] == unknown[0] == "ok"
    # ids are minted the same way for a taken and a free id: from (target user, exported id)
    for (who, exported), got in ((("mallory", taken), foreign[1]), (("trudy", fresh), unknown[1])):
        assert got == [hashlib.sha256(f"{who}\x1f{i}".encode()).hexdigest()[:32] for i in exported]
    assert mem.export(user_id="alice").model_dump_json() == before  # alice's memory untouched
    assert {r.text for r in mem.export(user_id="mallory").memories} == {r["text"] for r in alice["memories"]}


def test_import_into_the_same_user_again_is_a_no_op(mem: Any) -> None:
    exp = mem.export(user_id="alice")
    assert mem.import_(exp).memories == []  # alice holds these ids
    copied = mem.import_(exp, user_id="bob")
    assert copied.memories and all("exported as" in d.reason for d in copied.decisions)
    again = mem.export(user_id="bob")
    assert mem.import_(exp, user_id="bob").memories == []  # derived ids already held
    assert mem.import_(again, user_id="bob").memories == []  # bob's own export, its ids held
    assert len(mem.export(user_id="bob").memories) == len(exp.memories)


@pytest.mark.parametrize(("field", "value"), [("id", "a" * 300), ("text", "x" * 2_000_000), ("key", "k" * 1_000_001)])
def test_an_oversized_record_refuses_the_whole_import(mem: Any, field: str, value: str) -> None:
    exp = mem.export(user_id="alice").model_dump(mode="json")
    good = exp["memories"]
    bad = {**good[0], "id": "b" * 32, field: value}
    with pytest.raises(InvalidInputError, match=r"characters|longer than"):
        mem.import_({**exp, "memories": [*good, bad]}, user_id="carol")
    assert mem.export(user_id="carol").memories == []  # nothing of it, not even the good records


def test_an_export_with_one_id_twice_is_refused_whole(mem: Any) -> None:
    exp = mem.export(user_id="alice").model_dump(mode="json")
    twice = [exp["memories"][0], {**exp["memories"][0], "text": "something else"}]
    with pytest.raises(InvalidInputError, match="twice"):
        mem.import_({**exp, "memories": twice}, user_id="carol")
    assert mem.export(user_id="carol").memories == []
