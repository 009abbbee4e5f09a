"""Replay the write-side generalization corpus (fixtures/write_corpus) through the real facade and score it.

    PYTHONPATH=src python scripts/run_write_eval.py                  # both halves, rule extractor
    PYTHONPATH=src python scripts/run_write_eval.py --half test      # one half
    PYTHONPATH=src python scripts/run_write_eval.py --show-failures  # each failing life with its memories

Split rule (fixed, never tuned): a life belongs to the *test* half when the first byte of
``sha256(id)`` is odd, else to the *tune* half. Extractor work looks at tune failures only.

Per half it reports: changes superseded % (new value active, old value stored and no active value
holds it), additions kept % (every value active), stable facts found %, tasks closed %, garbled
memories (an active memory that holds a life's trap string or reads as a broken sentence) and
precision per memory kind (an active memory is right when it names a value the life expects or
allows, and no replaced value).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fixtures" / "write_corpus"


@dataclass
class Life:
    id: str
    attr: str
    type: str
    sessions: list[tuple[datetime, list[dict[str, str]]]]
    current: list[str] = field(default_factory=list)
    gone: list[str] = field(default_factory=list)
    ok: list[str] = field(default_factory=list)
    traps: list[str] = field(default_factory=list)
    source: str = ""  # the corpus file it is written in (lives added later are scored apart with --by-file)

    @property
    def half(self) -> str:
        return split_of(self.id)


def split_of(life_id: str) -> str:
    return "test" if hashlib.sha256(life_id.encode()).digest()[0] % 2 else "tune"


def _session(line: str | dict[str, str]) -> tuple[datetime, list[dict[str, str]]]:
    if isinstance(line, dict):  # YAML reads "... | A: question || answer" as a one-item mapping
        ((k, v),) = line.items()
        line = f"{k}: {v}"
    when, _, body = line.partition(" | ")
    at = datetime.strptime(when.strip(), "%Y-%m-%d %H:%M").replace(tzinfo=UTC)
    turns = []
    for t in body.split(" || "):
        t = t.strip()
        role, text = ("assistant", t[3:]) if t.startswith("A: ") else ("user", t)
        turns.append({"role": role, "content": text})
    return at, turns


def load_corpus(path: Path = CORPUS) -> list[Life]:
    lives: list[Life] = []
    for f in sorted(path.glob("*.yaml")):
        for raw in yaml.safe_load(f.read_text()) or []:
            lives.append(Life(id=raw["id"], attr=raw["attr"], type=raw["type"],
                              sessions=[_session(s) for s in raw["s"]],
                              current=[str(v) for v in raw.get("current", [])],
                              gone=[str(v) for v in raw.get("gone", [])],
                              ok=[str(v) for v in raw.get("ok", [])],
                              traps=[str(v) for v in raw.get("traps", [])], source=f.stem))
    ids = [life.id for life in lives]
    dup = [i for i, n in Counter(ids).items() if n > 1]
    if dup:
        raise ValueError(f"duplicate life ids: {dup}")
    return lives


# ------------------------------------------------------------------ matching
_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december"]
_DAY_MONTH = re.compile(r"^(?:(\d{1,2}) ([a-z]+)|([a-z]+) (\d{1,2}))$")


def _iso_day(word: str) -> str | None:
    """'March 19' / '19 March' -> '-03-19' (a memory may write the day as an ISO date)."""
    m = _DAY_MONTH.match(word.lower().strip())
    if not m:
        return None
    day, month = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
    return f"-{_MONTHS.index(month) + 1:02d}-{int(day):02d}" if month in _MONTHS else None


def holds(text: str, word: str) -> bool:
    """Whether ``text`` names ``word``: digits compared without separators, words from their start
    (so 'cancel' finds 'cancelled'), a day also as an ISO date, case-insensitively."""
    t, w = text.lower(), word.lower().strip()
    iso = _iso_day(w)
    if iso and iso in t:
        return True
    digits = re.sub(r"\D", "", w)
    if len(digits) >= 5 and len(digits) >= len(re.sub(r"[\s,.\-+()]", "", w)) - 1:
        return digits in re.sub(r"\D", "", t)
    tn = " ".join(t.replace("-", " ").split())
    wn = " ".join(w.replace("-", " ").split())
    tail = r"(?![0-9])" if wn[-1:].isdigit() else ""
    return re.search(r"(?<![a-z0-9])" + re.escape(wn) + tail, tn) is not None


_FUNCTION_END = frozenset(["a", "an", "the", "to", "of", "for", "in", "on", "at", "by", "with", "from", "and", "or", "but", "my", "your", "his", "her", "their", "our", "its", "dr", "mr", "mrs", "ms", "is", "are", "was", "be", "been"])
_GARBLE = [
    re.compile(r"\b(\w+) \1\b", re.I),                                   # doubled word
    re.compile(r"\b(?:a|an|the) (?:now|also|still|just|really|actually|currently)\b", re.I),  # "as a now a manager"
    re.compile(r"\bto (?:been|has|was|were|is|am)\b", re.I),             # "needs to been around"
    re.compile(r"\bno longer eats (?:alcohol|wine|beer|coffee)\b", re.I),
]


def garbled(text: str) -> str | None:
    """Why a memory's text reads as a broken sentence, or None."""
    body = text.strip().rstrip(".!")
    last = re.findall(r"[\w'\-:]+", body)[-1:] or [""]
    quoted = body.endswith('"')  # the user's own sentence, quoted: its last word is theirs
    if last[0].lower() in _FUNCTION_END and not quoted:
        return f"ends on {last[0]!r}"
    for pat in _GARBLE:
        m = pat.search(body)
        if m:
            return f"broken phrase {m.group(0)!r}"
    return None


