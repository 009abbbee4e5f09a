"""The ``goodmemory`` command line (typer + rich).

Global options go before or after the command::

    goodmemory --url sqlite:///mem.db --user-id u42 -o json recall "hotel"
    goodmemory recall "hotel" --url sqlite:///mem.db -u u42 -o json

``--url`` defaults to ``GOODMEMORY_URL``, else the SQLite file in the user
data directory (``goodmemory doctor`` prints it); ``--user-id`` defaults to
``GOODMEMORY_USER_ID``. ``postgres://`` and ``postgresql://`` URLs use the psycopg 3 driver. Wherever a
memory id is taken, the short id a context shows (its first 6+ characters) will do. Exit codes: 0 ok, 1 a GoodMemory error (the message on
stderr says what to fix), 2 a usage error.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, cast

import typer
from pydantic import BaseModel

from ._cli_group import GlobalOptionsAnywhere
from ._cli_rows import Tags
from ._cli_rows import date as _date
from ._cli_rows import decision_rows as _decision_rows
from ._cli_rows import record_lines as _record_lines
from ._cli_rows import record_rows as _record_rows
from ._cli_storage import foreign_sqlite, psycopg_url
from ._short_ids import resolve_id
from .errors import GoodMemoryError, MemoryNotFoundError, StorageError
from .memory import GoodMemory, create_good_memory
from .models import HistoryEntry

__all__ = ["app", "main"]

USER_ENV = "GOODMEMORY_USER_ID"
URL_ENV = "GOODMEMORY_URL"

app = typer.Typer(
    cls=GlobalOptionsAnywhere,
    name="goodmemory",
    help="Long-term user memory for LLM agents: remember, recall, cite, correct, forget.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class Output(StrEnum):
    text = "text"
    json = "json"
    table = "table"


@dataclass
class _State:
    url: str | None = None
    user_id: str | None = None
    output: Output = Output.text


def _state(ctx: typer.Context) -> _State:
    obj = ctx.find_root().obj
    return obj if isinstance(obj, _State) else _State()


@app.callback()
def _global(
    ctx: typer.Context,
    url: Annotated[str | None, typer.Option("--url", help="storage URL (default: $GOODMEMORY_URL, else the "
                                            "SQLite file in the user data directory)")] = None,
    user_id: Annotated[str | None, typer.Option("--user-id", "-u", help=f"the user (default: ${USER_ENV})")] = None,
    output: Annotated[Output, typer.Option("--output", "-o", help="output format")] = Output.text,
) -> None:
    if url is not None and not url.strip():
        # an empty --url (e.g. an unset shell variable) must not silently mean the default database
        raise _usage("--url is empty: give a storage URL such as sqlite:///mem.db, or leave --url out")
    ctx.obj = _State(url=psycopg_url(url), user_id=user_id or os.environ.get(USER_ENV) or None, output=output)


# -- plumbing -------------------------------------------------------------
def _err(message: str) -> None:
    typer.echo(message, err=True)


def _usage(message: str) -> typer.Exit:
    _err(f"usage error: {message}")
    return typer.Exit(2)


_HINTS: dict[type[GoodMemoryError], str] = {
    MemoryNotFoundError: "list this user's memory ids with `goodmemory --user-id USER list`",
    StorageError: "check --url / GOODMEMORY_URL, or run `goodmemory doctor`",
}


@contextmanager
def _errors() -> Iterator[None]:
    try:
        yield
    except GoodMemoryError as exc:
        hint = next((h for cls, h in _HINTS.items() if isinstance(exc, cls)), None)
        _err(f"error: {exc}" + (f"\nhint: {hint}" if hint else ""))
        raise typer.Exit(1) from None


@contextmanager
def _memory(ctx: typer.Context) -> Iterator[GoodMemory]:
    st = _state(ctx)
    with _errors():
        from .config import default_storage_url

        url = st.url or psycopg_url(os.environ.get(URL_ENV)) or default_storage_url()
        foreign = foreign_sqlite(url)
        if foreign is not None:
            _err(f"error: {foreign} is a SQLite database but not a GoodMemory database; GoodMemory will not add "
                 "its tables to it\nhint: give --url a new file or an existing GoodMemory database")
            raise typer.Exit(1)
        mem = create_good_memory(url)
        try:
            yield mem
        finally:
            mem.close()


def _user(ctx: typer.Context) -> str:
    uid = _state(ctx).user_id
    if not uid:
        raise _usage(f"this command needs a user: pass --user-id USER, or set {USER_ENV}")
    return uid


def _full_id(mem: GoodMemory, user_id: str, memory_id: str) -> str:
    """``memory_id``, or the one id of this user's memories that starts with it (a context's short id)."""
    return resolve_id(memory_id, lambda: [r.id for r in mem.list(user_id=user_id, include_history=True)])


def _jsonable(obj: Any) -> Any:
    if isinstance(obj, BaseModel):
        return obj.model_dump(mode="json")
    if isinstance(obj, list):
        return [_jsonable(o) for o in obj]
    if isinstance(obj, dict):
        return {k: _jsonable(v) for k, v in obj.items()}
    return obj


def _emit(ctx: typer.Context, obj: Any, *, text: Callable[[], str],
          rows: Callable[[], tuple[list[str], list[list[str]]]] | None = None) -> None:
    """Print ``obj`` in the chosen format: ``text`` renders plain lines, ``rows`` a rich table."""
    fmt = _state(ctx).output
    if fmt == Output.json:
        typer.echo(json.dumps(_jsonable(obj), ensure_ascii=False, indent=2))
    elif fmt == Output.table and rows is not None:
        from rich.console import Console
        from rich.table import Table

        header, body = rows()
        table = Table(show_lines=False)
        for h in header:
            table.add_column(h, overflow="fold")  # ids are copied from here: never elide them
        for r in body:
            table.add_row(*r)
        Console(soft_wrap=False, markup=False, highlight=False).print(table)
    else:
        out = text()
        if out:
            typer.echo(out)


def _load_json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise _usage(f"{what} file {path} does not exist") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _usage(f"{what} file {path} is not valid JSON: {exc}") from None


# -- commands -------------------------------------------------------------
@app.command()
def add(
    ctx: typer.Context,
    message: Annotated[str | None, typer.Argument(help="one message text")] = None,
    file: Annotated[Path | None, typer.Option("--file", "-f", help="a JSON list of {role, content} messages")] = None,
    role: Annotated[str, typer.Option(help="role of MESSAGE")] = "user",
    session_id: Annotated[str | None, typer.Option("--session-id")] = None,
    agent_id: Annotated[str | None, typer.Option("--agent-id")] = None,
    domain: Annotated[str | None, typer.Option("--domain")] = None,
    tag: Tags = None,
) -> None:
    """Remember a message (or the messages of --file); prints each decision and its reason."""
    user_id = _user(ctx)
    if (message is None) == (file is None):
        raise _usage("give either a MESSAGE or --file messages.json (a JSON list of {role, content})")
    if file is not None:
        messages = _load_json(file, "--file")
        if isinstance(messages, dict) and "messages" in messages:
            messages = messages["messages"]
        if not isinstance(messages, list):
            raise _usage("--file must hold a JSON list of {role, content} objects")
    else:
        messages = [{"role": role, "content": message}]
    with _memory(ctx) as mem, _errors():
        res = mem.remember(messages, user_id=user_id, session_id=session_id, agent_id=agent_id, domain=domain,
                           tags=tag)
    rows = _decision_rows(res)

    def text() -> str:
        lines = [f"{a:<9} {i or '-':<6}  {k:<10} {t}  ({why})" for a, i, k, t, why in rows]
        n = res.actions()
        lines.append(f"{n.get('add', 0) + n.get('merge', 0)} stored, {n.get('supersede', 0)} superseded, "
                     f"{n.get('reject', 0)} rejected")
        lines += [f"warning: {w}" for w in res.warnings]
        return "\n".join(lines)

    _emit(ctx, res, text=text, rows=lambda: (["action", "id", "kind", "what", "why"], [list(r) for r in rows]))


@app.command()
def recall(
    ctx: typer.Context,
    query: str,
    domain: Annotated[str | None, typer.Option("--domain")] = None,
    kind: Annotated[list[str] | None, typer.Option("--kind", help="only these kinds (repeatable)")] = None,
    limit: Annotated[int, typer.Option("--limit", "-n")] = 10,
    include_history: Annotated[bool, typer.Option("--include-history")] = False,
    tag: Tags = None,
) -> None:
    """Recall: ranked memories for QUERY, each with why it was found."""
    user_id = _user(ctx)
    with _memory(ctx) as mem, _errors():
        res = mem.recall(query, user_id=user_id, domain=domain, kinds=kind or None, limit=limit,
                         include_history=include_history, tags=tag)
    _emit(ctx, res,
          text=lambda: "\n".join(f"{h.score:.3f}  {h.memory.id}  {h.memory.kind.value:<10} {h.memory.text}"
                                 for h in res.hits) or "no memories found",
          rows=lambda: (["score", "id", "kind", "text", "reasons"],
                        [[f"{h.score:.3f}", h.memory.id, h.memory.kind.value, h.memory.text,
                          "; ".join(h.reasons)] for h in res.hits]))


app.command("search", help="Alias of `recall`.")(recall)


@app.command()
def context(
    ctx: typer.Context,
    query: str,
    domain: Annotated[str | None, typer.Option("--domain")] = None,
    max_tokens: Annotated[int, typer.Option("--max-tokens")] = 800,
    tag: Tags = None,
) -> None:
    """Build the cited, token-budgeted context block for QUERY."""
    user_id = _user(ctx)
    with _memory(ctx) as mem, _errors():
        res = mem.build_context(query, user_id=user_id, domain=domain, max_tokens=max_tokens, tags=tag)
    _emit(ctx, res, text=lambda: res.text,
          rows=lambda: (["id", "section", "kind", "tokens", "text"],
                        [[i.memory_id, i.section, i.kind.value, str(i.tokens), i.text] for i in res.items]))


@app.command("list")
def list_(
    ctx: typer.Context,
    kind: Annotated[list[str] | None, typer.Option("--kind", help="only these kinds (repeatable)")] = None,
    domain: Annotated[str | None, typer.Option("--domain")] = None,
    include_history: Annotated[bool, typer.Option("--include-history")] = False,
    limit: Annotated[int | None, typer.Option("--limit", "-n")] = None,
    tag: Tags = None,
) -> None:
    """List the user's memories (active ones unless --include-history)."""
    user_id = _user(ctx)
    with _memory(ctx) as mem, _errors():
        recs = mem.list(user_id=user_id, kinds=kind or None, domain=domain, include_history=include_history,
                        limit=limit, tags=tag)
    _emit(ctx, recs, text=lambda: _record_lines(recs) or "no memories", rows=lambda: _record_rows(recs))


