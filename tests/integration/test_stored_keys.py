"""Every key the write path stores for the write corpus (rule extractor, real facade) is an episode key or
belongs to a key family, and multi-value keys keep their slot's family."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from goodmemory import create_good_memory, keys
from goodmemory._key_families import family_of
from goodmemory.models import MemoryKind


def test_every_stored_key_belongs_to_a_family(tmp_path: Path, write_eval: Any) -> None:
    script = write_eval
    lives = script.load_corpus()
    url = f"sqlite:///{tmp_path / 'keys.db'}"
    script.run(lives, progress=False, make_memory=lambda clock: create_good_memory(url, clock=clock))
    mem = create_good_memory(url)
    try:
        stored: list[Any] = [r for life in lives for r in mem.list(user_id=f"w-{life.id}", include_history=True)]
    finally:
        mem.close()
    assert len(stored) > 300
    episodes = [r for r in stored if r.kind == MemoryKind.EPISODE]
    assert episodes and all(r.key.startswith(keys.EPISODE_PREFIX) for r in episodes)
    orphans = sorted({r.key for r in stored if r.kind != MemoryKind.EPISODE and family_of(r.key) is None})
    assert not orphans, f"stored keys without a family: {orphans}"
    multi = [r for r in stored if keys.MULTI_SEP in r.key]
    assert all(family_of(r.key) is family_of(keys.slot_of(r.key)) for r in multi)
