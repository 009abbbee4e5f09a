"""Read-path eval on the unseen sets (fixtures/read_sets): GoodMemory beside the plain baselines, per half.

    OMP_NUM_THREADS=1 PYTHONPATH=src python scripts/run_read_eval.py [--sets preferences,service]
        [--budgets 150,200,500,1000,2000] [--half tune|test|both] [--users N] [--output FILE] [--store-dir DIR]
        [--root DIR]

--store-dir DIR: GoodMemory's stores are SQLite files under DIR/<set>/, written on the first run and re-read
(from a fresh copy) by every later one, so that a read-path A/B compares identical records and ids. Delete DIR
after any change to the write path or the embedder.

Split rule (frozen, goodmemory.eval.suites.read_sets.half): sha256(case id), first byte even -> tune, odd ->
test. Scores are gold recall: the share of a question's gold turns the context cites. full_context always
cites everything; its column is its token cost per question.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from goodmemory.eval.suites.baselines import make_systems
from goodmemory.eval.suites.read_sets import SETS, StoredGoodMemory, load_set, run_read_sets

ROOT = Path(__file__).resolve().parents[1] / "fixtures" / "read_sets"
SYSTEMS = ("recent_window", "bm25_turns", "dense_turns", "full_context", "goodmemory")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sets", default=",".join(SETS))
    p.add_argument("--root", type=Path, default=ROOT,
                   help="folder of the sets: <root>/<set>/cases.json (default: fixtures/read_sets; a private "
                        "held-out set of the same format elsewhere)")
    p.add_argument("--budgets", default="150,200,500,1000,2000")
    p.add_argument("--half", choices=("tune", "test", "both"), default="both")
    p.add_argument("--users", type=int, default=None, help="only the first N users of each set (iterating)")
    p.add_argument("--systems", default=",".join(SYSTEMS))
    p.add_argument("--embedder", choices=("minilm", "hashing"), default="minilm")
    p.add_argument("--output", type=Path)
    p.add_argument("--store-dir", type=Path, help="write GoodMemory's stores once under DIR, re-read them after")
    p.add_argument("--settings", default=None,
                   help='with --store-dir: GoodMemoryConfig fields for the reads, as JSON, e.g. '
                        '\'{"context_settings": {"dense_weight": 0.7}}\'')
    args = p.parse_args(argv)
    from goodmemory.config import GoodMemoryConfig
    from goodmemory.embeddings import CachedEmbedder, HashingEmbedder, MiniLMEmbedder

    if args.settings is not None and args.store_dir is None:
        p.error("--settings needs --store-dir (the stores are written with the default config)")
    read_config = GoodMemoryConfig(**json.loads(args.settings)) if args.settings else None
    embedder = CachedEmbedder(HashingEmbedder() if args.embedder == "hashing" else MiniLMEmbedder())
    budgets = [int(b) for b in args.budgets.split(",")]
    names = [n for n in args.systems.split(",") if n]
    results = {}
    for name in args.sets.split(","):
        users = load_set(args.root / name / "cases.json")[: args.users]
        if args.half != "both":
            for u in users:
                u.cases = [c for c in u.cases if c.half == args.half]
            users = [u for u in users if u.cases]
        systems = make_systems(names, embedder, warn=lambda m: print(m, file=sys.stderr))
        if args.store_dir is not None:
            store = args.store_dir / f"{name}-{args.embedder}"
            systems = [StoredGoodMemory(store, embedder, read_config) if s.name == "goodmemory" else s for s in systems]
        res = run_read_sets(users, systems, budgets, progress=lambda m: print(m, file=sys.stderr, end="\r"))
        for s in systems:
            s.close()
        results[name] = res
        print_result(name, res, [s.name for s in systems], budgets)
    if args.output:
        args.output.write_text(json.dumps(results, indent=1) + "\n")
    return 0


def print_result(name: str, res: dict, systems: list[str], budgets: list[int]) -> None:
    for h, table in res["halves"].items():
        if not table:
            continue
        n = next(iter(next(iter(table.values())).values()))["n"]
        print(f"\n{name} · {h} half ({n} questions) · gold recall (mean tokens used)")
        shown = [s for s in systems if s != "full_context"]
        print(f"{'budget':>6} " + " ".join(f"{s:>20}" for s in shown) + f" {'full_context tokens':>20}")
        for b in budgets:
            row = table.get(str(b), {})
            cells = [f"{row[s]['recall']:.3f} ({row[s]['tokens']:5.0f})" if s in row else "—" for s in shown]
            print(f"{b:>6} " + " ".join(f"{c:>20}" for c in cells) + f" {res['full_tokens'][h]:>20.0f}")


if __name__ == "__main__":
    raise SystemExit(main())