@app.command()
def get(ctx: typer.Context, memory_id: str) -> None:
    """Show one memory with its provenance."""
    user_id = _user(ctx)
    with _memory(ctx) as mem, _errors():
        rec = mem.get(_full_id(mem, user_id, memory_id), user_id=user_id)
    _emit(ctx, rec, text=lambda: json.dumps(rec.model_dump(mode="json"), ensure_ascii=False, indent=2),
          rows=lambda: (["field", "value"], [[k, json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v]
                                             for k, v in rec.model_dump(mode="json").items()]))


@app.command()
def history(ctx: typer.Context, memory_id: str) -> None:
    """The supersede chain of a memory's slot, oldest first."""
    user_id = _user(ctx)
    with _memory(ctx) as mem, _errors():
        # cast: inside GoodMemory, ``list[...]`` in annotations resolves to its list() method for mypy
        entries = cast("list[HistoryEntry]", mem.history(_full_id(mem, user_id, memory_id), user_id=user_id))
    _emit(ctx, entries,
          text=lambda: "\n".join(f"{_date(e.valid_from):<10} -> {_date(e.valid_to) or 'now':<10} "
                                 f"{e.memory.status.value:<10} {e.memory.id}  {e.memory.text}" for e in entries),
          rows=lambda: (["valid from", "valid to", "status", "id", "value"],
                        [[_date(e.valid_from), _date(e.valid_to), e.memory.status.value, e.memory.id,
                          str(e.memory.value)] for e in entries]))


