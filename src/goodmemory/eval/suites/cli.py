"""Command line of the external suites (``scripts/run_eval.py --suite user-memory|locomo``).

User-memory suite::

    --suite user-memory [--test-cases-dir PATH] [--gold PATH] [--category layer1|layer2|layer3] [--list]
        [--mode compare|batch|interactive|demo] [--metric keyword-recall|llm-judge] [--budget 500]
        [--responses FILE] [--systems goodmemory,no_memory,...] [--output PATH]

LoCoMo::

    --suite locomo [--data PATH] [--budget 1000] [--budgets 500,1000,2000] [--limit-conversations N]
        [--systems goodmemory,recent_window,bm25_turns,dense_turns] [--output PATH]

Default data paths are ``../shared/data/...`` relative to the repository root.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from . import fmt_score, print_table
from . import user_memory as um
from .baselines import GoodMemorySystem, System, goodmemory_available, make_systems

__all__ = ["build_parser", "main"]

REPO_ROOT = Path(__file__).resolve().parents[4]
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"
DEFAULT_TEST_CASES = SHARED_DATA / "user-memory-evaluation" / "test_cases"
DEFAULT_GOLD = SHARED_DATA / "user-memory-evaluation" / "fixtures" / "gold_facts.json"
DEFAULT_LOCOMO = SHARED_DATA / "locomo" / "locomo10.json"
UM_SYSTEMS = ("goodmemory", "no_memory", "recent_window", "full_context", "bm25_turns", "dense_turns")
LOCOMO_SYSTEMS = ("goodmemory", "recent_window", "bm25_turns", "dense_turns")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="run_eval.py", description="GoodMemory external evaluation suites")
    p.add_argument("--suite", choices=("user-memory", "locomo"), default="user-memory")
    p.add_argument("--output", type=Path, help="write the results as JSON here")
    p.add_argument("--budget", type=int, help="context token budget (user-memory 500, locomo 1000)")
    p.add_argument("--systems", help="comma-separated systems to run (default: all for the suite)")
    p.add_argument(
        "--embedder",
        choices=("minilm", "hashing"),
        default="minilm",
        help="embedder for dense_turns and GoodMemory (hashing: fast, for tests)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    g = p.add_argument_group("user-memory")
    g.add_argument("--test-cases-dir", type=Path, default=None)
    g.add_argument("--gold", type=Path, default=None)
    g.add_argument("--category", choices=um.LAYERS)
    g.add_argument("--list", action="store_true", help="list the test cases and exit")
    g.add_argument("--mode", choices=("compare", "batch", "interactive", "demo"), default="compare")
    g.add_argument(
        "--metric",
        choices=("keyword-recall", "llm-judge"),
        default="keyword-recall",
        help="keyword-recall (offline) or llm-judge (OpenAI-compatible endpoint from OPENAI_BASE_URL)",
    )
    g.add_argument(
        "--model", help="llm-judge: model for the judge and the answerer (default: GOODMEMORY_LLM_MODEL)"
    )
    g.add_argument(
        "--responses", type=Path, help="compare: {system: {test_id: answer}}; batch: {test_id: answer}"
    )
    g = p.add_argument_group("locomo")
    g.add_argument("--data", type=Path, default=None)
    g.add_argument("--budgets", help="comma-separated budgets, e.g. 500,1000,2000 (overrides --budget)")
    g.add_argument("--limit-conversations", type=int, default=None)
    return p


def print_compare(
    summary: Mapping[str, Mapping[str, float | None]],
    *,
    title: str,
    n_cases: Mapping[str, int],
    file: TextIO | None = None,
    caption: str | None = None,
) -> None:
    """Layers as rows, systems as columns, overall (mean over all scored cases) last, then mean tokens."""
    names = list(summary)
    rows = [
        [f"{um.LAYER_TITLES[lay]} (n={n_cases.get(lay, 0)})", *(fmt_score(summary[n][lay]) for n in names)]
        for lay in um.LAYERS
    ]
    rows.append(
        [
            f"Overall (mean of {sum(n_cases.values())} cases)",
            *(fmt_score(summary[n]["overall"]) for n in names),
        ]
    )
    rows.append(["Mean tokens", *(fmt_score(summary[n]["tokens"], 0) for n in names)])
    print_table(title, ["Layer", *names], rows, file=file, caption=caption)


def print_batch(result: Mapping[str, Any], file: TextIO | None = None, *, judge: bool = False) -> None:
    rows = []
    for test_id, r in result["cases"].items():
        if "reward" not in r:
            rows.append([test_id, r.get("layer", "?"), "—", "—", r["status"]])
            continue
        if judge:
            detail = r["error"] or (
                "hallucination veto"
                if r["veto"]
                else " ".join(f"{k.split('_')[-1]}={v}" for k, v in r["grades"].items())
            )
        else:
            detail = "; ".join(r["missing"]) or "—"
        rows.append([test_id, r["layer"], fmt_score(r["reward"]), "yes" if r["passed"] else "no", detail])
    title = (
        "Batch LLM judge (pass: precision, recall, reasoning >= 3 and no veto)"
        if judge
        else "Batch keyword recall (pass: reward >= 0.6)"
    )
    print_table(title, ["Test", "Layer", "Reward", "Pass", "Grades" if judge else "Missing"], rows, file=file)
    means = result["layers"]
    print_table(
        "Per-layer means (overall = mean over all scored cases)",
        ["Layer", "Mean"],
        [[k, fmt_score(v)] for k, v in means.items()],
        file=file,
    )


def list_cases(cases: Sequence[um.TestCase], gold: Mapping[str, Any], file: TextIO | None = None) -> None:
    rows = [
        [
            c.test_id,
            c.category,
            str(len(c.sessions)),
            str(c.n_turns),
            str(len(gold.get(c.test_id, []))),
            c.title,
        ]
        for c in cases
    ]
    print_table(
        f"{len(cases)} test cases",
        ["Test", "Layer", "Sessions", "Turns", "Gold facts", "Title"],
        rows,
        file=file,
    )


def show_case(case: um.TestCase, gold: Mapping[str, Any], out: TextIO) -> None:
    print(f"{case.test_id} [{case.category}] {case.title}", file=out)
    for s in case.sessions:
        print(f"  session {s.session_id} at {s.at}: {len(s.turns)} turns", file=out)
    print(f"  question: {case.user_question}", file=out)
    if case.expected_behavior:
        print(f"  expected: {case.expected_behavior}", file=out)
    facts = gold.get(case.test_id)
    print(
        f"  gold facts: {'; '.join(' | '.join(f) for f in facts) if facts else '(none: not scored)'}",
        file=out,
    )


def interactive(
    cases: Sequence[um.TestCase],
    gold: Mapping[str, Sequence[Sequence[str]]],
    make_goodmemory: Callable[[], System] | None,
    budget: int,
    stdin: TextIO,
    out: TextIO,
) -> int:
    """A small REPL: ``list``, ``show ID``, ``run ID``, ``answer ID TEXT``, ``help``, ``quit``."""
    by_id = {c.test_id: c for c in cases}
    help_text = "commands: list | show ID | run ID | answer ID TEXT | help | quit"
    print(help_text, file=out)
    prompt = stdin.isatty()
    while True:
        if prompt:
            print("> ", end="", file=out, flush=True)
        line = stdin.readline()
        if not line:
            return 0
        cmd, _, rest = line.strip().partition(" ")
        rest = rest.strip()
        if not cmd:
            continue
        if cmd in ("quit", "exit", "q"):
            return 0
        if cmd == "help":
            print(help_text, file=out)
        elif cmd == "list":
            for c in cases:
                print(f"{c.test_id}\t{c.category}\t{c.title}", file=out)
        elif cmd in ("show", "run", "answer"):
            test_id, _, text = rest.partition(" ")
            case = by_id.get(test_id)
            if case is None:
                print(f"unknown test id {test_id!r}; try 'list'", file=out)
            elif cmd == "show":
                show_case(case, gold, out)
            elif cmd == "answer":
                s = um.keyword_recall(text, gold.get(case.test_id))
                print(
                    "no gold facts for this case: not scored"
                    if s is None
                    else f"reward {s.reward:.3f}; found: {s.found}; missing: {s.missing}",
                    file=out,
                )
            elif make_goodmemory is None:
                print("goodmemory is not available (goodmemory.create_good_memory not importable)", file=out)
            else:
                system = make_goodmemory()
                try:
                    ctx = um.case_context(system, case, budget)
                finally:
                    system.close()
                print(ctx.text or "(empty context)", file=out)
                s = um.keyword_recall(ctx.text, gold.get(case.test_id))
                print(
                    f"[{ctx.tokens} tokens] "
                    + (
                        "not scored (no gold facts)"
                        if s is None
                        else f"keyword recall {s.reward:.3f}; missing: {s.missing}"
                    ),
                    file=out,
                )
        else:
            print(f"unknown command {cmd!r}; {help_text}", file=out)


def demo(
    cases: Sequence[um.TestCase],
    gold: Mapping[str, Sequence[Sequence[str]]],
    system: System,
    budget: int,
    out: TextIO,
) -> dict[str, float | None]:
    """Runs GoodMemory on one case per layer (preferring cases with gold) and prints context and score."""
    results: dict[str, float | None] = {}
    for layer in um.LAYERS:
        pool = [c for c in cases if c.category == layer]
        pool.sort(key=lambda c: not gold.get(c.test_id))
        if not pool:
            continue
        case = pool[0]
        print(f"\n=== {um.LAYER_TITLES[layer]}: {case.test_id} — {case.title}", file=out)
        print(f"question: {case.user_question}", file=out)
        ctx = um.case_context(system, case, budget)
        print(f"--- context ({ctx.tokens} tokens, budget {budget}) ---\n{ctx.text or '(empty)'}", file=out)
        s = um.keyword_recall(ctx.text, gold.get(case.test_id))
        results[case.test_id] = None if s is None else s.reward
        print(
            "score: not scored (no gold facts)"
            if s is None
            else f"keyword recall {s.reward:.3f}; found {s.found}; missing {s.missing}",
            file=out,
        )
    system.close()
    return results


def _err(msg: str) -> None:
    print(msg, file=sys.stderr)


def _embedder(kind: str) -> Any:
    from ...embeddings import CachedEmbedder, HashingEmbedder, MiniLMEmbedder

    return CachedEmbedder(HashingEmbedder() if kind == "hashing" else MiniLMEmbedder())


def _system_names(arg: str | None, default: tuple[str, ...]) -> list[str]:
    names = [n.strip() for n in arg.split(",") if n.strip()] if arg else list(default)
    unknown = [n for n in names if n not in UM_SYSTEMS]
    if unknown:
        raise ValueError(f"unknown systems: {', '.join(unknown)} (choose from {', '.join(UM_SYSTEMS)})")
    return names


def _write(path: Path | None, data: Any) -> None:
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        _err(f"wrote {path}")


def _user_memory(args: argparse.Namespace) -> int:
    tc_dir = args.test_cases_dir or DEFAULT_TEST_CASES
    if not tc_dir.is_dir():
        _err(f"test cases directory not found: {tc_dir}; pass --test-cases-dir PATH")
        return 2
    gold_path = args.gold or DEFAULT_GOLD
    if args.gold is None and not gold_path.is_file():
        gold_path = tc_dir.parent / "fixtures" / "gold_facts.json"
    if not gold_path.is_file():
        _err(f"gold facts file not found: {gold_path}; pass --gold PATH")
        return 2
    cases, problems = um.load_test_cases(tc_dir, args.category)
    gold = um.load_gold(gold_path)
    for prob in problems:
        _err(f"invalid test case {prob.path}: {prob.message}")
    budget = args.budget or 500
    if args.list:
        list_cases(cases, gold)
        if problems:
            print(f"{len(problems)} invalid test case file(s) skipped (see stderr)")
        return 0
    if not cases:
        _err("no valid test cases found")
        return 1
    judge = um.LLMJudge(model=args.model) if args.metric == "llm-judge" else None
    try:
        return _run_mode(args, cases, gold, budget, judge)
    finally:
        if judge is not None:
            judge.close()


def _run_mode(
    args: argparse.Namespace,
    cases: list[um.TestCase],
    gold: dict[str, list[list[str]]],
    budget: int,
    judge: um.LLMJudge | None,
) -> int:
    if args.mode == "batch":
        if args.responses is None:
            _err("--mode batch needs --responses FILE with {test_id: answer}")
            return 2
        result = um.batch(cases, gold, um.load_responses(args.responses), judge)
        print_batch(result, judge=judge is not None)
        _write(args.output, result)
        return 0
    if args.mode in ("interactive", "demo"):
        emb = _embedder(args.embedder)
        if args.mode == "interactive":
            factory = (lambda: GoodMemorySystem(embedder=emb)) if goodmemory_available() else None
            return interactive(cases, gold, factory, budget, sys.stdin, sys.stdout)
        if not goodmemory_available():
            _err("--mode demo needs goodmemory.create_good_memory, which is not importable")
            return 2
        demo(cases, gold, GoodMemorySystem(embedder=emb), budget, sys.stdout)
        return 0
    # compare
    names = _system_names(args.systems, UM_SYSTEMS)
    systems = make_systems(names, _embedder(args.embedder), warn=_err)
    responses = um.load_responses(args.responses) if args.responses else None
    summary, _ = um.compare(
        cases,
        gold,
        systems,
        budget,
        responses,
        scorer=(lambda c, a: judge.judge(c, a).reward) if judge is not None else None,
        answerer=judge.answer if judge is not None else None,
        on_case=None if args.no_progress else (lambda s, t: _err(f"  {s}: {t}")),
    )
    scored = [c for c in cases if gold.get(c.test_id)] if judge is None else cases
    n_cases = {lay: sum(1 for c in scored if c.category == lay) for lay in um.LAYERS}
    metric = "keyword recall" if judge is None else "LLM judge reward"
    skipped = "" if judge else f"{len(cases) - len(scored)} case(s) without gold facts skipped; "
    print_compare(
        summary,
        n_cases=n_cases,
        title=f"Memory system comparison ({metric}, 0-1; budget {budget} tokens)",
        caption=(
            f"Overall = mean over all {len(scored)} scored cases (not the mean of layer means); "
            f"{skipped}full_context ignores the budget."
        ),
    )
    _write(args.output, summary)
    return 0


def _locomo(args: argparse.Namespace) -> int:
    from .locomo import load_locomo, print_locomo, run_locomo

    path = args.data or DEFAULT_LOCOMO
    if not path.is_file():
        _err(f"LoCoMo data not found: {path}; pass --data PATH")
        return 2
    budgets = (
        [int(b) for b in args.budgets.split(",") if b.strip()] if args.budgets else [args.budget or 1000]
    )
    conversations = load_locomo(path, args.limit_conversations)
    systems = make_systems(_system_names(args.systems, LOCOMO_SYSTEMS), _embedder(args.embedder), warn=_err)
    _err("category 5 (adversarial) questions are skipped offline: scoring them needs an answering model")
    result = run_locomo(conversations, systems, budgets, progress=not args.no_progress, warn=_err)
    print_locomo(result)
    _write(args.output, result)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return _locomo(args) if args.suite == "locomo" else _user_memory(args)
    except (ValueError, FileNotFoundError) as exc:
        _err(f"error: {exc}")
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
