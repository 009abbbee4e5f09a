"""Benchmark GoodMemory on one deterministic synthetic user.

    python scripts/bench.py                      # 10,000 stored records, 200 queries, fresh SQLite file
    python scripts/bench.py --quick              # 1,000 records, 50 queries (CI)
    python scripts/bench.py --memories 300 --queries 20 --json /tmp/bench.json
    python scripts/bench.py --storage sqlite:///tmp/gm.db --seed 7
    python scripts/bench.py --cold --json /tmp/cold.json   # new process to first context, second instance

The synthetic user talks like a user of an agent: first-person sentences across
kinds (identity, preferences, accounts / orders / plates with identifiers,
appointments with dates, open loops, standing procedures, chit-chat) and
domains, built from templates and vocabulary lists with ``random.Random(seed)``,
so the same seed gives the same conversation. Messages go to ``remember`` in
batches of 20 (10 user turns and the assistant's replies, one session and
domain per batch), like an agent would send them, until the store holds
``--memories`` records (``storage.count``: raw-turn episodes plus extracted
memories, superseded history included).

Measured:

* remember throughput (messages/s) with the real default embedder (MiniLM)
  and the ``RuleExtractor``; the model is loaded before the clock starts.
* rule extraction + write policy throughput, excluding embeddings: the same
  run's ``remember`` wall time minus the time spent inside the embedding model
  (so it includes the SQLite reads and the write transaction); with
  ``--fake-pass`` also the same messages again through ``remember`` with
  ``goodmemory.testing.FakeEmbedder`` into a fresh SQLite file; and, as a
  breakdown, ``RuleExtractor.extract`` alone.
* recall and build_context latency p50/p95 in ms, query embedding included:
  every measured query string is unique and unseen (the embedder cache never
  answers), after a warm-up on other queries; then the same calls again after
  ``goodmemory.tune_process()`` (``gc.freeze`` of what start-up left alive, so
  full collections stop walking the model), reported beside as "tuned" and
  undone (``gc.unfreeze``) before the rest is measured. The untuned figures
  are what a process that never calls it sees.
* tokens per context (mean), bytes on disk per stored record (db + wal file,
  SQLite files only), peak RSS, and the floor: an exact numpy brute-force
  top-10 over the same vectors (numpy only, plus the query embedding alone).

A Markdown table goes to stdout, progress bars to stderr; ``--json PATH``
writes the figures as JSON.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import resource
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

import goodmemory
from goodmemory import create_good_memory
from goodmemory.embeddings import Embedder, default_embedder
from goodmemory.extraction.base import ExtractionContext
from goodmemory.extraction.rules import RuleExtractor
from goodmemory.models import Message
from goodmemory.storage.base import MemoryFilter
from goodmemory.testing import FakeEmbedder, FrozenClock

USER_ID = "bench-user"
BATCH_MESSAGES = 20
T0 = datetime(2024, 1, 8, 9, 0, tzinfo=UTC)

# ----------------------------------------------------------------------------- vocabulary
FIRST = ["Ana", "Marco", "Priya", "Jonas", "Leila", "Tomás", "Mei", "Samuel", "Olga", "Rafael", "Hana", "David",
         "Inês", "Kofi", "Sara", "Lucas", "Aisha", "Noah", "Elena", "Yusuf", "Clara", "Mateo", "Nadia", "Ethan"]
LAST = ["Souza", "Rossi", "Sharma", "Becker", "Haddad", "Silva", "Chen", "Okafor", "Ivanova", "Moreno", "Tanaka",
        "Cohen", "Ferreira", "Mensah", "Lindqvist", "Dubois", "Khan", "Walsh", "Novak", "Yilmaz"]
CITIES = ["Lisbon", "Porto", "Berlin", "Madrid", "Toronto", "Chicago", "Denver", "Austin", "Seattle", "Boston",
          "Dublin", "Vienna", "Prague", "Osaka", "Melbourne", "Nairobi", "Lyon", "Milan", "Krakow", "Montreal"]
OCCUPATIONS = ["data scientist", "nurse", "software engineer", "teacher", "architect", "accountant", "pharmacist",
               "product manager", "electrician", "photographer", "lawyer", "civil engineer", "journalist"]
COMPANIES = ["Acme Corp", "Globex", "Initech", "Umbrella Health", "Stark Logistics", "Wayne Foods", "Hooli",
             "Vandelay Industries", "Soylent Labs", "Cyberdyne Systems"]
LANGS = ["Portuguese", "English", "Spanish", "German", "French", "Italian", "Japanese", "Mandarin", "Arabic"]
RELATIONS = ["sister", "brother", "daughter", "son", "cousin", "friend", "colleague", "neighbor"]
SKILLS = ["Kubernetes", "Python", "tax law", "welding", "oil painting", "machine learning", "React", "SQL",
          "project management", "pastry baking", "woodworking", "statistics"]
ACTIVITIES = ["hiking in the mountains", "trail running", "jazz concerts", "board games", "sea swimming",
              "cooking Thai food", "reading sci-fi novels", "cycling on weekends", "pottery classes",
              "birdwatching", "indie films", "rock climbing", "chess", "gardening", "yoga at dawn"]
DISLIKES = ["loud music", "crowded beaches", "long layovers", "cilantro", "early meetings", "horror movies",
            "small talk", "red-eye flights", "cold weather", "spicy food"]
CHOICES = [("tea", "coffee"), ("trains", "planes"), ("email", "phone calls"), ("window seats", "aisle seats"),
           ("boutique hotels", "big chains"), ("paper books", "e-books"), ("cats", "dogs"),
           ("video calls", "meetings in person"), ("dark mode", "light mode")]
HABITS = ["fly with TAP", "book refundable fares", "pay with my Visa card", "check in online",
          "walk to the office", "cook at home on weekdays", "back up my laptop on Sundays",
          "travel with carry-on only", "order groceries online"]
ALLERGENS = ["peanuts", "shellfish", "penicillin", "cats", "pollen", "latex", "sesame"]
COMM = ["Please keep answers short.", "I like bullet points.", "Please avoid jargon.", "No emojis, please.",
        "Please use metric units.", "I prefer detailed explanations.", "Please reply in Portuguese.",
        "Keep it casual, please.", "Please use tables when you compare things."]
BANKS = ["Chase", "Wells Fargo", "Santander", "Revolut", "Barclays", "Citi", "HSBC", "Ally", "Monzo", "ING"]
ACCOUNT_TYPES = ["checking", "savings", "brokerage", "joint", "business", "retirement"]
INSURERS = ["State Farm", "Allianz", "Geico", "Aviva", "AXA", "Progressive", "Zurich", "Liberty Mutual"]
STORES = ["Amazon", "IKEA", "Zalando", "Best Buy", "Etsy", "Decathlon", "Apple Store", "Home Depot", "Target"]
AIRLINES = ["TAP", "Lufthansa", "Delta", "KLM", "United", "Iberia", "Air Canada", "Qantas"]
HOTELS = ["Marriott", "Hilton", "Ibis", "Hyatt", "Novotel", "Radisson"]
CLINICS = ["Kaiser", "Mayo Clinic", "CUF", "Charité", "Cleveland Clinic"]
CARS = [("Honda", "Civic"), ("Toyota", "Corolla"), ("Tesla", "Model 3"), ("Ford", "Focus"), ("Volkswagen", "Golf"),
        ("Subaru", "Outback"), ("Mazda", "CX-5"), ("Kia", "Niro"), ("Hyundai", "Ioniq"), ("Volvo", "XC40")]
DOCTORS = ["dentist", "dermatologist", "eye doctor", "physiotherapy", "cardiology", "pediatrician", "vet",
           "orthodontist", "allergist", "hair"]
MEETINGS = ["budget review", "design review", "quarterly planning", "one-on-one", "client", "board", "team sync"]
DELIVERABLES = ["tax return", "grant proposal", "quarterly report", "insurance renewal", "thesis draft",
                "visa application", "expense report", "slide deck"]
WHEN = ["next Tuesday at 3pm", "on Friday at 10am", "tomorrow at 9am", "next Monday", "on March 14",
        "on May 3 at 2pm", "next Thursday at 11am", "in two weeks", "on June 21", "this Saturday at noon",
        "on September 9", "next Wednesday at 4pm"]
DUE = ["Friday", "next Monday", "March 31", "the end of the month", "next Thursday", "June 15", "tomorrow"]
TASKS = ["renew my passport", "call the bank about the wire transfer", "book the hotel in {city}",
         "pay the electricity bill", "return the {store} package", "schedule a car service for the {make}",
         "send the invoice to {company}", "cancel the gym membership", "file the {insurer} claim",
         "buy a birthday gift for my {relation}", "update my address with {bank}", "email {first} about the contract",
         "pick up the prescription", "fix the leaking kitchen tap", "submit the {deliverable}",
         "register for the {city} half marathon", "order new glasses", "back up the family photos"]
PROC_COND = ["write code", "plan a trip for me", "draft an email", "suggest restaurants", "summarize a document",
             "book a flight", "give me a recipe", "schedule meetings", "review my budget", "explain a concept"]
PROC_ACT = ["always add type hints", "always include the total price", "keep it under 150 words",
            "check for vegetarian options", "put the key points first", "prefer morning departures",
            "list the ingredients in metric", "avoid Fridays", "show the numbers in a table",
            "start with a one-line summary", "cc my assistant", "double-check the time zone"]
CHIT = ["Thanks, that helps a lot!", "Haha, fair enough.", "Ok, let me think about it.", "Sounds good, let's do that.",
        "Can you summarize that?", "What's a good way to {verb}?", "Hmm, not sure yet.", "That's interesting.",
        "The weather in {city} has been {adj} lately.", "Great, thank you!", "Could you explain that again?",
        "Nice, that looks right.", "Let's continue tomorrow.", "What do you think about {activity}?",
        "Any tips for {activity}?", "Wow, I didn't know that."]
CHIT_VERBS = ["save money on groceries", "learn Spanish faster", "sleep better", "organize my inbox",
              "prepare for an interview", "stay focused at work", "pack for a long trip"]
ADJS = ["rainy", "unusually warm", "freezing", "gorgeous", "windy", "humid"]
ASSISTANT = ["Got it, I'll keep that in mind.", "Noted. Anything else I can help with?",
             "Thanks for letting me know about that.", "Understood. I'll use that next time.",
             "Sure, here is a short summary of what we discussed about {topic}.",
             "Happy to help with {topic}. Here are a few options to consider.",
             "I've noted the details for {topic}.", "Good question. For {topic}, it depends on your priorities.",
             "Here's what I found about {topic}: three options, sorted by price.",
             "Sounds like a plan. I'll remind you about {topic}."]
TOPICS = ["your trip", "the budget", "the appointment", "the order", "your car", "the project", "dinner plans",
          "the insurance claim", "your schedule", "the move", "the workout plan", "the report"]
DOMAINS = ["travel", "finance", "health", "auto", "work", "food", "shopping", "home"]


def _digits(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789") for _ in range(n))


def _code(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") for _ in range(n))


def _letters(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(n))


def _fill(rng: random.Random, template: str) -> str:
    make, model = rng.choice(CARS)
    return template.format(
        city=rng.choice(CITIES), store=rng.choice(STORES), make=make, company=rng.choice(COMPANIES),
        insurer=rng.choice(INSURERS), relation=rng.choice(RELATIONS), bank=rng.choice(BANKS),
        first=rng.choice(FIRST), deliverable=rng.choice(DELIVERABLES), verb=rng.choice(CHIT_VERBS),
        adj=rng.choice(ADJS), activity=rng.choice(ACTIVITIES), topic=rng.choice(TOPICS), model=model,
    )


# ----------------------------------------------------------------------------- user turns by kind
def _identity(rng: random.Random) -> str:
    f, last, city = rng.choice(FIRST), rng.choice(LAST), rng.choice(CITIES)
    return rng.choice([
        f"My name is {f} {last}.",
        f"Please call me {f}.",
        f"I'm {rng.randint(19, 80)} years old.",
        f"I work as a {rng.choice(OCCUPATIONS)}.",
        f"I work at {rng.choice(COMPANIES)}.",
        f"I live in {city}.",
        f"I moved to {city} last month.",
        f"I speak {rng.choice(LANGS)} and {rng.choice(LANGS)}.",
        f"My {rng.choice(RELATIONS)} {rng.choice(FIRST)} is a {rng.choice(OCCUPATIONS)}.",
        f"My {rng.choice(['daughter', 'son'])} is {rng.randint(2, 17)}.",
        f"I have {rng.randint(2, 20)} years of experience in {rng.choice(SKILLS)}.",
    ])


def _preference(rng: random.Random) -> str:
    a, b = rng.choice(CHOICES)
    return rng.choice([
        f"I love {rng.choice(ACTIVITIES)}.",
        f"I really enjoy {rng.choice(ACTIVITIES)}.",
        f"I can't stand {rng.choice(DISLIKES)}.",
        f"I prefer {a} over {b}.",
        f"I always {rng.choice(HABITS)}.",
        f"I'm allergic to {rng.choice(ALLERGENS)}.",
        f"I prefer {rng.choice(['aisle', 'window'])} seats.",
        rng.choice(COMM),
    ])


def _identifier(rng: random.Random) -> str:
    make, model = rng.choice(CARS)
    return rng.choice([
        f"My {rng.choice(BANKS)} {rng.choice(ACCOUNT_TYPES)} account is {_digits(rng, 10)}.",
        f"My {rng.choice(INSURERS)} policy number is {_letters(rng, 2)}-{_digits(rng, 9)}.",
        f"My {rng.choice(STORES)} order number is {_letters(rng, 3)}-{_digits(rng, 7)}.",
        f"My claim number is CLM-{rng.randint(2019, 2025)}-{_digits(rng, 5)}.",
        f"My {rng.choice(AIRLINES)} frequent flyer number is {_letters(rng, 2)}{_digits(rng, 8)}.",
        f"My {make} {model} plate is {_letters(rng, 3)}-{_digits(rng, 4)}.",
        f"I just bought a {rng.randint(2012, 2025)} {make} {model}.",
        f"My {rng.choice(HOTELS)} booking code is {_code(rng, 6)}.",
        f"My {rng.choice(CLINICS)} patient number is P-{_digits(rng, 7)}.",
        f"My tracking number is 1Z{_code(rng, 12)}.",
        f"My monthly budget is ${rng.randint(8, 60) * 100:,}.",
        f"My work email is {rng.choice(FIRST).lower()}.{rng.choice(LAST).lower()}@{rng.choice(COMPANIES).split()[0].lower()}.com.",
    ])


def _appointment(rng: random.Random) -> str:
    return rng.choice([
        f"My {rng.choice(DOCTORS)} appointment is {rng.choice(WHEN)}.",
        f"I have a flight to {rng.choice(CITIES)} {rng.choice(WHEN)}.",
        f"I have a {rng.choice(MEETINGS)} meeting {rng.choice(WHEN)}.",
        f"The {rng.choice(DELIVERABLES)} is due {rng.choice(DUE)}.",
    ])


def _open_loop(rng: random.Random) -> str:
    task = _fill(rng, rng.choice(TASKS))
    return rng.choice([
        f"I need to {task} by {rng.choice(DUE)}.",
        f"Remind me to {task}.",
        f"I still need to {task}.",
    ])


def _procedure(rng: random.Random) -> str:
    if rng.random() < 0.7:
        return f"When you {rng.choice(PROC_COND)}, {rng.choice(PROC_ACT)}."
    return f"From now on, {rng.choice(PROC_ACT)}."


def _chit(rng: random.Random) -> str:
    return _fill(rng, rng.choice(CHIT))


KINDS: tuple[tuple[Callable[[random.Random], str], float], ...] = (
    (_identity, 0.08), (_preference, 0.16), (_identifier, 0.26), (_appointment, 0.12),
    (_open_loop, 0.10), (_procedure, 0.04), (_chit, 0.24),
)


@dataclass
class Session:
    session_id: str
    domain: str
    at: datetime
    messages: list[dict[str, str]] = field(default_factory=list)


def sessions(seed: int) -> Iterator[Session]:
    """An endless, deterministic stream of sessions of ``BATCH_MESSAGES`` messages each."""
    rng = random.Random(seed)
    gens, weights = zip(*KINDS, strict=True)
    at = T0
    i = 0
    while True:
        s = Session(session_id=f"s{seed}-{i:05d}", domain=rng.choice(DOMAINS), at=at)
        for _ in range(BATCH_MESSAGES // 2):
            gen = rng.choices(gens, weights=weights)[0]
            s.messages.append({"role": "user", "content": gen(rng)})
            s.messages.append({"role": "assistant", "content": _fill(rng, rng.choice(ASSISTANT))})
        yield s
        i += 1
        at += timedelta(hours=rng.randint(3, 40))


def queries(seed: int, n: int) -> list[tuple[str, str | None]]:
    """``n`` unique (query, domain) pairs an agent would send before answering."""
    rng = random.Random(seed * 7919 + 1)
    out: dict[str, str | None] = {}

    def one() -> tuple[str, str | None]:
        make, model = rng.choice(CARS)
        return rng.choice([
            (f"What's my {rng.choice(BANKS)} {rng.choice(ACCOUNT_TYPES)} account number?", "finance"),
            (f"When is my {rng.choice(DOCTORS)} appointment?", "health"),
            (f"What's the plate on my {make} {model}?", "auto"),
            (f"Book me a hotel in {rng.choice(CITIES)} for {rng.choice(['two', 'three', 'four'])} nights.", "travel"),
            (f"Find me a flight to {rng.choice(CITIES)} {rng.choice(WHEN)}.", "travel"),
            (f"Recommend a {rng.choice(['quiet', 'cheap', 'nice', 'family-friendly'])} restaurant in "
             f"{rng.choice(CITIES)} for {rng.choice(['lunch', 'dinner', 'brunch'])}.", "food"),
            (f"What do I still need to do before {rng.choice(DUE)}?", None),
            (f"Where does my {rng.choice(RELATIONS)} {rng.choice(FIRST)} work?", None),
            (f"What's my {rng.choice(STORES)} order number?", "shopping"),
            (f"Which policy number do I have with {rng.choice(INSURERS)}?", "finance"),
            (f"Plan a weekend of {rng.choice(ACTIVITIES)} near {rng.choice(CITIES)}.", "travel"),
            (f"Draft an email to {rng.choice(FIRST)} about the {rng.choice(DELIVERABLES)}.", "work"),
            (f"How should you format the answer about {rng.choice(SKILLS)} for me?", "work"),
            (f"Is there anything I should avoid eating at the {rng.choice(MEETINGS)} lunch?", "food"),
            (f"What's my {rng.choice(AIRLINES)} frequent flyer number?", "travel"),
            (f"Remind me what I said about {rng.choice(ACTIVITIES)}.", None),
            (f"When is the {rng.choice(MEETINGS)} meeting?", "work"),
            (f"Can you help me {_fill(rng, rng.choice(TASKS))}?", None),
        ])

    tries = 0
    while len(out) < n and tries < n * 200:
        q, d = one()
        out.setdefault(q, d)
        tries += 1
    if len(out) < n:  # vocabulary exhausted: number the rest, still unique
        base = list(out.items())
        for k in range(n - len(out)):
            q, d = base[k % len(base)]
            out[f"{q} (#{k})"] = d
    items = list(out.items())
    rng.shuffle(items)
    return items


# ----------------------------------------------------------------------------- measurement helpers
class RecordingEmbedder:
    """Pass-through embedder that keeps every vector it made, by text (for the brute-force floor)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.vectors: dict[str, np.ndarray] = {}
        self.seconds = 0.0  # wall time spent inside the model (on whichever thread called it)
        self.caller_seconds = 0.0  # the part of it on the calling (main) thread, not on the embedding worker
        self.texts = 0  # texts that reached the model (the library's cache answers the rest)
        self.calls = 0  # model calls: each pays a fixed session run besides its texts
        # the library embeds a remember's turns on its worker thread when the model allows (CachedEmbedder.prefetch)
        self.thread_safe = bool(getattr(inner, "thread_safe", False))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        t0 = time.perf_counter()
        mat = self.inner.embed(texts)
        self.texts += len(texts)
        self.calls += 1
        self.seconds += time.perf_counter() - t0
        if threading.current_thread() is threading.main_thread():
            self.caller_seconds += time.perf_counter() - t0
        for t, v in zip(texts, mat, strict=True):
            self.vectors[t] = np.asarray(v, dtype=np.float32)
        return mat

    def embed_fixed(self, texts: Sequence[str]) -> np.ndarray:
        """The library's own texts (the key families' examples) as the default embedder gives them: from its disk
        copy. Without this the bench alone would run them through the model at its first remember (171 texts)."""
        t0 = time.perf_counter()
        mat = getattr(self.inner, "embed_fixed", self.inner.embed)(texts)
        self.seconds += time.perf_counter() - t0
        if threading.current_thread() is threading.main_thread():
            self.caller_seconds += time.perf_counter() - t0
        return mat


