"""``scripts/run_eval.py`` / ``goodmemory eval``: the persona A/B eval and the external suites.

Exit codes: 0 the run finished and its gate passed (or no gate applies), 1 the gate failed, 2 a usage,
fixture, gate-file or endpoint problem found before the run started, 3 the endpoint failed during a
``--live`` run (the cases judged so far stay in the run directory; ``--summarize`` rebuilds the report).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .calibration import calibrate
from .candidates import DEFAULT_BASELINE, SYSTEMS
from .fixtures import FixtureError, default_fixtures_dir, load_cases
from .gate import GateError, GateLine, check_gate, default_gate_path, load_gate
from .judge import RuleJudge
from .report import load_run, write_report
from .runner import Breaker, CaseResult, LiveFailure, OfflineAnswerer, RunConfig, run_cases
from .summary import summarize

__all__ = ["main"]

SMOKE_PERSONAS = 4
LIVE_CALIBRATION_CASES = 10


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="run_eval.py", description="GoodMemory persona A/B evaluation "
                                 "(and --suite user-memory|locomo for the external suites).")
    ap.add_argument("--smoke", action="store_true", help=f"only the first {SMOKE_PERSONAS} personas")
    ap.add_argument("--candidate", choices=SYSTEMS, default="goodmemory", help="the system under test")
    ap.add_argument("--baseline", choices=SYSTEMS, default=DEFAULT_BASELINE,
                    help=f"the system it is judged against (default {DEFAULT_BASELINE}: the latest session only)")
    ap.add_argument("--systems", default=",".join(SYSTEMS),
                    help="comma-separated systems run side by side (the candidate and baseline always are)")
    ap.add_argument("--live", action="store_true", help="LLM answerer and LLM judge (OPENAI_BASE_URL, OPENAI_API_KEY)")
    ap.add_argument("--fallback", action="store_true",
                    help="live where the endpoint answers, the offline answerer/judge per case where it does not")
    ap.add_argument("--model", default=None, help="answer model for --live")
    ap.add_argument("--judge-model", default=None, help="judge model for --live")
    ap.add_argument("--price-input", type=float, default=0.0, help="USD per million prompt tokens (cost report)")
    ap.add_argument("--price-output", type=float, default=0.0, help="USD per million completion tokens")
    ap.add_argument("--calibration-cases", type=int, default=None,
                    help=f"cases to calibrate the judge on (default: all offline, {LIVE_CALIBRATION_CASES} live)")
    ap.add_argument("--samples", type=int, default=1, help="judge each case N times and report agreement")
    ap.add_argument("--gate", metavar="FILE", help="gate thresholds (default eval/gate.yaml; applied to the full "
                    "and --smoke selections, and to any selection when given)")
    ap.add_argument("--no-gate", action="store_true", help="report only; never fail on the gate")
    ap.add_argument("--summarize", metavar="RUN_DIR", help="rebuild summary.json, failures and report.md of a run")
    ap.add_argument("--rerun-failures", metavar="RUN_DIR", help="rerun only the failures of that run")
    ap.add_argument("--compare", nargs=2, metavar=("RUN_A", "RUN_B"), help="list regressions from A to B")
    ap.add_argument("--out", metavar="DIR", help="run directory (default reports/eval/<run_id>)")
    ap.add_argument("--fixtures", metavar="DIR", help="fixtures directory (default ./fixtures)")
    ap.add_argument("--personas", nargs="*", help="only these persona ids")
    ap.add_argument("--budget", type=int, default=800, help="context max_tokens for every budgeted system")
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


def _gate(summary: dict[str, Any], gate_file: str | None, profile: str | None) -> list[GateLine] | None:
    if profile is None:
        return None
    return check_gate(summary, load_gate(Path(gate_file) if gate_file else default_gate_path(), profile))


def _finish(results: list[CaseResult], run: dict[str, Any], out: Path) -> int:
    summary = summarize(results, meta=run["meta"], calibration=run.get("calibration"), usage=run.get("usage"))
    try:
        gate = _gate(summary, run.get("gate_file"), run.get("gate_profile"))
    except GateError as exc:
        print(f"gate error: {exc}", file=sys.stderr)
        return 2
    report = write_report(results, summary, out, gate)
    _print_summary(summary, report, gate)
    print(out)
    return 1 if gate is not None and not all(g.passed for g in gate) else 0


def _summarize(run_dir: Path) -> int:
    results, run = load_run(run_dir)
    if not results or not run:
        print(f"{run_dir} holds no finished cases/ and run.json to summarize", file=sys.stderr)
        return 2
    return _finish(results, run, run_dir)


def _live_setup(args: argparse.Namespace) -> tuple[Any, Any, dict[str, Any]] | str:
    """(answerer, judge, meters) for --live/--fallback, or the one line saying why not."""
    from ..errors import GoodMemoryError
    from ..llm import LLMClient, LLMConfig
    from .live import LLMAnswerer, Meter, MeteredClient, preflight
    from .llm_judge import LLMJudge

    try:
        answer_cfg = LLMConfig(**({"model": args.model} if args.model else {}))
        judge_cfg = LLMConfig(**({"model": args.judge_model} if args.judge_model else {}))
    except ValueError as exc:
        return f"invalid LLM settings: {exc}"
    problem = preflight(judge_cfg)
    if problem and not args.fallback:
        return f"--live: {problem}"
    if problem:
        print(f"--fallback: {problem}; every case will be judged offline", file=sys.stderr)
    try:
        meters = {"answerer": Meter(answer_cfg.model, args.price_input, args.price_output),
                  "judge": Meter(judge_cfg.model, args.price_input, args.price_output)}
        answerer = LLMAnswerer(MeteredClient(LLMClient(answer_cfg), meters["answerer"]), args.model)
        judge = LLMJudge(MeteredClient(LLMClient(judge_cfg), meters["judge"]), model=args.judge_model,
                         backoff_s=judge_cfg.backoff_s)
    except GoodMemoryError as exc:
        return f"--live: {exc}"
    return answerer, judge, {"meters": meters, "down": bool(problem)}


def _select(args: argparse.Namespace) -> tuple[list[Any], set[str] | None, str | None] | str:
    try:
        cases = load_cases(Path(args.fixtures) if args.fixtures else default_fixtures_dir(), personas=args.personas)
    except FixtureError as exc:
        return f"fixture error: {exc}"
    profile: str | None = "default" if args.personas is None else None
    if args.smoke:
        keep = sorted({c.persona.persona_id for c in cases})[:SMOKE_PERSONAS]
        cases = [c for c in cases if c.persona.persona_id in keep]
        profile = "smoke" if args.personas is None else None
    rerun_only: set[str] | None = None
    if args.rerun_failures:
        fpath = Path(args.rerun_failures) / "failures" / "summary.json"
        if not fpath.exists():
            return f"no failures file at {fpath}"
        rerun_only = {f["case_id"] for f in json.loads(fpath.read_text(encoding="utf-8"))["failures"]}
        personas = {cid.split("__")[0] for cid in rerun_only}
        cases = [c for c in cases if c.persona.persona_id in personas]  # replay whole lives, report the failures
        profile = None
    if args.gate:
        profile = "smoke" if args.smoke else "default"
    if args.no_gate:
        profile = None
    if not cases:
        return "no cases selected"
    return cases, rerun_only, profile


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
    if args.summarize:
        return _summarize(Path(args.summarize))
    if args.compare:
        return _compare(Path(args.compare[0]), Path(args.compare[1]))
    if args.samples < 1 or args.budget < 1:
        print("--samples and --budget must be positive", file=sys.stderr)
        return 2
    names = [n.strip() for n in args.systems.split(",") if n.strip()]
    unknown = [n for n in names if n not in SYSTEMS]
    if unknown:
        print(f"unknown systems {unknown}; choose from {', '.join(SYSTEMS)}", file=sys.stderr)
        return 2
    names = [n for n in SYSTEMS if n in {*names, args.candidate, args.baseline}]
    selected = _select(args)
    if isinstance(selected, str):
        print(selected, file=sys.stderr)
        return 2
    cases, rerun_only, profile = selected
    if profile is not None:
        try:
            load_gate(Path(args.gate) if args.gate else default_gate_path(), profile)
        except GateError as exc:
            print(f"gate error: {exc}", file=sys.stderr)
            return 2
    live = args.live or args.fallback
    meters: dict[str, Any] = {}
    down = False
    answerer: Any = OfflineAnswerer()
    judge: Any = RuleJudge()
    if live:
        setup = _live_setup(args)
        if isinstance(setup, str):
            print(setup, file=sys.stderr)  # before any run directory exists
            return 2
        answerer, judge, extra = setup
        meters, down = extra["meters"], extra["down"]
    mode = "fallback" if args.fallback else ("live" if args.live else ("smoke" if args.smoke else "offline"))
    run_id = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ") + ("-smoke" if args.smoke else "") + (
        f"-{mode}" if live else "") + ("" if args.candidate == "goodmemory" else f"-{args.candidate}")
    out = Path(args.out) if args.out else Path("reports") / "eval" / run_id
    out.mkdir(parents=True, exist_ok=True)
    return _run(args, cases, rerun_only, profile, names, answerer, judge, meters, mode, run_id, out,
                down=down)


def _run(args: argparse.Namespace, cases: list[Any], rerun_only: set[str] | None, profile: str | None,
         names: list[str], answerer: Any, judge: Any, meters: dict[str, Any], mode: str, run_id: str, out: Path,
         *, down: bool) -> int:
    from .. import create_good_memory
    from ..integrations.otel import redact_url
    from .candidates import make_candidates

    storage_url = args.url or f"sqlite:///{out / 'memory.db'}"

    def embedder() -> Any:
        from ..embeddings import CachedEmbedder, default_embedder

        return CachedEmbedder(default_embedder())

    candidates = make_candidates(names, make_memory=lambda clock: create_good_memory(storage_url, clock=clock),
                                 embedder=embedder)
    breaker = Breaker(limit=0 if down else 3)
    if down:
        breaker.opened_at = "preflight"
    progress, finish = _progress(len(cases), enabled=not args.no_progress)
    cfg = RunConfig(out_dir=out, candidates=candidates, candidate=args.candidate, baseline=args.baseline,
                    budget=args.budget, samples=args.samples, answerer=answerer, judge=judge,
                    fallback=args.fallback, breaker=breaker, progress=progress)
    meta = {"run_id": run_id, "mode": mode, "candidate": args.candidate, "baseline": args.baseline,
            "systems": names, "judge": judge.name, "answerer": answerer.name, "budget": args.budget,
            "samples": args.samples, "rerun_of": args.rerun_failures, "storage": redact_url(storage_url)}
    run: dict[str, Any] = {"meta": meta, "gate_file": args.gate, "gate_profile": profile}
    (out / "run.json").write_text(json.dumps(run, indent=2), encoding="utf-8")
    t0 = time.perf_counter()
    try:
        results = run_cases(cases, cfg)
    except LiveFailure as exc:
        print(f"--live stopped: {exc} (rerun with --fallback to judge offline where the endpoint fails; "
              f"`--summarize {out}` reports the cases done)", file=sys.stderr)
        return 3
    finally:
        finish()
    if rerun_only is not None:
        results = [r for r in results if r.case_id in rerun_only]
    limit = args.calibration_cases if args.calibration_cases is not None else (
        LIVE_CALIBRATION_CASES if mode in ("live", "fallback") else None)
    calibration = calibrate(cases, judge if not breaker.open else RuleJudge(), limit=limit)
    calibration["judge"] = judge.name if not breaker.open else "rule-fallback"
    meta["duration_s"] = round(time.perf_counter() - t0, 1)
    run["calibration"] = calibration
    if meters:
        run["usage"] = {k: m.report() for k, m in meters.items()}
        run["usage"]["total_cost_usd"] = round(sum(m.report()["cost_usd"] for m in meters.values()), 6)
        run["usage"]["tokens_estimated"] = True
        run["usage"]["fallback_from"] = breaker.opened_at
        run["usage"]["judge"]["unusable_replies"] = getattr(judge, "unusable_replies", 0)
    (out / "run.json").write_text(json.dumps(run, indent=2), encoding="utf-8")
    return _finish(results, run, out)


def _progress(total: int, *, enabled: bool) -> tuple[Any, Any]:
    state = {"done": 0, "wins": 0}
    if not enabled:
        return None, lambda: None
    try:
        import rich.progress as rp
        from rich.console import Console
    except ImportError:  # plain fallback
        def plain(r: CaseResult) -> None:
            state["done"] += 1
            state["wins"] += r.judge.winner == "goodmemory"
            print(f"[{state['done']}/{total}] wins {state['wins']} {r.case_id}", file=sys.stderr)

        return plain, lambda: None
    prog = rp.Progress(rp.TextColumn("eval"), rp.BarColumn(), rp.TextColumn("{task.completed}/{task.total} cases"),
                       rp.TextColumn("hard-check passes {task.fields[passes]}"), rp.TimeRemainingColumn(),
                       console=Console(stderr=True), transient=False)
    task = prog.add_task("eval", total=total, passes=0)
    prog.start()

    def update(r: CaseResult) -> None:
        state["wins"] += r.assertions.passed
        prog.update(task, advance=1, passes=state["wins"])

    return update, prog.stop


def _print_summary(s: dict[str, Any], report: Path, gate: list[GateLine] | None) -> None:
    h = s.get("headline") or {}
    a = s["assertions"]
    k = a["by_kind"]

    def frac(kind: str) -> str:
        v = k.get(kind)
        return f"{v['passed']}/{v['total']}" if v else "0/0"

    if h.get("strongest_baseline"):
        lo, hi = h["uplift_ci95"]
        print(f"hard checks: {h['candidate']} passes {h['passing_cases']}/{h['cases']} cases ({h['pass_rate']:.1%}); "
              f"strongest baseline {h['strongest_baseline']} {h['strongest_pass_rate']:.1%}; uplift "
              f"{100 * h['uplift']:+.1f} pp (95% CI {100 * lo:+.1f} to {100 * hi:+.1f})")
    print(f"checks {a['passing_checks']}/{a['total_checks']}: transfer {frac('transfer')}, update {frac('update')}, "
          f"stale {frac('stale')}, contamination failures {a['contamination_failures']}, "
          f"provenance {frac('provenance')}")
    print(f"judge ({s.get('judge')}) {s.get('candidate')} vs {s.get('baseline')}: wins {s['wins']}, ties {s['ties']}, "
          f"losses {s['losses']} of {s['cases']} cases; judged by {s.get('judged_by')}")
    for name, v in s["systems"].items():
        vs = v["vs_baseline"]
        print(f"  {name:16s} cases {v['passing_cases']:3d}/{v['total_cases']} ({v['pass_rate']:.1%})  "
              f"update {v['by_kind'].get('update', {}).get('passed', 0)}/{v['by_kind'].get('update', {}).get('total', 0)}  "
              f"contamination failures {v['contamination_failures']:3d}  tokens mean {v['mean_tokens']:.0f} "
              f"total {v['total_tokens']}" + ("" if vs is None else f"  vs baseline W/T/L {vs['wins']}/{vs['ties']}/"
                                               f"{vs['losses']}"))
    fh = s["systems"].get("full-history")
    if fh:
        ref = h.get("candidate") if h.get("candidate") != "full-history" else "goodmemory"
        versus = f" vs {ref} {s['systems'][ref]['total_tokens']}" if ref in s["systems"] else ""
        print(f"full-history token cost: {fh['total_tokens']} context tokens ({fh['mean_tokens']:.0f} per case, max "
              f"{fh['max_tokens']}, no budget){versus}")
    cal = s.get("calibration")
    if cal:
        print(f"calibration ({cal.get('judge')}): correct on {cal['correct']}/{cal['trials']} planted-answer trials")
    if s.get("usage"):
        print(f"usage: cost ${s['usage']['total_cost_usd']:.4f}, judge {s['usage']['judge']['total_tokens']} tokens, "
              f"answerer {s['usage']['answerer']['total_tokens']} tokens (estimated)")
    print(f"blocking failures: {s['blocking_failures']}  report: {report}")
    if gate is not None:
        failed = [g for g in gate if not g.passed]
        print("gate: passed" if not failed else f"gate: FAILED ({len(failed)} of {len(gate)} lines)")
        for g in failed:
            print(f"gate {g.describe()}")
