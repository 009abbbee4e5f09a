"""Tags through the facade, on every adapter: remember(tags=) labels what a call stores; recall, build_context,
list, export and forget select by them (any of the given tags), inside one user's scope."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import SCRIPT, T0  # the scripted life the facade tests use
from goodmemory import GoodMemory, create_good_memory
from goodmemory.aio import AsyncGoodMemory
from goodmemory.errors import InvalidInputError
from goodmemory.testing import FakeEmbedder, FrozenClock


@pytest.fixture(params=["sqlite-file", "in-memory", "postgres"])
def tmem(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GoodMemory]:
    from goodmemory.storage.memory import InMemoryStorage
    from goodmemory.testing import ScriptedExtractor

    storage: Any
    if request.param == "sqlite-file":
        storage = f"sqlite:///{tmp_path / 'gm.db'}"
    elif request.param == "in-memory":
        storage = InMemoryStorage()
    else:
        schema = request.getfixturevalue("pg_schema")
        from goodmemory.storage.postgres import PostgresStorage

        storage = PostgresStorage(str(os.environ["GOODMEMORY_TEST_POSTGRES_URL"]), schema=schema)
    m = create_good_memory(storage, embedder=FakeEmbedder(), extractor=ScriptedExtractor(SCRIPT),
                           clock=FrozenClock(T0))
    yield m
    m.close()
    if request.param == "postgres":
        storage.close()


def _user(content: str) -> dict[str, str]:
    return {"role": "user", "content": content}


@pytest.mark.parametrize("tags", ["work", [""], ["  "], [1], ["x" * 65], [f"t{i}" for i in range(21)], ["a\nb"],
                                  {"not": "a list"}])
def test_bad_tags_are_refused_and_nothing_is_stored(tmem: GoodMemory, tags: Any) -> None:
    with pytest.raises(InvalidInputError, match="tag"):
        tmem.remember([_user("I live in Lisbon.")], user_id="u1", tags=tags)
    assert tmem.list(user_id="u1", include_history=True) == []
    with pytest.raises(InvalidInputError, match="tag"):
        tmem.recall("Lisbon", user_id="u1", tags=tags)


def test_an_empty_filter_is_refused_and_tags_are_normalised(tmem: GoodMemory) -> None:
    for call in (lambda: tmem.recall("x", user_id="u1", tags=[]), lambda: tmem.list(user_id="u1", tags=()),
                 lambda: tmem.forget(user_id="u1", tags=[]), lambda: tmem.build_context("x", user_id="u1", tags=[])):
        with pytest.raises(InvalidInputError, match="selects nothing"):
            call()
    res = tmem.remember([_user("I live in Lisbon.")], user_id="u1", tags=[" trip ", "trip", "Work"])
    assert {tuple(r.tags) for r in res.memories} == {("trip", "Work")}
    assert tmem.remember([_user("ok")], user_id="u1", tags=[]).memories[0].tags == []  # no tags, not a filter


def test_remember_tags_what_it_stores_and_list_selects_any_of_them(tmem: GoodMemory) -> None:
    tagged = tmem.remember([_user("I live in Lisbon.")], user_id="u1", session_id="s1", tags=["trip", "home"])
    plain = tmem.remember([_user("My Honda Civic plate is ABC-1234.")], user_id="u1", session_id="s2")
    assert tagged.memories and all(r.tags == ["trip", "home"] for r in tagged.memories)
    assert {r.kind.value for r in tagged.memories} == {"episode", "profile"}
    assert {r.id for r in tmem.list(user_id="u1", tags=["home"])} == {r.id for r in tagged.memories}
    assert {r.id for r in tmem.list(user_id="u1", tags=["nope", "trip"])} == {r.id for r in tagged.memories}
    assert {r.id for r in tmem.list(user_id="u1")} == {r.id for r in [*tagged.memories, *plain.memories]}
    assert tmem.get(tagged.memories[0].id, user_id="u1").tags == ["trip", "home"]


def test_recall_finds_the_tagged_memory_among_many_untagged_near_duplicates(tmem: GoodMemory) -> None:
    for i in range(40):
        tmem.remember([_user(f"Hotel Lisbon booking hotel Lisbon number {i}")], user_id="u1", session_id=f"d{i}")
    tmem.remember([_user("For the offsite we need a quiet hotel somewhere in Lisbon, near the river")],
                  user_id="u1", session_id="t", tags=["offsite"])
    top = tmem.recall("hotel Lisbon", user_id="u1", limit=3)
    assert all("offsite" not in h.memory.tags for h in top.hits)  # unfiltered, duplicates fill the top 3
    hits = tmem.recall("hotel Lisbon", user_id="u1", limit=3, tags=["offsite"]).hits
    assert hits and all("offsite" in h.memory.tags for h in hits)
    assert any("quiet hotel" in h.memory.text for h in hits)


def test_build_context_is_built_from_tagged_memories_only(tmem: GoodMemory) -> None:
    tmem.remember([_user("I live in Lisbon."), _user("Keep answers short please.")], user_id="u1", session_id="s1")
    work = tmem.remember([_user("My Honda Civic plate is ABC-1234.")], user_id="u1", session_id="s2",
                         tags=["car"])
    ctx = tmem.build_context("where do I live and what is my plate", user_id="u1", tags=["car"])
    assert ctx.items and {i.memory_id for i in ctx.items} <= {r.id for r in work.memories}
    assert "Lisbon" not in ctx.text and "ABC-1234" in ctx.text
    assert "Lisbon" in tmem.build_context("where do I live", user_id="u1").text


def test_export_selects_by_tag_and_import_keeps_tags(tmem: GoodMemory) -> None:
    tmem.remember([_user("I live in Lisbon.")], user_id="u1", session_id="s1", tags=["trip"])
    tmem.remember([_user("I prefer a window seat.")], user_id="u1", session_id="s2")
    part = tmem.export(user_id="u1", tags=["trip"])
    assert part.memories and all(r.tags == ["trip"] for r in part.memories)
    assert len(tmem.export(user_id="u1").memories) > len(part.memories)
    tmem.import_(part, user_id="u9")
    assert sorted(r.text for r in tmem.list(user_id="u9", tags=["trip"], include_history=True)) == \
        sorted(r.text for r in part.memories)
    bad = part.model_dump(mode="json")
    bad["memories"][0]["tags"] = ["x" * 100]
    with pytest.raises(InvalidInputError, match="tag"):
        tmem.import_(bad, user_id="u8")
    assert tmem.list(user_id="u8", include_history=True) == []


def test_forget_by_tag_deletes_only_that_users_tagged_memories(tmem: GoodMemory) -> None:
    mine = tmem.remember([_user("I live in Lisbon.")], user_id="u1", session_id="s1", tags=["proj"])
    keep = tmem.remember([_user("I prefer a window seat.")], user_id="u1", session_id="s2")
    theirs = tmem.remember([_user("I live in Lisbon.")], user_id="u2", session_id="s1", tags=["proj"])
    with pytest.raises(InvalidInputError, match="not both"):
        tmem.forget(mine.memories[0].id, user_id="u1", tags=["proj"])
    with pytest.raises(InvalidInputError, match="all=True"):
        tmem.forget(user_id="u1", tags=["proj"], all=True)
    dry = tmem.forget(user_id="u1", tags=["proj"], dry_run=True)
    assert set(dry.memory_ids) == {r.id for r in mine.memories}
    receipt = tmem.forget(user_id="u1", tags=["proj"])
    assert set(receipt.memory_ids) == {r.id for r in mine.memories}
    assert {r.id for r in tmem.list(user_id="u1", include_history=True)} == {r.id for r in keep.memories}
    assert {r.id for r in tmem.list(user_id="u2", include_history=True, tags=["proj"])} == \
        {r.id for r in theirs.memories}
    assert tmem.recall("Lisbon", user_id="u1", tags=["proj"]).hits == []


def test_a_tagged_call_that_merges_into_a_memory_tags_it(tmem: GoodMemory) -> None:
    first = tmem.remember([_user("I live in Lisbon.")], user_id="u1", session_id="s1")
    again = tmem.remember([_user("I live in Lisbon.")], user_id="u1", session_id="s2", tags=["trip"])
    profile = next(r for r in first.memories if r.kind.value == "profile")
    assert any(d.action.value == "merge" and d.memory_id == profile.id for d in again.decisions)
    assert tmem.get(profile.id, user_id="u1").tags == ["trip"]
    assert profile.id in {r.id for r in tmem.list(user_id="u1", tags=["trip"])}


def test_the_async_facade_passes_tags_through(tmp_path: Path) -> None:
    from goodmemory.testing import ScriptedExtractor

    sync = create_good_memory(f"sqlite:///{tmp_path / 'a.db'}", embedder=FakeEmbedder(),
                              extractor=ScriptedExtractor(SCRIPT), clock=FrozenClock(T0))

    async def main() -> None:
        async with AsyncGoodMemory(sync) as amem:
            res = await amem.remember([_user("I live in Lisbon.")], user_id="u1", tags=["a"])
            await amem.remember([_user("I prefer a window seat.")], user_id="u1")
            assert {r.id for r in await amem.list(user_id="u1", tags=["a"])} == {r.id for r in res.memories}
            assert all("a" in h.memory.tags for h in (await amem.recall("Lisbon", user_id="u1", tags=["a"])).hits)
            ctx = await amem.build_context("where do I live", user_id="u1", tags=["a"])
            assert {i.memory_id for i in ctx.items} <= {r.id for r in res.memories}
            assert [r.id for r in (await amem.export(user_id="u1", tags=["a"])).memories] == \
                [r.id for r in await amem.list(user_id="u1", tags=["a"], include_history=True)]
            assert set((await amem.forget(user_id="u1", tags=["a"])).memory_ids) == {r.id for r in res.memories}

    asyncio.run(main())


def test_consolidating_duplicates_keeps_the_tags_of_both(tmem: GoodMemory) -> None:
    from goodmemory.storage.base import WriteBatch
    from goodmemory.testing.conformance import make_record

    old = make_record("u1", "User's gym is Fit Lisboa.", key="fact.gym", domain="health", minutes=1)
    dup = make_record("u1", "User's gym is Fit Lisboa.", key="fact.gym", domain="sport", minutes=2, tags=["fitness"])
    tmem.storage.write("u1", WriteBatch(inserts=[old, dup]))
    assert tmem.maintain(user_id="u1").consolidated == 1
    assert [r.id for r in tmem.list(user_id="u1", tags=["fitness"])] == [old.id]  # the keeper, tagged now
