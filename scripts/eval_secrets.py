"""Secret corpus: how many secrets stay out of the export and the database file, how many ordinary
numbers are redacted by mistake. Both halves (tune/test) reported side by side.

    PYTHONPATH=src python scripts/eval_secrets.py [--corpus fixtures/secrets_corpus] [--json out.json] [--show]

Each heldout*/ set of the corpus is reported as a further column beside tune and test: heldout/ was
written after the test half had been read and frozen before the detector changed again (its misses
were printed by its first run, so it is seen now); heldout2/ was frozen next and measured once unseen
(83/90), then read; heldout3/ was frozen before that reading, measured once unseen (81/87), then read;
heldout4/ (77/83), heldout5/ (82/84) and heldout6/ (82/84) likewise; heldout7/ was frozen before
heldout6 was read and is not printed by --show unless asked.

Every secret case is remembered (default rule extractor, the write policy, redaction) into its own
SQLite file; then each user's export and the raw bytes of the .db/-wal/-shm files are searched for
the case's secret (NFKC-normalised, zero-width characters removed; digit groups also without their
separators; case-insensitive in the file, where full-text tokens are lower-cased). Ordinary sentences
are remembered into another file: a case is falsely redacted when its stored turn differs from what
was said (a placeholder replaced something) or lost a number it should keep.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import unicodedata
from collections import defaultdict
from pathlib import Path
from typing import Any

from goodmemory import create_good_memory
from goodmemory.testing import FakeEmbedder, FrozenClock

_ZW = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None)


def norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).translate(_ZW)


def variants(secret: str) -> set[str]:
    s = norm(secret)
    out = {s}
    if sum(c.isdigit() for c in s) >= 6:
        out.add(re.sub(r"[\s.\-]", "", s))
    return {v for v in out if v}


def holds(blob: str, value: str, *, ignore_case: bool = False) -> bool:
    flags = re.IGNORECASE if ignore_case else 0
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(value)}(?![0-9A-Za-z])", blob, flags) is not None


def load(corpus: Path, name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (corpus / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def run_secrets(cases: list[dict[str, Any]], tmp: Path) -> dict[str, dict[str, bool]]:
    """One database file per case, so a short secret ("123") found in the bytes is this case's, not a
    substring of another case's text."""
    out: dict[str, dict[str, bool]] = {}
    for c in cases:
        db = tmp / f"{c['id']}.db"
        with create_good_memory(f"sqlite:///{db}", embedder=FakeEmbedder(), clock=FrozenClock()) as mem:
            mem.remember([{"role": r, "content": t} for r, t in c["turns"]], user_id="u", session_id="s")
            export = norm(mem.export(user_id="u").model_dump_json())
            context = norm(mem.build_context("password pin key card code number secret", user_id="u",
                                             max_tokens=2000).text)
            mem.storage._checkpoint()  # type: ignore[attr-defined]
        raw = norm(b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*")).decode("utf-8", "ignore"))
        vs = variants(c["secret"])
        out[c["id"]] = {
            "export": any(holds(export, v) for v in vs),
            "context": any(holds(context, v) for v in vs),
            "file": any(holds(raw, v, ignore_case=True) for v in vs),
        }
    return out


def run_ordinary(cases: list[dict[str, Any]], tmp: Path) -> dict[str, bool]:
    out: dict[str, bool] = {}
    with create_good_memory(f"sqlite:///{tmp / 'ordinary.db'}", embedder=FakeEmbedder(), clock=FrozenClock()) as mem:
        for c in cases:
            mem.remember([{"role": "user", "content": c["text"]}], user_id=c["id"], session_id="s")
            turns = [r.text for r in mem.export(user_id=c["id"]).memories
                     if r.kind.value == "episode" and not r.key.startswith("episode.digest.")]
            kept = bool(turns) and turns[0] == f"user: {c['text']}" and all(k in turns[0] for k in c["keep"])
            out[c["id"]] = not kept
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=Path(__file__).parents[1] / "fixtures" / "secrets_corpus")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--show", action="store_true",
                    help="print every leaked or falsely redacted case of the sets named by --show-halves")
    ap.add_argument("--show-halves", default="tune,test,heldout,heldout2,heldout3,heldout4,heldout5,heldout6",
                    help="which sets --show prints (default: not heldout7, the set kept unseen)")
    args = ap.parse_args(argv)
    secrets, ordinary = load(args.corpus, "secrets.jsonl"), load(args.corpus, "ordinary.jsonl")
    for extra in sorted(args.corpus.glob("heldout*/")):
        secrets += load(extra, "secrets.jsonl")
        ordinary += load(extra, "ordinary.jsonl")
    halves = list(dict.fromkeys(["tune", "test", *(c["half"] for c in secrets)]))
    with tempfile.TemporaryDirectory() as d:
        leaks = run_secrets(secrets, Path(d))
        false = run_ordinary(ordinary, Path(d))
    report: dict[str, Any] = {}
    for half in halves:
        s = [c for c in secrets if c["half"] == half]
        o = [c for c in ordinary if c["half"] == half]
        out_of_both = [c for c in s if not leaks[c["id"]]["export"] and not leaks[c["id"]]["file"]]
        by_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for c in s:
            by_kind[c["kind"]][1] += 1
            by_kind[c["kind"]][0] += c in out_of_both
        report[half] = {
            "secret_cases": len(s),
            "kept_out_of_export_and_file": len(out_of_both),
            "kept_out_rate": round(len(out_of_both) / len(s), 4),
            "leaked_in_export": sum(leaks[c["id"]]["export"] for c in s),
            "leaked_in_context": sum(leaks[c["id"]]["context"] for c in s),
            "leaked_in_file": sum(leaks[c["id"]]["file"] for c in s),
            "ordinary_cases": len(o),
            "falsely_redacted": sum(false[c["id"]] for c in o),
            "false_redaction_rate": round(sum(false[c["id"]] for c in o) / len(o), 4),
            "by_kind": {k: f"{v[0]}/{v[1]}" for k, v in sorted(by_kind.items())},
            "leaked_ids": [c["id"] for c in s if c not in out_of_both],
            "falsely_redacted_ids": [c["id"] for c in o if false[c["id"]]],
        }
    print(f"{'':32}" + "".join(f"{h:>10}" for h in halves))
    for key in ("secret_cases", "kept_out_of_export_and_file", "kept_out_rate", "leaked_in_export", "leaked_in_context",
                "leaked_in_file", "ordinary_cases", "falsely_redacted", "false_redaction_rate"):
        print(f"{key:32}" + "".join(f"{report[h][key]:>10}" for h in halves))
    if args.show:
        for half in (h for h in halves if h in args.show_halves.split(",")):
            for cid in report[half]["leaked_ids"]:
                c = next(x for x in secrets if x["id"] == cid)
                print(f"LEAK {half} {c['kind']:12} {c['lang']} {c['turns'][-1][1]!r} {leaks[cid]}")
            for cid in report[half]["falsely_redacted_ids"]:
                c = next(x for x in ordinary if x["id"] == cid)
                print(f"FALSE {half} {c['text']!r}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