# ------------------------------------------------------------------ replay and score
def _is_open(r: Any) -> bool:
    if r.kind.value == "open_loop":
        return r.metadata.get("state", "open") == "open"
    return True


def score_life(life: Life, active: list[Any], everything: list[Any]) -> dict[str, Any]:
    live = [r for r in active if r.kind.value != "episode" and _is_open(r)]
    stored = [r for r in everything if r.kind.value != "episode"]
    words = lambda r: f"{r.value} {r.text}"  # noqa: E731
    missing = [w for w in life.current if not any(holds(words(r), w) for r in live)]
    # a closed task is gone from the open tasks; a fact saying it was done may name it
    judged = [r for r in live if r.kind.value == "open_loop"] if life.type == "close" else live
    still = [w for w in life.gone if any(holds(r.value if life.type != "close" else words(r), w) for r in judged)]
    never = [w for w in life.gone if not any(holds(words(r), w) for r in stored)]
    memories = []
    garbles = []
    allowed = [*life.current, *life.ok]
    for r in active:
        if r.kind.value == "episode":
            continue
        closed_loop = not _is_open(r) or (life.type == "close" and r.kind.value != "open_loop")
        trap = next((t for t in life.traps if t.lower() in r.text.lower() or t.lower() in r.value.lower()), None)
        why = f"trap {trap!r}" if trap else garbled(r.text)
        if why:
            garbles.append({"text": r.text, "why": why})
        right = (not why and not any(holds(r.value, w) for w in life.gone if not closed_loop)
                 and any(holds(words(r), w) for w in (allowed + life.gone if closed_loop else allowed)))
        memories.append({"kind": r.kind.value, "key": r.key, "value": r.value, "text": r.text,
                         "right": right, "rule": r.metadata.get("rule") or r.source.extractor,
                         "family_score": r.metadata.get("family_score")})
    ok = not missing and not still and not never
    return {"id": life.id, "attr": life.attr, "type": life.type, "half": life.half, "source": life.source, "pass": ok,
            "missing": missing, "still_active": still, "never_stored": never, "garbled": garbles,
            "memories": memories}