class GcPauses:
    """Garbage-collector pauses while a block runs (``gc.callbacks``): generation and milliseconds each.

    A full (generation 2) collection walks every object in the process, the model's included, so a call
    that happens to trigger one stalls for far longer than its own work."""

    def __init__(self) -> None:
        self.pauses: list[tuple[int, float]] = []
        self._start = 0.0

    def _record(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.pauses.append((int(info["generation"]), (time.perf_counter() - self._start) * 1e3))

    def __enter__(self) -> GcPauses:
        gc.callbacks.append(self._record)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._record)

    def summary(self) -> dict[str, Any]:
        ms = [p for _, p in self.pauses]
        return {"collections": len(ms), "full": sum(1 for g, _ in self.pauses if g == 2),
                "max_pause_ms": round(max(ms, default=0.0), 3), "total_pause_ms": round(sum(ms), 3)}


def _pct(values: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(values, dtype=np.float64), q)) if values else 0.0


def _progress(total: int, desc: str, enabled: bool, unit: str = "it") -> Any:
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm ships with sentence-transformers
        tqdm = None
    if tqdm is None or not enabled:
        return _NoBar()
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, dynamic_ncols=True, leave=False)


class _NoBar:
    n = 0

    def update(self, k: int = 1) -> None:
        self.n += k

    def set_postfix_str(self, s: str) -> None:
        return None

    def close(self) -> None:
        return None


