"""Several instances and processes on one SQLite file.

- An instance opened on an empty file learns the vector dimension that another instance writes later.
- Writers racing on the same fact of one user, or on one session, lose nothing: a slot conflict is
  retried, every turn is kept exactly once, and no call raises a raw database error.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

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
        with pytest.raises(GoodMemoryError, match="dimension"):
            reader.recall("bees", user_id="u1")
        with pytest.raises(GoodMemoryError, match="dimension"):
            reader.remember([{"role": "user", "content": "I keep ants"}], user_id="u1", session_id="s2")
    finally:
        reader.close()
        writer.close()


WRITER = '''
import json, sys, time
from goodmemory import Candidate, MemoryKind, create_good_memory
from goodmemory.testing import FakeEmbedder

db, w, n, out, modes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]


class CityExtractor:
    """'my home city is <x>' -> profile.home_city = <x>: every writer supersedes the same fact."""

    name = "city"

    def extract(self, messages, ctx):
        out = []
        for m in messages:
            if m.content.startswith("my home city is "):
                city = m.content[len("my home city is "):]
                out.append(Candidate(kind=MemoryKind.PROFILE, key="profile.home_city", value=city,
                                     text=f"User's home city is {city}.", confidence=0.9, is_correction=True,
                                     message_ids=[m.id]))
        return out


mem = create_good_memory(f"sqlite:///{db}", embedder=FakeEmbedder(), extractor=CityExtractor())
results = []
for i in range(n):
    marker = f"w{w}c{i:03d}"
    mode = int(modes[i % len(modes)])
    if mode == 0:  # same fact, same user, every writer
        msgs, session = [{"role": "user", "content": f"my home city is {marker}"}], f"fact-{marker}"
    elif mode == 1:  # same session, every writer
        msgs, session = [{"role": "user", "content": f"turn {marker} in the shared session"}], "shared"
    else:  # same user, a session of its own
        msgs, session = [{"role": "user", "content": f"note {marker}"},
                         {"role": "assistant", "content": f"noted {marker}"}], f"own-{marker}"
    try:
        res = mem.remember(msgs, user_id="u", session_id=session)
        results.append({"marker": marker, "ok": True,
                        "reasons": [d.reason for d in res.decisions if d.action.value == "merge"]})
    except Exception as exc:  # the test reports every failure with its type
        results.append({"marker": marker, "ok": False, "error": f"{type(exc).__module__}.{type(exc).__name__}: {exc}"})
mem.close()
with open(out, "w") as f:
    json.dump(results, f)
'''


def _race(tmp_path: Path, modes: str, writers: int = 4, calls: int = 200) -> list[dict[str, object]]:
    db = tmp_path / "gm.db"
    create_good_memory(f"sqlite:///{db}", embedder=FakeEmbedder(), extractor=NullExtractor()).close()
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[2] / "src"),
                                                         os.environ.get("PYTHONPATH", "")])}
    procs = [subprocess.Popen([sys.executable, str(script), str(db), str(w), str(calls), str(tmp_path / f"{w}.json"), modes],
                              env=env, stderr=subprocess.PIPE, text=True) for w in range(writers)]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err[-2000:]
    results = [r for w in range(writers) for r in json.loads((tmp_path / f"{w}.json").read_text())]
    assert len(results) == writers * calls
    return results


def _mode(marker: str, modes: str) -> int:
    return int(modes[int(marker.split("c")[1]) % len(modes)])


@pytest.mark.parametrize("modes", [pytest.param("0", marks=pytest.mark.slow), pytest.param("1", marks=pytest.mark.slow),
                                   "012"], ids=["same-fact", "same-session", "mixed"])
def test_writers_racing_on_one_file_lose_nothing(tmp_path: Path, modes: str) -> None:
    """4 processes x 200 remember() calls on one file: on one shared fact, in one shared session, or mixed
    (a third each: shared fact, shared session, a session of its own)."""
    writers, calls = 4, 200
    results = _race(tmp_path, modes, writers, calls)
    db = tmp_path / "gm.db"
    failed = [r for r in results if not r["ok"]]
    assert failed == [], f"{len(failed)} calls failed, e.g. {failed[:3]}"
    merged = [r for r in results if r["reasons"]]
    assert merged == [], f"{len(merged)} new turns were reported as already kept, e.g. {merged[:3]}"

    with create_good_memory(f"sqlite:///{db}", embedder=FakeEmbedder(), extractor=NullExtractor()) as mem:
        records = mem.export(user_id="u").memories
        turns = [r for r in records if r.kind.value == "episode" and not r.key.startswith("episode.digest.")]
        keys = Counter(r.key for r in turns)
        assert [k for k, n in keys.items() if n > 1] == []
        seen = Counter()
        for t in turns:
            for token in t.text.split():
                if token.startswith("w") and "c" in token and token[1:].replace("c", "").isdigit():
                    seen[token] += 1
        for r in results:
            want = 2 if _mode(r["marker"], modes) == 2 else 1
            assert seen[r["marker"]] == want, (r["marker"], seen[r["marker"]])
        history = [r for r in records if r.key == "profile.home_city"]
        assert len(history) == sum(_mode(r["marker"], modes) == 0 for r in results)
        assert len([r for r in history if r.status.value == "active"]) == (1 if history else 0)
        # forgetting one writer's turn of the shared session leaves every other writer's turn
        shared = [t for t in turns if t.source.session_id == "shared"]
        if shared:
            mem.forget(shared[0].id, user_id="u")
            left = [r for r in mem.export(user_id="u").memories if r.source.session_id == "shared"
                    and not r.key.startswith("episode.digest.")]
            assert sorted(r.id for r in left) == sorted(t.id for t in shared[1:])