def run(lives: list[Life], *, extractor: str = "rules", progress: bool = True,
        make_memory: Any = None, config: Any = None) -> list[dict[str, Any]]:
    from goodmemory import create_good_memory
    from goodmemory.testing import FrozenClock

    clock = FrozenClock(datetime(2024, 1, 1, tzinfo=UTC))
    mem = make_memory(clock) if make_memory else create_good_memory("sqlite://", clock=clock, config=config,
                                                                      extractor=_extractor(extractor))
    out = []
    t0 = time.perf_counter()
    try:
        for n, life in enumerate(lives, 1):
            user = f"w-{life.id}"
            for i, (at, turns) in enumerate(life.sessions):
                if at > clock():
                    clock.set(at)
                mem.remember(turns, user_id=user, session_id=f"{life.id}-s{i}", at=at)
            out.append(score_life(life, mem.list(user_id=user), mem.list(user_id=user, include_history=True)))
            if progress and (n % 25 == 0 or n == len(lives)):
                print(f"  {n}/{len(lives)} lives ({time.perf_counter() - t0:.1f}s)", file=sys.stderr, flush=True)
    finally:
        mem.close()
    return out


def _live(mem: Any, user: str) -> list[str]:
    return [f"{r.value} {r.text}" for r in mem.list(user_id=user) if r.kind.value != "episode"]


def cross_pairs(lives: list[Life], n: int, *, seed: str = "w41", config: Any = None) -> dict[str, Any]:
    """False supersedes between unrelated attributes: for ``n`` pairs (A, B) of lives of different attributes,
    chosen by a fixed hash, replay A then B (shifted to follow A) for one user and count the pairs where A's
    current values, all active after A alone, are no longer all active after B."""
    from datetime import timedelta

    from goodmemory import create_good_memory
    from goodmemory.testing import FrozenClock

    pairs = sorted(((a, b) for a in lives for b in lives if a.attr != b.attr and a.type != "close"
                    and b.type != "close"),
                   key=lambda ab: hashlib.sha256(f"{seed}|{ab[0].id}|{ab[1].id}".encode()).digest())[:n]
    clock = FrozenClock(datetime(2024, 1, 1, tzinfo=UTC))
    mem = create_good_memory("sqlite://", clock=clock, config=config)
    lost: list[dict[str, Any]] = []
    judged = 0
    try:
        for k, (a, b) in enumerate(pairs):
            user = f"x{k}-{a.id}-{b.id}"
            shift = a.sessions[-1][0] - b.sessions[0][0] + timedelta(days=30)
            for i, (at, turns) in enumerate(a.sessions):
                clock.set(max(clock(), at))
                mem.remember(turns, user_id=user, session_id=f"a{i}", at=at)
            if not all(any(holds(t, w) for t in _live(mem, user)) for w in a.current):
                continue  # A fails alone: says nothing about B
            judged += 1
            for i, (at, turns) in enumerate(b.sessions):
                clock.set(max(clock(), at + shift))
                mem.remember(turns, user_id=user, session_id=f"b{i}", at=at + shift)
            gone = [w for w in a.current if not any(holds(t, w) for t in _live(mem, user))]
            if gone:
                lost.append({"a": a.id, "b": b.id, "lost": gone})
    finally:
        mem.close()
    return {"pairs": len(pairs), "judged": judged, "false_supersedes": len(lost), "lost": lost}


def _extractor(name: str) -> Any:
    if name == "rules":
        return None
    raise SystemExit(f"unknown extractor {name!r}")


def summarize(results: list[dict[str, Any]]) -> dict[str, Any]:
    def rate(kind: str) -> dict[str, Any]:
        rows = [r for r in results if r["type"] == kind]
        passed = sum(r["pass"] for r in rows)
        return {"passed": passed, "of": len(rows), "pct": round(100 * passed / len(rows), 1) if rows else None}

    kinds: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in results:
        for m in r["memories"]:
            kinds[m["kind"]][0] += m["right"]
            kinds[m["kind"]][1] += 1
    return {
        "lives": len(results),
        "changes_superseded": rate("change"),
        "additions_kept": rate("addition"),
        "stable_found": rate("stable"),
        "tasks_closed": rate("close"),
        "garbled": sum(len(r["garbled"]) for r in results),
        "precision": {k: {"right": a, "of": b, "pct": round(100 * a / b, 1)} for k, (a, b) in sorted(kinds.items())},
        "memories": sum(len(r["memories"]) for r in results),
    }