def _sqlite_files(url: str) -> list[Path]:
    if not url.startswith("sqlite:///") or url in ("sqlite:///", "sqlite:///:memory:"):
        return []
    db = Path(url[len("sqlite:///"):])
    return [db, db.with_name(db.name + "-wal")]


@dataclass
class Ingest:
    messages: int
    records: int
    seconds: float
    remember_seconds: float
    call_ms: list[float] = field(default_factory=list)  # one remember() call each
    remember_cpu_seconds: float = 0.0  # process CPU time (all threads) inside remember()


def ingest(mem: Any, seed: int, *, target_records: int | None, max_messages: int | None, desc: str,
           progress: bool, clock: FrozenClock) -> Ingest:
    """Remember sessions until the store holds ``target_records`` (or ``max_messages`` were sent)."""
    total = target_records if target_records is not None else max_messages or 0
    bar = _progress(total, desc, progress, unit="rec" if target_records is not None else "msg")
    n_msgs, records, spent = 0, 0, 0.0
    call_ms: list[float] = []
    cpu = 0.0
    t_start = time.perf_counter()
    for s in sessions(seed):
        if target_records is not None and records >= target_records:
            break
        if max_messages is not None and n_msgs >= max_messages:
            break
        clock.set(s.at)
        t0, c0 = time.perf_counter(), time.process_time()
        mem.remember(s.messages, user_id=USER_ID, session_id=s.session_id, domain=s.domain, at=s.at)
        cpu += time.process_time() - c0
        spent += time.perf_counter() - t0
        call_ms.append((time.perf_counter() - t0) * 1e3)
        n_msgs += len(s.messages)
        now_records = mem.storage.count(USER_ID)
        bar.update((now_records - records) if target_records is not None else len(s.messages))
        records = now_records
        bar.set_postfix_str(f"{n_msgs} msgs, {n_msgs / spent:.0f} msg/s" if spent else "")
    bar.close()
    return Ingest(messages=n_msgs, records=records, seconds=time.perf_counter() - t_start, remember_seconds=spent,
                  call_ms=call_ms, remember_cpu_seconds=cpu)


