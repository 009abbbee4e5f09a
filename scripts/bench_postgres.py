"""Storage benchmark: PostgreSQL (tsvector + pgvector HNSW) vs SQLite (FTS5 + exact numpy).

    python scripts/bench_postgres.py --n 100000 --users 1
    python scripts/bench_postgres.py --n 1000000 --users 10 --backends postgres

Measures, per backend:
- bulk ingest rate (memories/s) with precomputed vectors, through ``Storage.write``
  in batches (one transaction per batch, like a bulk import);
- ``search_vector`` latency p50/p95 and recall@10 against exact cosine top-10
  computed in numpy over the same float32 vectors;
- ``search_text`` latency p50/p95;
- end-to-end ``GoodMemory.recall`` p50/p95 (hashing embedder, so the query
  embedding costs microseconds and the figure is storage + ranking).

Vectors are clustered synthetic unit vectors (random Gaussian vectors have no
neighbourhood structure and say little about an ANN index on real
embeddings); texts are drawn from a small vocabulary. The PostgreSQL URL
comes from ``--pg-url`` or ``GOODMEMORY_TEST_POSTGRES_URL``; each run uses a
fresh schema that is dropped afterwards unless ``--keep``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import numpy as np

from goodmemory import GoodMemory
from goodmemory.models import MemoryKind, MemoryRecord, MemorySource
from goodmemory.storage.base import Storage, TextQuery, VectorQuery, WriteBatch
from goodmemory.testing import FakeEmbedder, NullExtractor

WORDS = ["apple", "river", "mountain", "coffee", "tea", "bike", "car", "train", "flight", "hotel", "doctor", "dentist", "gym", "yoga", "tennis", "piano", "guitar", "python", "rust", "garden", "tomato", "basil", "cat", "dog", "parrot", "lisbon", "porto", "berlin", "tokyo", "paris", "sister", "brother", "mother", "father", "birthday", "anniversary", "meeting", "deadline", "project", "budget", "invoice", "salary", "rent", "mortgage", "insurance", "allergy", "peanut", "gluten", "vegan", "sushi", "pizza", "pasta", "window", "aisle", "seat", "spanish", "german", "french", "japanese", "book", "novel", "poetry", "jazz", "rock", "opera", "museum", "beach", "hiking", "skiing", "running", "swimming", "marathon", "camera", "laptop", "phone"]


def clustered_vectors(n: int, dim: int, rng: np.random.Generator, clusters: int = 1000) -> np.ndarray:
    centers = rng.standard_normal((clusters, dim)).astype(np.float32)
    assign = rng.integers(0, clusters, n)
    out = centers[assign] + 0.6 * rng.standard_normal((n, dim)).astype(np.float32)
    out /= np.linalg.norm(out, axis=1, keepdims=True)
    return out


def make_records(user: str, start: int, n: int, rng: np.random.Generator) -> list[MemoryRecord]:
    recs = []
    for i in range(start, start + n):
        words = " ".join(rng.choice(WORDS, 6))
        recs.append(MemoryRecord(
            user_id=user, kind=MemoryKind.FACT, key=f"bench.m{i}", value=str(i), text=f"Note {i}: {words}.",
            source=MemorySource(session_id=f"s{i // 100}", message_ids=[f"s{i // 100}:{i}"]),
        ))
    return recs


def pct(xs: list[float], p: float) -> float:
    return float(np.percentile(np.asarray(xs) * 1000, p))


def open_backend(name: str, pg_url: str | None, workdir: Path) -> tuple[Storage, Any]:
    if name == "sqlite":
        from goodmemory.storage.sql import SQLStorage

        return SQLStorage(f"sqlite:///{workdir / 'bench.db'}"), None
    from goodmemory.storage.postgres import PostgresStorage

    if not pg_url:
        sys.exit("no PostgreSQL URL: pass --pg-url or set GOODMEMORY_TEST_POSTGRES_URL "
                 "(bash scripts/postgres.sh start prints one)")
    schema = f"gm_bench_{uuid.uuid4().hex[:8]}"
    return PostgresStorage(pg_url, schema=schema), schema


def drop_schema(pg_url: str, schema: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(pg_url)
    with engine.begin() as conn:
        conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    engine.dispose()


def bench(name: str, args: argparse.Namespace, vecs: np.ndarray, workdir: Path) -> dict[str, Any]:
    rng = np.random.default_rng(7)
    storage, schema = open_backend(name, args.pg_url, workdir)
    users = [f"user{u}" for u in range(args.users)]
    per_user = args.n // args.users
    res: dict[str, Any] = {"backend": name, "n": per_user * args.users, "users": args.users, "dim": args.dim}
    try:
        t0 = time.perf_counter()
        written = 0
        for u, user in enumerate(users):
            for start in range(0, per_user, args.batch):
                k = min(args.batch, per_user - start)
                recs = make_records(user, u * per_user + start, k, rng)
                base = u * per_user + start
                storage.write(user, WriteBatch(inserts=recs, vectors={r.id: vecs[base + j] for j, r in
                                                                     enumerate(recs)}))
                written += k
                if args.progress and written % (args.batch * 20) == 0:
                    el = time.perf_counter() - t0
                    print(f"  {name}: {written} written, {written / el:.0f}/s", file=sys.stderr)
        ingest_s = time.perf_counter() - t0
        res["ingest_per_s"] = round(written / ingest_s, 1)
        res["ingest_s"] = round(ingest_s, 1)

        # queries: perturbed stored vectors of the first user (its own neighbourhood)
        user = users[0]
        qidx = rng.integers(0, per_user, args.queries)
        queries = vecs[qidx] + 0.3 * rng.standard_normal((args.queries, args.dim)).astype(np.float32)
        queries /= np.linalg.norm(queries, axis=1, keepdims=True)
        user_vecs = vecs[:per_user]
        ids_by_row = [r.id for r in storage.list(user, limit=None)]  # created_at ties: map by key instead
        key_to_id = {r.key: r.id for r in storage.list(user)}
        _ = ids_by_row
        row_ids = [key_to_id[f"bench.m{i}"] for i in range(per_user)]
        storage.search_vector(user, VectorQuery(queries[0], limit=10))  # warm (SQLite builds its matrix)
        lat: list[float] = []
        recall_hits = 0
        for q in queries:
            t = time.perf_counter()
            hits = storage.search_vector(user, VectorQuery(q, limit=10))
            lat.append(time.perf_counter() - t)
            exact = np.argpartition(-(user_vecs @ q), 10)[:10]
            recall_hits += len({row_ids[i] for i in exact} & {m for m, _ in hits})
        res["vector_p50_ms"] = round(pct(lat, 50), 2)
        res["vector_p95_ms"] = round(pct(lat, 95), 2)
        res["recall_at_10"] = round(recall_hits / (10 * len(queries)), 4)

        tlat: list[float] = []
        for _ in range(args.queries):
            q = " ".join(rng.choice(WORDS, 3))
            t = time.perf_counter()
            storage.search_text(user, TextQuery(q, limit=50))
            tlat.append(time.perf_counter() - t)
        res["text_p50_ms"] = round(pct(tlat, 50), 2)
        res["text_p95_ms"] = round(pct(tlat, 95), 2)

        mem = GoodMemory(storage, embedder=FakeEmbedder(args.dim), extractor=NullExtractor(), owns_storage=False)
        mem.recall("warm up coffee", user_id=user)
        rlat: list[float] = []
        for _ in range(args.queries):
            q = "what about " + " ".join(rng.choice(WORDS, 3))
            t = time.perf_counter()
            mem.recall(q, user_id=user, limit=10)
            rlat.append(time.perf_counter() - t)
        res["recall_p50_ms"] = round(pct(rlat, 50), 2)
        res["recall_p95_ms"] = round(pct(rlat, 95), 2)
    finally:
        storage.close()
        if schema and not args.keep:
            drop_schema(args.pg_url, schema)
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--users", type=int, default=1)
    ap.add_argument("--dim", type=int, default=384)
    ap.add_argument("--batch", type=int, default=1000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--backends", default="postgres,sqlite")
    ap.add_argument("--pg-url", default=os.environ.get("GOODMEMORY_TEST_POSTGRES_URL"))
    ap.add_argument("--keep", action="store_true", help="keep the PostgreSQL schema")
    ap.add_argument("--progress", action="store_true")
    ap.add_argument("--out", type=Path, help="write the results as JSON here")
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    vecs = clustered_vectors(args.n, args.dim, rng)
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in [b.strip() for b in args.backends.split(",") if b.strip()]:
            r = bench(name, args, vecs, Path(tmp))
            print(json.dumps(r), flush=True)
            results.append(r)
    if args.out:
        args.out.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
