"""Every shared metadata key the write path stores for the write corpus (rule extractor, real facade, SQLite) has
the type ``_meta.MemoryMeta`` declares: nothing the library writes itself is read as unreadable."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from goodmemory import create_good_memory
from goodmemory._meta import MemoryMeta, read_meta


def test_every_stored_metadata_value_reads_as_its_declared_type(tmp_path: Path, write_eval: Any) -> None:
    script = write_eval
    lives = script.load_corpus()
    url = f"sqlite:///{tmp_path / 'meta.db'}"
    script.run(lives, progress=False, make_memory=lambda clock: create_good_memory(url, clock=clock))
    mem = create_good_memory(url)
    try:
        stored: list[Any] = [r for life in lives for r in mem.list(user_id=f"w-{life.id}", include_history=True)]
    finally:
        mem.close()
    assert len(stored) > 300
    typed = {k for r in stored for k in r.metadata if k in MemoryMeta.model_fields}
    assert {"date", "family", "seq", "turn_hash", "density", "rule", "statement"} <= typed  # the check reads them
    bad = {(r.key, k, repr(v)) for r in stored for k, v in read_meta(r.metadata).unreadable.items()}
    assert not bad, f"stored values that do not read as their type: {sorted(bad)[:20]}"
    assert all(read_meta(r.metadata).dump() == r.metadata for r in stored)  # already in the canonical form