def extraction_only(seed: int, n_messages: int) -> float:
    """Messages per second of ``RuleExtractor.extract`` alone over the same batches."""
    ex = RuleExtractor()
    batches: list[tuple[list[Message], ExtractionContext]] = []
    n = 0
    for s in sessions(seed):
        if n >= n_messages:
            break
        msgs = [Message(role=m["role"], content=m["content"], id=f"{s.session_id}:{i}", timestamp=s.at)  # type: ignore[arg-type]
                for i, m in enumerate(s.messages)]
        batches.append((msgs, ExtractionContext(user_id=USER_ID, session_id=s.session_id, domain=s.domain, at=s.at)))
        n += len(msgs)
    t0 = time.perf_counter()
    for msgs, ctx in batches:
        ex.extract(msgs, ctx)
    return n / max(time.perf_counter() - t0, 1e-9)


def second_instances(tmp: Path, n: int = 5) -> list[float]:
    """ms of create + remember + build_context of a new instance on a new SQLite file, in this warm process
    (what an instance per tenant or request pays; ``--cold`` measures the same in new processes)."""
    out = []
    for i in range(n):
        t0 = time.perf_counter()
        m = create_good_memory(f"sqlite:///{tmp / f'second-{i}.db'}")
        m.remember([{"role": "user", "content": f"My dentist is Dr. Silva on Friday at {i + 9}am."}], user_id="u2")
        m.build_context("when is the dentist?", user_id="u2")
        out.append((time.perf_counter() - t0) * 1e3)
        m.close()
    return out


