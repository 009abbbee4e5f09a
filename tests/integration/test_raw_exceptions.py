"""Inputs that raised raw Python errors (OverflowError, UnicodeEncodeError, ValueError, OSError with a
traceback in the CLI) now get our exception tree / a clean CLI error, and change nothing."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import goodmemory.memory
from goodmemory import GoodMemoryError, InvalidInputError, create_good_memory
from goodmemory.cli import app
from goodmemory.testing import FakeEmbedder, FrozenClock, NullExtractor

runner = CliRunner()


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[Any]:
    m = create_good_memory(f"sqlite:///{tmp_path / 'gm.db'}", embedder=FakeEmbedder(), extractor=NullExtractor(),
                           clock=FrozenClock())
    m.remember([{"role": "user", "content": "I keep bees"}], user_id="u", session_id="s")
    yield m
    m.close()


@pytest.mark.parametrize("call", [
    lambda m: m.list(user_id="u", limit=2**63),
    lambda m: m.recall("bees", user_id="u", limit=2**63),
    lambda m: m.build_context("bees", user_id="u", max_tokens=2**63),
])
def test_huge_integers_are_invalid_input(mem: Any, call: Any) -> None:
    with pytest.raises(InvalidInputError):
        call(mem)


@pytest.mark.parametrize("field", ["id", "text", "value", "key"])
def test_import_with_a_lone_surrogate_is_invalid_input(mem: Any, field: str) -> None:
    exp = mem.export(user_id="u").model_dump(mode="json")
    rec = dict(exp["memories"][0])
    rec[field] = "ab\udcff" + ("x" * 30 if field == "id" else " more")
    exp["memories"] = [rec]
    before = mem.export(user_id="u").memories
    with pytest.raises(InvalidInputError):
        mem.import_(exp, user_id="v")
    assert mem.export(user_id="v").memories == [] and mem.export(user_id="u").memories == before


def test_a_database_with_a_non_integer_schema_version_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "gm.db"
    create_good_memory(f"sqlite:///{db}", embedder=FakeEmbedder(), extractor=NullExtractor()).close()
    conn = sqlite3.connect(db)
    conn.execute("UPDATE gm_meta SET value = 'five' WHERE name = 'schema_version'")
    conn.commit()
    conn.close()
    with pytest.raises(GoodMemoryError, match="schema_version"):
        create_good_memory(f"sqlite:///{db}", embedder=FakeEmbedder(), extractor=NullExtractor())


@pytest.fixture
def cli_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(goodmemory.memory, "default_embedder", FakeEmbedder)
    monkeypatch.delenv("GOODMEMORY_URL", raising=False)
    monkeypatch.delenv("GOODMEMORY_USER_ID", raising=False)
    return f"sqlite:///{tmp_path / 'cli.db'}"


def _clean_failure(result: Any) -> None:
    assert result.exit_code in (1, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output


def test_cli_export_to_a_missing_directory_is_a_clean_error(cli_db: str, tmp_path: Path) -> None:
    r = runner.invoke(app, ["--url", cli_db, "--user-id", "u", "add", "I keep bees"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["--url", cli_db, "--user-id", "u", "export", "--out", str(tmp_path / "no" / "dir" / "x.json")])
    _clean_failure(r)
    assert "x.json" in r.output


def test_cli_on_a_non_integer_schema_version_is_a_clean_error(cli_db: str, tmp_path: Path) -> None:
    r = runner.invoke(app, ["--url", cli_db, "--user-id", "u", "add", "I keep bees"])
    assert r.exit_code == 0, r.output
    conn = sqlite3.connect(tmp_path / "cli.db")
    conn.execute("UPDATE gm_meta SET value = '2.5' WHERE name = 'schema_version'")
    conn.commit()
    conn.close()
    _clean_failure(runner.invoke(app, ["--url", cli_db, "--user-id", "u", "list"]))


@pytest.mark.parametrize(("field", "value"), [("id", "a" * 300), ("text", "x" * 2_000_000)])
def test_import_refuses_oversized_ids_and_texts(mem: Any, field: str, value: str) -> None:
    exp = mem.export(user_id="u").model_dump(mode="json")
    exp["memories"] = [{**exp["memories"][0], field: value}]
    with pytest.raises(InvalidInputError):
        mem.import_(exp, user_id="u")
    assert all(len(r.id) <= 64 and len(r.text) < 1000 for r in mem.export(user_id="u").memories)
