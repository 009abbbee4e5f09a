"""The CLI never picks a database the user did not name, and never adds its tables to a foreign SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import goodmemory.memory
from goodmemory.cli import app
from goodmemory.testing import FakeEmbedder

runner = CliRunner()


@pytest.fixture(autouse=True)
def _fake(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(goodmemory.memory, "default_embedder", FakeEmbedder)
    monkeypatch.setenv("GOODMEMORY_URL", f"sqlite:///{tmp_path / 'default.db'}")
    monkeypatch.delenv("GOODMEMORY_USER_ID", raising=False)


def _ok_failure(r: Any, code: int) -> None:
    assert r.exit_code == code, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_an_empty_url_is_a_usage_error_not_the_default_database(tmp_path: Path) -> None:
    r = runner.invoke(app, ["--url", "", "--user-id", "u", "add", "I keep bees"])
    _ok_failure(r, 2)
    assert "--url" in r.output
    assert not (tmp_path / "default.db").exists()


def test_a_foreign_sqlite_file_is_left_alone(tmp_path: Path) -> None:
    app_db = tmp_path / "app.db"
    conn = sqlite3.connect(app_db)
    conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    conn.commit()
    conn.close()
    before = app_db.read_bytes()
    r = runner.invoke(app, ["--url", f"sqlite:///{app_db}", "--user-id", "u", "add", "I keep bees"])
    _ok_failure(r, 1)
    assert "not a GoodMemory database" in r.output
    conn = sqlite3.connect(app_db)
    tables = {t for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    conn.close()
    assert tables == {"invoices"} and app_db.read_bytes() == before


def test_a_new_or_empty_file_and_a_goodmemory_file_still_work(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.db'}"
    assert runner.invoke(app, ["--url", url, "--user-id", "u", "add", "I keep bees"]).exit_code == 0
    r = runner.invoke(app, ["--url", url, "--user-id", "u", "-o", "json", "list"])
    assert r.exit_code == 0 and "bees" in r.output