def _time_calls(fn: Callable[[str, str | None], Any], items: Sequence[tuple[str, str | None]], desc: str,
                progress: bool, before: Callable[[], None] = lambda: None) -> tuple[list[float], list[Any]]:
    bar = _progress(len(items), desc, progress, unit="q")
    times: list[float] = []
    results: list[Any] = []
    for q, d in items:
        before()  # untimed
        t0 = time.perf_counter()
        results.append(fn(q, d))
        times.append((time.perf_counter() - t0) * 1e3)
        bar.update(1)
    bar.close()
    return times, results


# ----------------------------------------------------------------------------- main
def run(args: argparse.Namespace) -> dict[str, Any]:
    progress = not args.no_progress
    with tempfile.TemporaryDirectory(prefix="gm-bench-") as tmp:
        storage = args.storage or f"sqlite:///{Path(tmp) / 'bench.db'}"
        log = (lambda *a: print(*a, file=sys.stderr)) if progress else (lambda *a: None)

        # 1. remember with the real default embedder (MiniLM) and the rule extractor
        if args.torch_threads:
            import torch

            torch.set_num_threads(args.torch_threads)
        base = default_embedder()
        t0 = time.perf_counter()
        base.embed(["warm up the embedding model"])
        log(f"embedder {base.name} loaded in {time.perf_counter() - t0:.1f}s")
        rec = RecordingEmbedder(base)
        clock = FrozenClock(T0)
        mem = create_good_memory(storage, embedder=rec, clock=clock)
        try:
            ing = ingest(mem, args.seed, target_records=args.memories, max_messages=None,
                         desc="remember (MiniLM)", progress=progress, clock=clock)
            ingest_embed_s, caller_embed_s = rec.seconds, rec.caller_seconds
            ingest_texts, ingest_model_calls = rec.texts, rec.calls
            all_records = mem.storage.list(USER_ID, MemoryFilter(statuses=None))

            # 2. read path: unique queries, recall and build_context on separate sets, warm-up first
            n_warm = min(10, max(2, args.queries // 10))
            qs = queries(args.seed, 2 * args.queries + 2 * n_warm)
            warm, q_recall, q_ctx = qs[: 2 * n_warm], qs[2 * n_warm : 2 * n_warm + args.queries], qs[2 * n_warm + args.queries :]
            for q, d in warm[:n_warm]:
                mem.recall(q, user_id=USER_ID, domain=d)
            for q, d in warm[n_warm:]:
                mem.build_context(q, user_id=USER_ID, domain=d, max_tokens=args.max_tokens)
            # every timed call embeds its query: templates that differ only in names ("a flight to Oslo" /
            # "... to Lima") embed the same text once names are left out, and the cache would answer
            uncached = mem.embedder.clear

            def reads(label: str) -> tuple[list[float], list[float], list[Any], GcPauses]:
                with GcPauses() as pauses:
                    r_ms, _ = _time_calls(lambda q, d: mem.recall(q, user_id=USER_ID, domain=d), q_recall,
                                          f"recall{label}", progress, before=uncached)
                    c_ms, contexts = _time_calls(
                        lambda q, d: mem.build_context(q, user_id=USER_ID, domain=d, max_tokens=args.max_tokens),
                        q_ctx, f"build_context{label}", progress, before=uncached)
                return r_ms, c_ms, contexts, pauses

            recall_ms, ctx_ms, ctxs, gc_pauses = reads("")
            # the same calls again after goodmemory.tune_process() (gc.collect + gc.freeze: what is alive now,
            # the model included, is no longer walked by full collections), undone afterwards so what follows is
            # measured as before; the same queries, the embedder cache cleared before each call as above
            tuned = goodmemory.tune_process(mem)
            try:
                recall_tuned_ms, ctx_tuned_ms, _, gc_tuned = reads(" (tuned)")
            finally:
                gc.unfreeze()
            tokens = [c.tokens for c in ctxs]
            stage_ms: dict[str, list[float]] = {}
            for c in ctxs:
                for k, v in c.trace.get("timings_ms", {}).items():
                    stage_ms.setdefault(k, []).append(float(v))

            # 3. the floor: query embedding alone (uncached) and exact numpy top-10 over the same vectors
            vecs = [rec.vectors.get(r.text) for r in all_records]
            mat = np.stack([v for v in vecs if v is not None]).astype(np.float32) if any(
                v is not None for v in vecs) else np.zeros((0, base.dim), dtype=np.float32)
            floor_qs = queries(args.seed + 1, args.queries)
            embed_ms: list[float] = []
            bf_ms: list[float] = []
            bar = _progress(len(floor_qs), "brute force", progress, unit="q")
            for q, _d in floor_qs:
                t0 = time.perf_counter()
                qv = np.asarray(base.embed([q])[0], dtype=np.float32)
                t1 = time.perf_counter()
                sims = mat @ qv
                k = min(10, sims.shape[0])
                if k:
                    top = np.argpartition(-sims, k - 1)[:k]
                    top[np.argsort(-sims[top])]
                t2 = time.perf_counter()
                embed_ms.append((t1 - t0) * 1e3)
                bf_ms.append((t2 - t1) * 1e3)
                bar.update(1)
            bar.close()
        finally:
            mem.close()
        files = _sqlite_files(storage)
        second_ms = second_instances(Path(tmp))
        disk = sum(f.stat().st_size for f in files if f.exists()) if files else None

        # 4. extraction + write policy without embeddings: optionally the same messages again through
        #    remember() with FakeEmbedder into a fresh SQLite file; RuleExtractor.extract alone as a breakdown
        fake_rate: float | None = None
        if args.fake_pass:
            fclock = FrozenClock(T0)
            fmem = create_good_memory(f"sqlite:///{Path(tmp) / 'bench-fake.db'}", embedder=FakeEmbedder(),
                                      clock=fclock)
            try:
                fing = ingest(fmem, args.seed, target_records=None, max_messages=ing.messages,
                              desc="remember (FakeEmbedder)", progress=progress, clock=fclock)
            finally:
                fmem.close()
            fake_rate = round(fing.messages / fing.remember_seconds, 2)
        extract_only = extraction_only(args.seed, ing.messages)

    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    peak_mb = peak_kb / 1024 if sys.platform != "darwin" else peak_kb / 1024 / 1024
    result: dict[str, Any] = {
        "remember_msgs_per_s": round(ing.messages / ing.remember_seconds, 2),
        # per remember() call of BATCH_MESSAGES messages, over the whole ingest and over its last 10%
        # (the store near --memories records)
        # messages per CPU-second of this process: what a quiet machine's wall rate tends to (a loaded one
        # stretches wall time, not CPU time)
        "remember_msgs_per_cpu_s": round(ing.messages / max(ing.remember_cpu_seconds, 1e-9), 2),
        "remember_call_p50_ms": round(_pct(ing.call_ms, 50), 2),
        "remember_call_p95_ms": round(_pct(ing.call_ms, 95), 2),
        "remember_last10pct_msgs_per_s": _tail_rate(ing.call_ms),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        # remember() wall time minus the time spent inside the embedding model, same run
        # (only the model time on the caller's thread: the worker's overlaps extraction)
        "extract_policy_msgs_per_s": round(ing.messages / max(ing.remember_seconds - caller_embed_s, 1e-9), 2),
        "fake_embedder_msgs_per_s": fake_rate,
        "embed_share_of_remember": round(ingest_embed_s / ing.remember_seconds, 3),
        # per remember() call: texts that reached the model, and model calls (the library's own fixed texts,
        # the key families' examples, come from the default embedder's disk copy: not counted)
        "texts_embedded_per_remember": round(ingest_texts / max(len(ing.call_ms), 1), 2),
        "model_calls_per_remember": round(ingest_model_calls / max(len(ing.call_ms), 1), 2),
        "second_instance_p50_ms": round(_pct(second_ms, 50), 1),
        "second_instance_max_ms": round(max(second_ms), 1),
        "extract_only_msgs_per_s": round(extract_only, 2),
        "recall_p50_ms": round(_pct(recall_ms, 50), 3),
        "recall_p95_ms": round(_pct(recall_ms, 95), 3),
        "build_context_p50_ms": round(_pct(ctx_ms, 50), 3),
        "build_context_p95_ms": round(_pct(ctx_ms, 95), 3),
        "tokens_per_context": round(float(np.mean(tokens)) if tokens else 0.0, 1),
        "bytes_per_memory": round(disk / ing.records, 1) if disk is not None and ing.records else None,
        "peak_rss_mb": round(peak_mb, 1),
        "bruteforce_p50_ms": round(_pct(bf_ms, 50), 4),
        "bruteforce_p95_ms": round(_pct(bf_ms, 95), 4),
        "query_embed_p50_ms": round(_pct(embed_ms, 50), 3),
        "query_embed_p95_ms": round(_pct(embed_ms, 95), 3),
        "build_context_stage_p50_ms": {k: round(_pct(v, 50), 3) for k, v in stage_ms.items()},
        "gc_during_reads": gc_pauses.summary(),
        # the same reads again after goodmemory.tune_process() in this process (see run()); the figures above are
        # an untuned process's
        "recall_tuned_p50_ms": round(_pct(recall_tuned_ms, 50), 3),
        "recall_tuned_p95_ms": round(_pct(recall_tuned_ms, 95), 3),
        "build_context_tuned_p50_ms": round(_pct(ctx_tuned_ms, 50), 3),
        "build_context_tuned_p95_ms": round(_pct(ctx_tuned_ms, 95), 3),
        "gc_during_reads_tuned": {**gc_tuned.summary(), "frozen_objects": tuned.get("frozen_objects")},
        "memories": ing.records,
        "messages": ing.messages,
        "vectors": int(mat.shape[0]),
        "queries": len(recall_ms),
        "max_tokens": args.max_tokens,
        "storage": args.storage or "sqlite (fresh temp file)",
        "embedder": base.name,
        "seed": args.seed,
        "torch_threads": args.torch_threads,
        "ingest_seconds": round(ing.seconds, 1),
    }
    return result


def _tail_rate(call_ms: Sequence[float]) -> float | None:
    tail = call_ms[-max(1, len(call_ms) // 10):]
    return round(len(tail) * BATCH_MESSAGES / (sum(tail) / 1e3), 2) if tail and sum(tail) > 0 else None


def table(r: dict[str, Any]) -> str:
    def f(v: Any, unit: str = "") -> str:
        if v is None:
            return "n/a"
        if isinstance(v, float):
            return f"{v:,.2f}{unit}" if v < 100 else f"{v:,.0f}{unit}"
        return f"{v:,}{unit}"

    floor50 = r["query_embed_p50_ms"] + r["bruteforce_p50_ms"]
    floor95 = r["query_embed_p95_ms"] + r["bruteforce_p95_ms"]
    rows = [
        ("stored records (memories)", f(r["memories"]), ""),
        ("messages remembered", f(r["messages"]), f"batches of {BATCH_MESSAGES}"),
        ("remember, MiniLM + rules", f(r["remember_msgs_per_s"], " msg/s"), "embeddings included"),
        ("remember per CPU-second", f(r["remember_msgs_per_cpu_s"], " msg/s"),
         "process CPU time inside remember (all threads): less sensitive to other processes than wall time"),
        ("remember per call p50 / p95", f"{f(r['remember_call_p50_ms'])} / {f(r['remember_call_p95_ms'])} ms",
         f"{BATCH_MESSAGES} messages a call; last 10% of the ingest: "
         f"{f(r['remember_last10pct_msgs_per_s'], ' msg/s')}; load average {r['load_average']}"),
        ("remember minus embedding time", f(r["extract_policy_msgs_per_s"], " msg/s"),
         "same run: extraction + write policy + SQLite, embeddings excluded; target >= 1,000"),
        ("remember, FakeEmbedder + rules", f(r["fake_embedder_msgs_per_s"], " msg/s"),
         "--fake-pass: same messages again, fresh SQLite file"),
        ("embedding share of remember time", f(r["embed_share_of_remember"]),
         "model time on any thread / remember wall time: the turns are embedded on a worker thread while "
         "extraction runs, so part of it overlaps ('minus embedding' above subtracts the caller's share only)"),
        ("texts embedded / model calls per remember", f"{f(r['texts_embedded_per_remember'])} / "
         f"{f(r['model_calls_per_remember'])}", "texts that reached the model (cache misses), per call"),
        ("second instance: create + remember + context", f"{f(r['second_instance_p50_ms'])} ms "
         f"(max {f(r['second_instance_max_ms'])})", "new SQLite file, warm process, 5 runs; target <= 50 ms"),
        ("RuleExtractor.extract alone", f(r["extract_only_msgs_per_s"], " msg/s"), "breakdown"),
        ("recall p50 / p95", f"{f(r['recall_p50_ms'])} / {f(r['recall_p95_ms'])} ms",
         "query embedding included; target p95 <= 25 ms"),
        ("build_context p50 / p95", f"{f(r['build_context_p50_ms'])} / {f(r['build_context_p95_ms'])} ms",
         f"max_tokens={r['max_tokens']}; target p95 <= 40 ms"),
        ("recall p50 / p95 after tune_process()", f"{f(r['recall_tuned_p50_ms'])} / {f(r['recall_tuned_p95_ms'])} ms",
         "the same queries again, after goodmemory.tune_process() (gc.freeze of what start-up left alive)"),
        ("build_context p50 / p95 after tune_process()",
         f"{f(r['build_context_tuned_p50_ms'])} / {f(r['build_context_tuned_p95_ms'])} ms",
         "the same queries again, after goodmemory.tune_process()"),
        ("tokens per context (mean)", f(r["tokens_per_context"]), ""),
        ("bytes on disk per record", f(r["bytes_per_memory"], " B"), "db + wal"),
        ("peak RSS", f(r["peak_rss_mb"], " MB"), "whole process, model included"),
        ("query embedding p50 / p95", f"{f(r['query_embed_p50_ms'])} / {f(r['query_embed_p95_ms'])} ms", "MiniLM, uncached"),
        ("numpy brute-force top-10 p50 / p95", f"{r['bruteforce_p50_ms']:.3f} / {r['bruteforce_p95_ms']:.3f} ms",
         f"exact, {r['vectors']:,} vectors"),
        ("floor (embed + brute force) p50 / p95", f"{f(floor50)} / {f(floor95)} ms", ""),
    ]
    g = r.get("gc_during_reads")
    if g:
        rows.append(("GC pauses while reads were timed", f"{g['collections']:,} ({g['full']} full), longest "
                     f"{f(g['max_pause_ms'])} ms", f"{2 * r['queries']:,} calls; a full collection walks every "
                     "object in the process (the model's too): gc.freeze() after start-up spares them"))
    gt = r.get("gc_during_reads_tuned")
    if gt:
        rows.append(("GC pauses after tune_process()", f"{gt['collections']:,} ({gt['full']} full), longest "
                     f"{f(gt['max_pause_ms'])} ms", f"{gt['frozen_objects']:,} objects frozen"))
    lines = [f"GoodMemory bench: seed {r['seed']}, storage {r['storage']}, embedder {r['embedder']}", "",
             "| metric | value | note |", "|---|---|---|"]
    lines += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    stages = r.get("build_context_stage_p50_ms") or {}
    if stages:
        lines += ["", "build_context stages, p50 ms: " + ", ".join(f"{k} {v:.2f}" for k, v in stages.items())]
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", type=int, default=0, help="seed of the synthetic user (default 0)")
    p.add_argument("--memories", type=int, default=None, help="stored records to reach (default 10,000; --quick 1,000)")
    p.add_argument("--queries", type=int, default=None, help="measured queries per call type (default 200; --quick 50)")
    p.add_argument("--storage", default=None, help="storage URL for create_good_memory (default: a fresh SQLite file)")
    p.add_argument("--max-tokens", type=int, default=800, help="build_context budget (default 800)")
    p.add_argument("--json", dest="json_path", default=None, metavar="PATH", help="write the figures as JSON")
    p.add_argument("--quick", action="store_true", help="1,000 records and 50 queries (CI)")
    p.add_argument("--no-progress", action="store_true", help="no progress bars on stderr")
    p.add_argument("--fake-pass", action="store_true",
                   help="also re-run the ingest with FakeEmbedder (adds minutes at 10k records)")
    p.add_argument("--cold", action="store_true",
                   help="only the start-up: new processes to their first build_context (scripts/_bench_cold.py)")
    p.add_argument("--cold-runs", type=int, default=5, help="timed processes for --cold (default 5)")
    p.add_argument("--torch-threads", type=int, default=None,
                   help="torch intra-op threads for the embedder (default: torch's own choice)")
    args = p.parse_args(argv)
    if args.memories is None:
        args.memories = 1000 if args.quick else 10_000
    if args.queries is None:
        args.queries = 50 if args.quick else 200
    if args.memories < 1 or args.queries < 1:
        p.error("--memories and --queries must be positive")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.cold:
        from _bench_cold import cold_table, run_cold  # scripts/ is on sys.path when run as a script

        result = run_cold(args.cold_runs)
        print(cold_table(result))
    else:
        result = run(args)
        print(table(result))
    if args.json_path:
        Path(args.json_path).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
