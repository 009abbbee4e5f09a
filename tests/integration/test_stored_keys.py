"""What the write path stores for the write corpus (rule extractor, real facade): every key is an episode key or
belongs to a key family, multi-value keys keep their slot's family, and every shared metadata value has the type
``_meta.MemoryMeta`` declares (nothing the library writes itself reads as unreadable)."""

from __future__ import annotations

from typing import Any

import pytest

from goodmemory import create_good_memory, keys
from goodmemory._key_families import family_of
from goodmemory._meta import MemoryMeta, read_meta
from goodmemory.models import MemoryKind


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory, write_eval: Any) -> list[Any]:
    script = write_eval
    lives = script.load_corpus()
    url = f"sqlite:///{tmp_path_factory.mktemp('stored') / 'keys.db'}"
    script.run(lives, progress=False, make_memory=lambda clock: create_good_memory(url, clock=clock))
    mem = create_good_memory(url)
    try:
        records: list[Any] = [r for life in lives for r in mem.list(user_id=f"w-{life.id}", include_history=True)]
    finally:
        mem.close()
    assert len(records) > 300
    return records


def test_every_stored_key_belongs_to_a_family(stored: list[Any]) -> None:
    episodes = [r for r in stored if r.kind == MemoryKind.EPISODE]
    assert episodes and all(r.key.startswith(keys.EPISODE_PREFIX) for r in episodes)
    orphans = sorted({r.key for r in stored if r.kind != MemoryKind.EPISODE and family_of(r.key) is None})
    assert not orphans, f"stored keys without a family: {orphans}"
    multi = [r for r in stored if keys.MULTI_SEP in r.key]
    assert all(family_of(r.key) is family_of(keys.slot_of(r.key)) for r in multi)


def test_every_stored_metadata_value_reads_as_its_declared_type(stored: list[Any]) -> None:
    typed = {k for r in stored for k in r.metadata if k in MemoryMeta.model_fields}
    assert {"date", "family", "seq", "turn_hash", "density", "rule", "statement"} <= typed  # the check reads them
    bad = {(r.key, k, repr(v)) for r in stored for k, v in read_meta(r.metadata).unreadable.items()}
    assert not bad, f"stored values that do not read as their type: {sorted(bad)[:20]}"
    assert all(read_meta(r.metadata).dump() == r.metadata for r in stored)  # already in the canonical form