@app.command()
def feedback(
    ctx: typer.Context,
    memory_id: str,
    signal: Annotated[str, typer.Argument(help="confirm | reject | correct | helpful | not_helpful")],
    correction: Annotated[str | None, typer.Option("--correction", help="the right statement (for 'correct')")] = None,
    note: Annotated[str | None, typer.Option("--note")] = None,
) -> None:
    """Confirm, reject, correct or rate a memory."""
    user_id = _user(ctx)
    with _memory(ctx) as mem, _errors():
        res = mem.feedback(_full_id(mem, user_id, memory_id), signal, user_id=user_id, correction=correction,
                           note=note)
    _emit(ctx, res, text=lambda: f"{res.signal.value}: {res.memory_id}"
          + (f" -> {res.new_memory_id}" if res.new_memory_id else "")
          + (f"  {json.dumps(res.changed, ensure_ascii=False, default=str)}" if res.changed else ""))


@app.command()
def forget(
    ctx: typer.Context,
    memory_id: Annotated[str | None, typer.Argument(help="one memory (with its history and source turns)")] = None,
    key: Annotated[str | None, typer.Option("--key", help="a slot, e.g. profile.home_city")] = None,
    session_id: Annotated[str | None, typer.Option("--session-id")] = None,
    domain: Annotated[str | None, typer.Option("--domain")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="show what would be deleted")] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="needed to forget everything of the user")] = False,
    tag: Tags = None,
) -> None:
    """Hard-delete memories; prints counts per index. With no selector: everything of the user (needs --yes)."""
    user_id = _user(ctx)
    everything = memory_id is None and key is None and session_id is None and domain is None and not tag
    if everything and not dry_run and not yes:
        raise _usage(f"this deletes every memory of {user_id!r}; add --yes (or --dry-run to preview)")
    with _memory(ctx) as mem, _errors():
        if memory_id is not None:
            memory_id = _full_id(mem, user_id, memory_id)
        res = mem.forget(memory_id, user_id=user_id, key=key, session_id=session_id, domain=domain, dry_run=dry_run,
                         all=everything, tags=tag or None)

    def text() -> str:
        head = "would delete" if res.dry_run else "deleted"
        counts = ", ".join(f"{k}={v}" for k, v in res.deleted.items())
        return f"{head} {counts}" + "".join(f"\n  {m}" for m in res.memory_ids)

    _emit(ctx, res, text=text, rows=lambda: (["index", "count"], [[k, str(v)] for k, v in res.deleted.items()]))