def _fmt(s: dict[str, Any]) -> str:
    def p(x: dict[str, Any]) -> str:
        return f"{x['passed']}/{x['of']} ({x['pct']}%)" if x["of"] else "-"

    prec = ", ".join(f"{k} {v['right']}/{v['of']} ({v['pct']}%)" for k, v in s["precision"].items())
    return (f"changes superseded {p(s['changes_superseded'])}; additions kept {p(s['additions_kept'])}; "
            f"stable found {p(s['stable_found'])}; tasks closed {p(s['tasks_closed'])}; "
            f"garbled {s['garbled']}; memories {s['memories']}; precision: {prec or '-'}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--half", choices=["tune", "test", "both"], default="both")
    ap.add_argument("--corpus", type=Path, default=CORPUS,
                    help="folder of lives (*.yaml, the format of fixtures/write_corpus/README.md); default the repo "
                         "corpus, or a private held-out set elsewhere (both halves are then one set: --half both)")
    ap.add_argument("--extractor", default="rules", help="rules (default)")
    ap.add_argument("--out", default=str(ROOT / "reports" / "write_eval" / "summary.json"))
    ap.add_argument("--show-failures", action="store_true", help="print each failing life (tune half only unless --half test)")
    ap.add_argument("--only", default=None, help="comma-separated life ids")
    ap.add_argument("--by-file", action="store_true",
                    help="also score each half per corpus file (lives written later, e.g. rare_w51, apart)")
    ap.add_argument("--cross", type=int, default=0, metavar="N",
                    help="also replay N pairs of unrelated lives of the half and count false supersedes")
    ap.add_argument("--settings", default=None,
                    help='GoodMemoryConfig fields as JSON, e.g. \'{"same_topic_similarity": 2.0}\' (an A/B of a knob)')
    args = ap.parse_args(argv)
    from goodmemory.config import GoodMemoryConfig

    config = GoodMemoryConfig(**json.loads(args.settings)) if args.settings else None
    lives = load_corpus(args.corpus)
    if args.half != "both":
        lives = [life for life in lives if life.half == args.half]
    half_lives = lives
    if args.only:
        wanted = set(args.only.split(","))
        lives = [life for life in lives if life.id in wanted]
    results = run(lives, extractor=args.extractor, config=config)
    report: dict[str, Any] = {"extractor": args.extractor, "split": "test if sha256(id)[0] is odd else tune"}
    for half in ("tune", "test"):
        rows = [r for r in results if r["half"] == half]
        if rows:
            report[half] = summarize(rows)
            print(f"{half:>4}: {_fmt(report[half])}")
            if args.by_file:
                for src in sorted({r["source"] for r in rows}):
                    print(f"      {src}: {_fmt(summarize([r for r in rows if r['source'] == src]))}")
    if args.cross:
        cross = cross_pairs(half_lives, args.cross, config=config)
        report["cross"] = cross
        print(f"cross: {cross['false_supersedes']} of {cross['judged']} unrelated pairs lost a value "
              f"({cross['pairs']} replayed)")
        for row in cross["lost"]:
            print(f"   {row['a']} <- {row['b']}: lost {row['lost']}")
    report["lives"] = results
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1, default=str))
    print(f"wrote {out}")
    if args.show_failures:
        show = "test" if args.half == "test" else "tune"
        for r in results:
            if r["half"] != show or (r["pass"] and not r["garbled"] and all(m["right"] for m in r["memories"])):
                continue
            print(f"\n[{r['id']}] {r['type']} missing={r['missing']} still={r['still_active']} "
                  f"never={r['never_stored']} garbled={[g['why'] for g in r['garbled']]}")
            for m in r["memories"]:
                print(f"   {'+' if m['right'] else '-'} {m['kind']:<10} {m['key']:<40} {m['value']!r:<30} {m['text']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
