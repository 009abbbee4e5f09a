"""The ``goodmemory`` command line, through typer's CliRunner and its real entry point (``main(argv)``, and
subprocesses) against a temporary SQLite file.

The storage and the packaged embedding model are the real defaults; the model is loaded once and
shared by the invocations (each command opens its own GoodMemory, as separate processes would).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import goodmemory.memory
from goodmemory import create_good_memory
from goodmemory.cli import app, main
from goodmemory.embeddings import default_embedder
from goodmemory.storage.base import WriteBatch

runner = CliRunner()


@pytest.fixture(scope="module")
def shared_embedder() -> Any:
    return default_embedder()


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared_embedder: Any) -> Iterator[str]:
    monkeypatch.setattr(goodmemory.memory, "default_embedder", lambda: shared_embedder)
    monkeypatch.delenv("GOODMEMORY_URL", raising=False)
    monkeypatch.delenv("GOODMEMORY_USER_ID", raising=False)
    yield f"sqlite:///{tmp_path / 'cli.db'}"


def gm(db: str, *args: str, user: str | None = "u1", fmt: str | None = None) -> Any:
    base = ["--url", db]
    if user:
        base += ["--user-id", user]
    if fmt:
        base += ["-o", fmt]
    return runner.invoke(app, [*base, *args])


def js(result: Any) -> Any:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_full_lifecycle(db: str, tmp_path: Path) -> None:
    r = gm(db, "add", "I'm Ana, I work as a nurse and I live in Lisbon.", "--session-id", "s1")
    assert r.exit_code == 0, r.output
    assert "new slot" in r.stdout or "add" in r.stdout

    msgs = tmp_path / "msgs.json"
    msgs.write_text(json.dumps([{"role": "user", "content": "Please keep answers short."},
                                {"role": "assistant", "content": "Sure."}]))
    added = js(gm(db, "add", "--file", str(msgs), "--session-id", "s2", fmt="json"))
    assert {d["action"] for d in added["decisions"]} >= {"ADD"} or added["decisions"]

    hits = js(gm(db, "search", "where does she live", fmt="json"))["hits"]
    assert any("Lisbon" in h["memory"]["text"] for h in hits)
    city = next(h["memory"] for h in hits if h["memory"]["kind"] == "profile" and "Lisbon" in h["memory"]["text"])

    ctx = gm(db, "context", "Book me a hotel near home", "--max-tokens", "300")
    assert ctx.exit_code == 0 and "<memory-context>" in ctx.stdout and "Lisbon" in ctx.stdout
    ctx_json = js(gm(db, "context", "Book me a hotel near home", fmt="json"))
    assert ctx_json["tokens"] <= 800 and ctx_json["items"]

    table = gm(db, "list", fmt="table")
    assert table.exit_code == 0 and "kind" in table.stdout
    listed = js(gm(db, "list", fmt="json"))
    assert any(r["id"] == city["id"] for r in listed)
    assert js(gm(db, "get", city["id"], fmt="json"))["value"] == city["value"]

    fb = js(gm(db, "feedback", city["id"], "correct", "--correction", "I live in Porto now.", fmt="json"))
    assert fb["new_memory_id"]
    hist = js(gm(db, "history", fb["new_memory_id"], fmt="json"))
    assert [h["memory"]["status"] for h in hist] == ["superseded", "active"]
    assert "Porto" in hist[-1]["memory"]["text"]

    export_file = tmp_path / "export.json"
    out = gm(db, "export", "--out", str(export_file))
    assert out.exit_code == 0 and export_file.exists()
    exported = json.loads(export_file.read_text())
    assert exported["user_id"] == "u1" and len(exported["memories"]) >= 4
    assert json.loads(gm(db, "export").stdout)["user_id"] == "u1"

    dry = js(gm(db, "forget", fb["new_memory_id"], "--dry-run", fmt="json"))
    assert dry["dry_run"] is True and fb["new_memory_id"] in dry["memory_ids"]
    assert any(r["id"] == fb["new_memory_id"] for r in js(gm(db, "list", fmt="json")))  # nothing deleted yet
    gone = js(gm(db, "forget", fb["new_memory_id"], fmt="json"))
    assert gone["deleted"]["rows"] >= 2
    assert not any(r["id"] == fb["new_memory_id"] for r in js(gm(db, "list", "--include-history", fmt="json")))

    # import the export into another user; the restored memories are searchable there
    imp = gm(db, "import", str(export_file), user="u2")
    assert imp.exit_code == 0 and "imported" in imp.stdout
    assert any("Lisbon" in h["memory"]["text"] for h in js(gm(db, "search", "Lisbon", user="u2", fmt="json"))["hits"])

    all_gone = gm(db, "forget", "--yes")
    assert all_gone.exit_code == 0 and "deleted" in all_gone.stdout
    assert js(gm(db, "list", fmt="json")) == []


def test_errors_exit_1_with_a_useful_message(db: str) -> None:
    r = gm(db, "get", "no-such-id")
    assert r.exit_code == 1
    assert "no memory" in r.stderr and "goodmemory --user-id USER list" in r.stderr

    r = gm(db, "feedback", "x", "bogus-signal")
    assert r.exit_code == 1 and "signal" in r.stderr.lower()

    r = gm("postgresql+psycopg://nobody:secret@127.0.0.1:1/none", "list")
    assert r.exit_code == 1 and "error:" in r.stderr

    r = gm("mysql://nope", "list")
    assert r.exit_code == 1 and "sqlite:///path.db" in r.stderr


def test_usage_errors_exit_2(db: str, tmp_path: Path) -> None:
    r = gm(db, "list", user=None)
    assert r.exit_code == 2 and "--user-id" in r.stderr
    r = gm(db, "add")
    assert r.exit_code == 2 and "--file" in r.stderr
    r = gm(db, "add", "--file", str(tmp_path / "missing.json"))
    assert r.exit_code == 2 and "does not exist" in r.stderr
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    r = gm(db, "add", "--file", str(bad))
    assert r.exit_code == 2 and "not valid JSON" in r.stderr
    r = gm(db, "forget")
    assert r.exit_code == 2 and "--yes" in r.stderr
    r = gm(db, "no-such-command")
    assert r.exit_code == 2
    r = gm(db, "list", fmt="yaml")
    assert r.exit_code == 2


def test_user_from_environment(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOODMEMORY_USER_ID", "env-user")
    monkeypatch.setenv("GOODMEMORY_URL", db)
    r = runner.invoke(app, ["add", "I live in Oslo."])
    assert r.exit_code == 0, r.output
    assert any("Oslo" in m["text"] for m in json.loads(runner.invoke(app, ["-o", "json", "list"]).stdout))


def test_doctor(db: str) -> None:
    report = js(gm(db, "doctor", user=None, fmt="json"))
    checks = {c["check"]: c for c in report["checks"]}
    assert report["ok"] is True
    assert checks["storage url"]["detail"].startswith(db)
    assert checks["schema version"]["ok"] and int(checks["schema version"]["detail"]) >= 1
    assert checks["embedding model"]["ok"] and "offline" in checks["embedding model"]["detail"]
    assert checks["tokenizer"]["ok"]
    assert {"extra [mcp]", "extra [openai-agents]", "extra [langgraph]", "extra [otel]"} <= set(checks)
    text = gm(db, "doctor", user=None)
    assert text.exit_code == 0 and "schema version" in text.stdout
    # credentials never printed
    bad = gm("postgresql+psycopg://me:hunter2@127.0.0.1:1/x", "doctor", user=None, fmt="json")
    assert bad.exit_code == 1 and "hunter2" not in bad.stdout


def test_eval_passes_its_arguments_through(db: str) -> None:
    r = gm(db, "eval", "--help", user=None)
    assert r.exit_code == 0 and "--smoke" in r.stdout and "--url" in r.stdout


def test_eval_receives_the_global_url(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import goodmemory.eval.cli as eval_cli

    seen: list[list[str]] = []
    monkeypatch.setattr(eval_cli, "main", lambda argv: seen.append(list(argv)) or 0)
    assert gm(db, "eval", "--smoke", "--personas", "p01", user=None).exit_code == 0
    assert seen[-1] == ["--url", db, "--smoke", "--personas", "p01"]
    # no global --url: the eval keeps its own default (a fresh SQLite file in the run directory)
    assert runner.invoke(app, ["eval", "--smoke"]).exit_code == 0
    assert seen[-1] == ["--smoke"]
    # the same url given twice is fine; two different ones are a usage error
    assert gm(db, "eval", f"--url={db}", user=None).exit_code == 0 and seen[-1] == [f"--url={db}"]
    r = gm(db, "eval", "--url", "sqlite:///other.db", user=None)
    assert r.exit_code == 2 and "--url" in r.stderr and len(seen) == 3


def test_eval_writes_into_the_global_url_storage(db: str, tmp_path: Path) -> None:
    import sqlite3

    out = tmp_path / "run"
    r = gm(db, "eval", "--smoke", "--personas", "p01_mariana_costa", "--out", str(out), "--no-progress", user=None)
    assert r.exit_code == 0, r.output
    assert not (out / "memory.db").exists()  # the default per-run store was not used
    with sqlite3.connect(db.removeprefix("sqlite:///")) as conn:
        users = {u for (u,) in conn.execute("SELECT DISTINCT user_id FROM gm_memories")}
    assert users == {"eval-p01_mariana_costa"}
    summary = json.loads((out / "summary.json").read_text())
    assert summary["storage"] == db


def test_eval_suites_refuse_a_url() -> None:
    from goodmemory.eval.cli import main as eval_main

    assert eval_main(["--suite", "locomo", "--url", "sqlite://"]) == 2


def test_bench_runs_the_repo_script_or_says_why_not(db: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import goodmemory.cli as cli

    monkeypatch.setattr(cli, "_find_script", lambda name: None)
    r = gm(db, "bench", user=None)
    assert r.exit_code == 1 and "scripts/bench.py not found" in r.stderr

    script = tmp_path / "bench.py"
    script.write_text("import sys, os; print('bench', sys.argv[1:], os.environ['GOODMEMORY_URL']); sys.exit(3)")
    monkeypatch.setattr(cli, "_find_script", lambda name: script)
    r = subprocess.run([sys.executable, "-c",
                        f"import goodmemory.cli as c; c._find_script = lambda n: {str(script)!r}; c.main()",
                        "--url", db, "bench", "--quick"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 3 and f"bench ['--quick'] {db}" in r.stdout


def test_finds_the_checkout_bench_script() -> None:
    import goodmemory.cli as cli

    found = cli._find_script("bench.py")
    assert found is not None and found.name == "bench.py"


def test_console_script_is_installed() -> None:
    r = subprocess.run([sys.executable, "-m", "goodmemory.cli", "--help"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "doctor" in r.stdout


# -- through main(argv): options after the command, recall, short ids, add's decisions, PostgreSQL URLs --
def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code: Any = 0
    try:
        main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return int(code or 0), out, err


def ok_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code, out, err = run(capsys, *argv)
    assert code == 0, (argv, out, err)
    return json.loads(out)


def test_options_are_accepted_after_the_command(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    added = ok_json(capsys, "add", "I live in Lisbon.", "--url", db, "--user-id", "u1", "-o", "json")
    assert added["decisions"]
    listed = ok_json(capsys, "list", f"--url={db}", "-u", "u1", "--output=json")
    assert any("Lisbon" in r["text"] for r in listed)
    # before and after mixed; an option of the command that takes a value keeps it
    hits = ok_json(capsys, "--url", db, "recall", "where do I live", "--limit", "3", "-u", "u1", "-ojson")
    assert any("Lisbon" in h["memory"]["text"] for h in hits["hits"])
    # after `--` everything is an argument, even what looks like a global option
    ok_json(capsys, "add", "--url", db, "-u", "u1", "-o", "json", "--", "-o is my favourite letter")
    assert any("-o is my favourite" in r["text"] for r in ok_json(capsys, "list", "--url", db, "-u", "u1", "-o", "json"))
    # the other user sees nothing: -u after the command binds the user like before it
    assert ok_json(capsys, "list", "--url", db, "-u", "u2", "-o", "json") == []


def test_doctor_json_after_the_command_through_the_console_entry(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'doc.db'}"
    env = {k: v for k, v in os.environ.items() if k != "GOODMEMORY_URL"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    r = subprocess.run([sys.executable, "-m", "goodmemory.cli", "doctor", "-o", "json", "--url", db],
                       capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    checks = {c["check"]: c for c in report["checks"]}
    assert report["ok"] is True and checks["storage url"]["detail"].startswith(db)


def test_recall_is_a_command_and_search_its_alias(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "--url", db, "-u", "u1", "add", "I work as a nurse in Lisbon.")
    a = ok_json(capsys, "--url", db, "-u", "u1", "-o", "json", "recall", "what is my job")
    b = ok_json(capsys, "--url", db, "-u", "u1", "-o", "json", "search", "what is my job")
    assert a["hits"] and [h["memory"]["id"] for h in a["hits"]] == [h["memory"]["id"] for h in b["hits"]]
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "recall" in out


def test_short_ids_from_a_context_work_for_get_history_feedback_forget(db: str,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    base = ("--url", db, "-u", "u1")
    run(capsys, *base, "add", "I live in Lisbon and I work as a nurse.")
    run(capsys, "--url", db, "-u", "u2", "add", "I live in Oslo and I work as a welder.")
    code, ctx, _ = run(capsys, *base, "context", "Book me a hotel near home")
    assert code == 0
    short = next(m for m in re.findall(r"\[([0-9a-f]{6,})\b[^\]]*\]\S* \"?[^\n]*Lisbon", ctx))
    assert len(short) == 6, ctx
    rec = ok_json(capsys, *base, "-o", "json", "get", short)
    assert rec["id"].startswith(short) and len(rec["id"]) == 32 and "Lisbon" in rec["text"]
    assert ok_json(capsys, *base, "-o", "json", "history", short)[-1]["memory"]["id"] == rec["id"]
    assert ok_json(capsys, *base, "-o", "json", "feedback", short.upper(), "confirm")["memory_id"] == rec["id"]
    dry = ok_json(capsys, *base, "-o", "json", "forget", short, "--dry-run")
    assert rec["id"] in dry["memory_ids"]

    # another user's short id is unknown here, and nothing of theirs changes
    other = ok_json(capsys, "--url", db, "-u", "u2", "-o", "json", "list")
    their = next(r for r in other if "Oslo" in r["text"])
    for cmd in (("get",), ("forget",), ("feedback",), ("history",)):
        extra = ("confirm",) if cmd == ("feedback",) else ()
        code, _, err = run(capsys, *base, *cmd, their["id"][:6], *extra)
        assert code == 1 and "no memory" in err, (cmd, err)
    assert ok_json(capsys, "--url", db, "-u", "u2", "-o", "json", "list") == other

    code, _, err = run(capsys, *base, "get", short[:4])
    assert code == 1 and "at least 6" in err


def test_an_ambiguous_short_id_is_refused_naming_the_matches(db: str, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    with create_good_memory(db) as mem:
        mem.remember([{"role": "user", "content": "I live in Lisbon and I work as a nurse."}], user_id="u1")
        records = mem.storage.list("u1")
        mem.forget(user_id="u1", all=True)
        assert len(records) >= 2
        # the same records with ids sharing a 6-character prefix, written below the facade (import_ gives a
        # record the user does not hold an id of its own, so it cannot plant ids)
        ids = [f"abcdef{n:026x}" for n in range(len(records))]
        mem.storage.write("u1", WriteBatch(inserts=[r.model_copy(update={"id": i, "supersedes": None,
                                                                          "superseded_by": None})
                                                    for r, i in zip(records, ids, strict=True)]))
        mem.remember([{"role": "user", "content": "I live in Oslo."}], user_id="u2")
    code, _, err = run(capsys, "--url", db, "-u", "u1", "get", "abcdef")
    assert code == 1 and f"matches {len(ids)} memories" in err and "abcdef" + "0" * 26 in err
    rec = ok_json(capsys, "--url", db, "-u", "u1", "-o", "json", "get", "abcdef" + "0" * 25 + "1")
    assert rec["id"] == "abcdef" + "0" * 25 + "1"
    # u2 shares no prefix: to u2 the same prefix names nothing
    code, _, err = run(capsys, "--url", db, "-u", "u2", "get", "abcdef")
    assert code == 1 and "no memory" in err


def test_add_says_what_it_stored_superseded_and_rejected(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    base = ("--url", db, "-u", "u1")
    code, first, _ = run(capsys, *base, "add", "I live in Lisbon.")
    assert code == 0 and "stored" in first and "Lisbon" in first
    code, out, _ = run(capsys, *base, "add", "Actually I moved to Porto.")
    assert code == 0
    line = next(ln for ln in out.splitlines() if ln.startswith("supersede"))
    old = ok_json(capsys, *base, "-o", "json", "list", "--include-history")
    lisbon = next(r for r in old if r["status"] == "superseded" and "Lisbon" in r["text"])
    assert "Porto" in line and lisbon["id"][:6] in line, out
    # a short remark ending on "it"/"that" is dropped by the extractor as leaning on what came before; one
    # that reaches the write decision is rejected there, and add says why
    code, out, _ = run(capsys, *base, "add", "I prefer those.")
    rejected = next(ln for ln in out.splitlines() if ln.startswith("reject"))
    assert "I prefer those" in rejected and "pronoun" in rejected, out
    assert re.search(r"\d+ stored, \d+ superseded, 1 rejected", out), out
    js = ok_json(capsys, *base, "-o", "json", "add", "I prefer those.")
    rej = next(d for d in js["decisions"] if d["action"] == "reject")
    assert "pronoun" in rej["reason"] and "those" in rej["candidate"]["text"]


@pytest.mark.parametrize("scheme", ["postgres", "postgresql"])
def test_postgres_url_spellings_reach_the_psycopg_driver(scheme: str, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    url = f"{scheme}://nobody:s3cret@127.0.0.1:1/none"
    code, _, err = run(capsys, "--url", url, "-u", "u1", "list")
    # refused by the server (nothing listens on port 1), not by the URL parser
    assert code == 1 and "cannot reach PostgreSQL" in err and "unsupported" not in err, err
    assert "s3cret" not in err
    monkeypatch.setenv("GOODMEMORY_URL", url)
    code, _, err = run(capsys, "-u", "u1", "list")
    assert code == 1 and "cannot reach PostgreSQL" in err, err