@app.command()
def export(
    ctx: typer.Context,
    out: Annotated[Path | None, typer.Option("--out", help="write to this file instead of stdout")] = None,
    tag: Tags = None,
) -> None:
    """Export every memory of the user (with --tag: those with any of the tags), with history and provenance."""
    user_id = _user(ctx)
    with _memory(ctx) as mem, _errors():
        data = mem.export(user_id=user_id, tags=tag)
    payload = data.model_dump_json(indent=2)
    if out is not None:
        try:
            out.write_text(payload, encoding="utf-8")
        except OSError as exc:
            _err(f"error: cannot write the export to {out}: {exc.strerror or exc}\n"
                 "hint: give --out a file in an existing, writable directory")
            raise typer.Exit(1) from None
        if _state(ctx).output == Output.json:
            typer.echo(json.dumps({"path": str(out), "memories": len(data.memories)}))
        else:
            typer.echo(f"wrote {len(data.memories)} memories to {out}")
    else:
        typer.echo(payload)


@app.command("import")
def import_(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="a file written by `goodmemory export`")],
) -> None:
    """Restore an export (into --user-id if given, else the exported user)."""
    data = _load_json(file, "export")
    with _memory(ctx) as mem, _errors():
        res = mem.import_(data, user_id=_state(ctx).user_id)
    _emit(ctx, res, text=lambda: f"imported {len(res.memories)} memories")


