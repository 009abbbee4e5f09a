"""``scripts/run_eval.py`` / ``goodmemory eval``: the persona A/B eval and the external suites."""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from .calibration import calibrate
from .fixtures import FixtureError, default_fixtures_dir, load_cases
from .judge import LLMJudge, RuleJudge
from .report import summarize, write_report
from .runner import CaseResult, OfflineAnswerer, RunConfig, run_cases

__all__ = ["main"]

SMOKE_PERSONAS = 4


class LLMAnswerer:
    name = "llm"

    def __init__(self, client: Any, model: str | None) -> None:
        self.client = client
        self.model = model
        self.system = resources.files("goodmemory.eval").joinpath("prompts/answer.md").read_text(encoding="utf-8")

    def answer(self, question: str, context: str | None) -> str:
        system = self.system + ("\n\n" + context if context else "\n\n(No memory of earlier sessions.)")
        return str(self.client.complete([{"role": "system", "content": system},
                                         {"role": "user", "content": question}], model=self.model))


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="run_eval.py", description="GoodMemory persona A/B evaluation "
                                 "(and --suite user-memory|locomo for the external suites).")
    ap.add_argument("--smoke", action="store_true", help=f"only the first {SMOKE_PERSONAS} personas")
    ap.add_argument("--live", action="store_true", help="LLM answerer and LLM judge (OPENAI_BASE_URL, OPENAI_API_KEY)")
    ap.add_argument("--model", default=None, help="answer model for --live")
    ap.add_argument("--judge-model", default=None, help="judge model for --live")
    ap.add_argument("--samples", type=int, default=1, help="judge each case N times and report agreement")
    ap.add_argument("--rerun-failures", metavar="RUN_DIR", help="rerun only the failures of that run")
    ap.add_argument("--compare", nargs=2, metavar=("RUN_A", "RUN_B"), help="list regressions from A to B")
    ap.add_argument("--out", metavar="DIR", help="run directory (default reports/eval/<run_id>)")
    ap.add_argument("--fixtures", metavar="DIR", help="fixtures directory (default ./fixtures)")
    ap.add_argument("--personas", nargs="*", help="only these persona ids")
    ap.add_argument("--budget", type=int, default=800, help="build_context max_tokens (default 800)")
    ap.add_argument("--url", metavar="URL", help="storage for the replayed personas (users eval-<persona>, "
                    "forgotten before each replay; `goodmemory --url URL eval` passes it); default: a fresh "
                    "SQLite file memory.db in the run directory")
    ap.add_argument("--no-progress", action="store_true")
    return ap


