"""``--tag`` on the CLI: add labels what it stores; recall, context, list, export and forget select by it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import goodmemory.memory
from goodmemory.cli import app
from goodmemory.testing import FakeEmbedder

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setattr(goodmemory.memory, "default_embedder", lambda: FakeEmbedder())
    monkeypatch.delenv("GOODMEMORY_URL", raising=False)
    monkeypatch.delenv("GOODMEMORY_USER_ID", raising=False)
    yield f"sqlite:///{tmp_path / 'cli.db'}"


def gm(db: str, *args: str, user: str = "u1") -> Any:
    r = runner.invoke(app, ["--url", db, "--user-id", user, "-o", "json", *args])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_tags_flow_through_every_command(db: str, tmp_path: Path) -> None:
    tagged = gm(db, "add", "I live in Lisbon and I work as a nurse.", "--tag", "bio", "--tag", "2025")
    gm(db, "add", "My Honda Civic plate is ABC-1234.")
    gm(db, "add", "I live in Lisbon too.", "--tag", "bio", user="u2")
    ids = {m["id"] for m in tagged["memories"]}
    assert ids and all(m["tags"] == ["bio", "2025"] for m in tagged["memories"])
    assert {m["id"] for m in gm(db, "list", "--tag", "bio")} == ids
    assert {m["id"] for m in gm(db, "list", "--tag", "nope", "--tag", "2025")} == ids  # any of them
    assert len(gm(db, "list")) > len(ids)
    hits = gm(db, "recall", "Honda plate Lisbon", "--tag", "bio")["hits"]
    assert hits and {h["memory"]["id"] for h in hits} <= ids
    ctx = gm(db, "context", "what is my plate", "--tag", "bio")
    assert "ABC-1234" not in ctx["text"] and {i["memory_id"] for i in ctx["items"]} <= ids
    out = tmp_path / "bio.json"
    runner.invoke(app, ["--url", db, "--user-id", "u1", "export", "--tag", "bio", "--out", str(out)])
    assert {m["id"] for m in json.loads(out.read_text())["memories"]} == ids
    gone = gm(db, "forget", "--tag", "bio")  # a selector: no --yes needed
    assert set(gone["memory_ids"]) == ids
    assert gm(db, "list", "--tag", "bio") == [] and len(gm(db, "list")) > 0
    assert len(gm(db, "list", "--tag", "bio", user="u2")) > 0  # another user's tagged memories stay


def test_a_bad_tag_is_a_clean_error(db: str) -> None:
    r = runner.invoke(app, ["--url", db, "--user-id", "u1", "add", "hello", "--tag", "x" * 80])
    assert r.exit_code == 1 and "tag" in r.output and "Traceback" not in r.output