_PASSTHROUGH = {"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []}


@app.command("eval", context_settings=_PASSTHROUGH, add_help_option=False)
def eval_(ctx: typer.Context) -> None:
    """Run the persona evaluation; every argument goes to scripts/run_eval.py (try `eval --help`).

    The global --url is passed on as the eval's --url (the store the personas are replayed into)."""
    from .eval import cli as eval_cli

    args = list(ctx.args)
    url = _state(ctx).url
    if url:
        own = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "--url"]
        own += [a.removeprefix("--url=") for a in args if a.startswith("--url=")]
        if any(u != url for u in own):
            raise _usage("the global --url and the eval's --url differ: give one of them")
        if not own:
            args = ["--url", url, *args]
    with _errors():
        code = eval_cli.main(args)
    raise typer.Exit(int(code or 0))


def _find_script(name: str) -> Path | None:
    here = Path(__file__).resolve()
    roots = [Path.cwd(), *Path.cwd().parents, here.parents[2]]
    for root in roots:
        candidate = root / "scripts" / name
        if candidate.is_file():
            return candidate
    return None


@app.command(context_settings=_PASSTHROUGH, add_help_option=False)
def bench(ctx: typer.Context) -> None:
    """Run scripts/bench.py from a GoodMemory checkout; arguments are passed through."""
    script = _find_script("bench.py")
    if script is None:
        _err("error: scripts/bench.py not found: `goodmemory bench` runs from a clone of the GoodMemory "
             "repository (run it inside the checkout)")
        raise typer.Exit(1)
    env = dict(os.environ)
    if _state(ctx).url:
        env["GOODMEMORY_URL"] = str(_state(ctx).url)
    proc = subprocess.run([sys.executable, str(script), *ctx.args], env=env, check=False)
    raise typer.Exit(proc.returncode)


@app.command()
def maintain(ctx: typer.Context) -> None:
    """Decay, staleness marking, duplicate consolidation, expiry (for --user-id, or every user)."""
    with _memory(ctx) as mem, _errors():
        rep = mem.maintain(user_id=_state(ctx).user_id)
    _emit(ctx, rep, text=lambda: json.dumps(rep.model_dump(mode="json"), indent=2))


@app.command()
def doctor(ctx: typer.Context) -> None:
    """Check the installation: storage URL and schema, embedding model, tokenizer, optional extras."""
    from ._doctor import run_checks

    checks = run_checks(_state(ctx).url)
    ok = all(c[1] for c in checks)
    _emit(ctx, {"ok": ok, "checks": [{"check": n, "ok": o, "detail": d} for n, o, d in checks]},
          text=lambda: "\n".join(f"{'ok ' if o else 'FAIL'} {n:<22} {d}" for n, o, d in checks),
          rows=lambda: (["check", "ok", "detail"], [[n, "yes" if o else "NO", d] for n, o, d in checks]))
    if not ok:
        raise typer.Exit(1)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``goodmemory`` command."""
    app(args=argv, prog_name="goodmemory")


if __name__ == "__main__":  # pragma: no cover
    main()