def _compare(a: Path, b: Path) -> int:
    def load(run: Path) -> dict[str, dict[str, Any]]:
        return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in (run / "cases").glob("*.json")}

    ca, cb = load(a), load(b)
    if not ca or not cb:
        print(f"no cases found in {a if not ca else b}/cases", file=sys.stderr)
        return 2
    regressions = [cid for cid in sorted(ca.keys() & cb.keys()) if not ca[cid]["failed"] and cb[cid]["failed"]]
    fixed = [cid for cid in sorted(ca.keys() & cb.keys()) if ca[cid]["failed"] and not cb[cid]["failed"]]
    print(f"{len(ca.keys() & cb.keys())} cases in both runs; {len(regressions)} regressions, {len(fixed)} fixed")
    for cid in regressions:
        print(f"REGRESSION {cid}: winner {ca[cid]['judge']['winner']} -> {cb[cid]['judge']['winner']}")
    for cid in fixed:
        print(f"fixed      {cid}")
    return 1 if regressions else 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--suite" in argv:
        i = argv.index("--suite")
        suite = argv[i + 1] if i + 1 < len(argv) else ""
        if suite != "personas":
            if any(a == "--url" or a.startswith("--url=") for a in argv):
                print("--url applies to the persona eval; the --suite runs replay every user into a fresh "
                      "in-memory store", file=sys.stderr)
                return 2
            from .suites.cli import main as suites_main

            return suites_main(argv)
        del argv[i : i + 2]
    args = _parser().parse_args(argv)
    if args.compare:
        return _compare(Path(args.compare[0]), Path(args.compare[1]))
    if args.samples < 1 or args.budget < 1:
        print("--samples and --budget must be positive", file=sys.stderr)
        return 2
    try:
        cases = load_cases(Path(args.fixtures) if args.fixtures else default_fixtures_dir(), personas=args.personas)
    except FixtureError as exc:
        print(f"fixture error: {exc}", file=sys.stderr)
        return 2
    if args.smoke:
        keep = sorted({c.persona.persona_id for c in cases})[:SMOKE_PERSONAS]
        cases = [c for c in cases if c.persona.persona_id in keep]
    if args.rerun_failures:
        fpath = Path(args.rerun_failures) / "failures" / "summary.json"
        if not fpath.exists():
            print(f"no failures file at {fpath}", file=sys.stderr)
            return 2
        wanted = {f["case_id"] for f in json.loads(fpath.read_text(encoding="utf-8"))["failures"]}
        personas = {cid.split("__")[0] for cid in wanted}
        cases = [c for c in cases if c.persona.persona_id in personas]  # replay whole lives, report the failures
        rerun_only = wanted
    else:
        rerun_only = None
    if not cases:
        print("no cases selected", file=sys.stderr)
        return 2
    run_id = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ") + ("-smoke" if args.smoke else "") + (
        "-live" if args.live else "")
    out = Path(args.out) if args.out else Path("reports") / "eval" / run_id
    out.mkdir(parents=True, exist_ok=True)

    from .. import create_good_memory
    from ..integrations.otel import redact_url

    storage_url = args.url or f"sqlite:///{out / 'memory.db'}"

    if args.live:
        from ..llm import LLMClient, LLMConfig

        answer_client = LLMClient(LLMConfig(model=args.model) if args.model else LLMConfig())
        judge_client = LLMClient(LLMConfig(model=args.judge_model) if args.judge_model else LLMConfig())
        answerer: Any = LLMAnswerer(answer_client, args.model)
        judge: Any = LLMJudge(judge_client, model=args.judge_model)
    else:
        answerer, judge = OfflineAnswerer(), RuleJudge()

    progress, finish = _progress(len(cases), enabled=not args.no_progress)
    cfg = RunConfig(out_dir=out, budget=args.budget, samples=args.samples,
                    make_memory=lambda d: create_good_memory(args.url or f"sqlite:///{d / 'memory.db'}"),
                    progress=progress)
    t0 = time.perf_counter()
    try:
        results = run_cases(cases, cfg, answerer, judge)
    finally:
        finish()
    if rerun_only is not None:
        results = [r for r in results if r.case_id in rerun_only]
    calibration = calibrate(cases, judge)
    meta = {"run_id": run_id, "mode": "live" if args.live else ("smoke" if args.smoke else "offline"),
            "judge": judge.name, "answerer": answerer.name, "budget": args.budget, "samples": args.samples,
            "duration_s": round(time.perf_counter() - t0, 1),
            "rerun_of": args.rerun_failures, "storage": redact_url(storage_url)}
    summary = summarize(results, meta=meta, calibration=calibration)
    report = write_report(results, summary, out)
    _print_summary(summary, report)
    print(out)
    return 0


def _progress(total: int, *, enabled: bool) -> tuple[Any, Any]:
    state = {"done": 0, "wins": 0, "t0": time.perf_counter()}
    try:
        import rich.progress as rp
    except ImportError:  # plain fallback
        rp = None  # type: ignore[assignment]
    if not enabled:
        return None, lambda: None
    if rp is None:
        def plain(r: CaseResult) -> None:
            state["done"] += 1
            state["wins"] += r.judge.winner == "goodmemory"
            print(f"[{state['done']}/{total}] wins {state['wins']} {r.case_id}", file=sys.stderr)

        return plain, lambda: None
    from rich.console import Console

    prog = rp.Progress(rp.TextColumn("eval"), rp.BarColumn(), rp.TextColumn("{task.completed}/{task.total} cases"),
                       rp.TextColumn("wins {task.fields[wins]}"), rp.TimeRemainingColumn(),
                       console=Console(stderr=True), transient=False)
    task = prog.add_task("eval", total=total, wins=0)
    prog.start()

    def update(r: CaseResult) -> None:
        state["wins"] += r.judge.winner == "goodmemory"
        prog.update(task, advance=1, wins=state["wins"])

    return update, prog.stop


def _print_summary(s: dict[str, Any], report: Path) -> None:
    a = s["assertions"]
    print(f"cases {s['cases']}  personas {s['personas']}  win rate {s['win_rate']:.1%} "
          f"(wins {s['wins']}, ties {s['ties']}, losses {s['losses']})  time {s['duration_s']} s")
    print("layer uplift: " + ", ".join(f"{k} {v['uplift']:+.2f}" if v["uplift"] is not None else f"{k} n/a"
                                       for k, v in s["layer_uplift"].items()))
    print(f"assertions: cases {a['passing_cases']}/{a['total_cases']}, checks {a['passing_checks']}/{a['total_checks']}, "
          f"contamination failures {a['contamination_failures']}, update failures {a['update_failures']}")
    cal = s["calibration"]
    print(f"calibration: planted wrong answers rejected {cal['rejected']}/{cal['planted']}")
    print(f"blocking failures: {s['blocking_failures']}  report: {report}")


if __name__ == "__main__":
    sys.exit(main())
