"""Storage benchmark: PostgreSQL (tsvector + pgvector HNSW per user partition) vs SQLite (FTS5 + exact numpy).

    python scripts/bench_postgres.py --n 100000 --users 1 --out reports/bench/storage_100k.json
    python scripts/bench_postgres.py --n 1000000 --users 10 --out reports/bench/storage_1m.json

Prints one JSON document on stdout (and to ``--out``); progress bars go to stderr.

Data: vectors that behave like sentence embeddings
    1. Real sentences: every turn of LoCoMo (``--locomo``, default ``../shared/data/locomo/locomo10.json``
       when present) and every string of ``fixtures/*/*.yaml``, deduplicated, at least four words
       (about 7,700). 500 are held out as queries; the rest are the bases.
    2. Each is embedded once with the packaged MiniLM (all-MiniLM-L6-v2, the default embedder); the
       matrix is cached in ``~/.cache/goodmemory/bench`` by a hash of the sentences.
    3. Memory ``k`` gets ``v = normalize(e_i + b * e_j + s * x)``: ``i, j`` uniform base sentences,
       ``b ~ U(0, 0.5)``, ``s = 0.6`` (``--noise``) and ``x ~ N(0, C)`` with ``C`` the covariance of
       the base embeddings, so the noise stays in the anisotropic subspace real embeddings occupy.
       Its text is sentence ``i``. The JSON's ``data`` section compares nearest-neighbour cosines of
       the real bases and of the derived vectors (measured here: real queries -> 7k real bases top-1
       0.66 / top-10 0.51; -> 7k derived 0.71 / 0.47), so the derived set is neither trivially
       clustered nor uniform noise.
    4. Memory ``k`` belongs to user ``k mod users``: each user's rows spread over the whole space.
    Queries are the held-out real sentences (their MiniLM vectors for vector search, their text for
    ``recall``); query ``q`` asks user ``q mod users``. recall@10 compares ``search_vector(limit=10)``
    with the exact cosine top-10 of that user's rows (numpy, float32).

Measured per backend:
    - ingest, bulk: ``write_bulk`` per user (one transaction each; PostgreSQL: COPY, and the
      partition's HNSW index rebuilt after a large load; SQLite: executemany), rows + vectors + one
      event each, vectors precomputed; and the time spent building HNSW indexes;
    - then (PostgreSQL) ``VACUUM (ANALYZE)``, as autovacuum would, a ``CHECKPOINT`` (with the
      ``pg_checkpoint`` role) so the load's dirty buffers are not written during the measurements,
      and ``pg_prewarm`` of the store's
      tables and indexes when the extension is installed (``CREATE EXTENSION pg_prewarm`` as a
      superuser), so latencies are those of a warm server, not of the first touches after a load
      (``--no-prewarm`` measures cold); both timed apart;
    - ingest, per row: ``write`` with one record (and vector and event) per call, on the loaded store;
    - ``search_vector`` p50/p95 at k=10 with recall@10 for each ``--ef-search`` (PostgreSQL), and at
      k=60 (what ``recall`` asks for);
    - ``search_text`` p50/p95;
    - ``GoodMemory.recall`` p50/p95 with MiniLM query embedding (reported apart as ``embed_p50_ms``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import re
import sys
import tempfile
import time
import uuid
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from goodmemory import GoodMemory
from goodmemory.models import MemoryKind, MemoryRecord, MemorySource
from goodmemory.storage.base import MemoryEvent, Storage, TextQuery, VectorQuery, WriteBatch, write_new
from goodmemory.testing import NullExtractor

ROOT = Path(__file__).resolve().parents[1]
T0 = datetime(2025, 1, 1, tzinfo=UTC)
KINDS = [MemoryKind.FACT, MemoryKind.PREFERENCE, MemoryKind.EPISODE, MemoryKind.PROFILE]


# -- progress -------------------------------------------------------------------------------------
def bar(it: Iterable[Any], *, desc: str, total: int | None = None, enabled: bool = True) -> Iterator[Any]:
    if not enabled:
        yield from it
        return
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm comes with sentence-transformers
        print(f"{desc} ...", file=sys.stderr)
        yield from it
        return
    yield from tqdm(it, desc=desc, total=total, file=sys.stderr, dynamic_ncols=True, mininterval=1.0)


# -- data -----------------------------------------------------------------------------------------
def real_sentences(locomo: Path | None, fixtures: Path) -> list[str]:
    """LoCoMo turns and fixture strings, whitespace-normalized, deduplicated, >= 4 words, in file order."""
    import yaml

    out: list[str] = []
    if locomo is not None and locomo.exists():
        for conv in json.loads(locomo.read_text(encoding="utf-8")):
            c = conv["conversation"]
            for k in sorted((k for k in c if re.fullmatch(r"session_\d+", k)), key=lambda s: int(s.split("_")[1])):
                out += [t["text"] for t in c[k] if isinstance(t.get("text"), str)]

    def walk(x: Any) -> Iterator[str]:
        if isinstance(x, str):
            yield x
        elif isinstance(x, dict):
            for v in x.values():
                yield from walk(v)
        elif isinstance(x, list):
            for v in x:
                yield from walk(v)

    for p in sorted(fixtures.glob("*/*.yaml")):
        out += list(walk(yaml.safe_load(p.read_text(encoding="utf-8"))))
    return list(dict.fromkeys(" ".join(s.split()) for s in out if len(s.split()) >= 4))


def embed_sentences(sentences: list[str], embedder_name: str, cache_dir: Path, progress: bool) -> np.ndarray:
    key = hashlib.sha256(("\n".join(sentences) + embedder_name).encode()).hexdigest()[:16]
    path = cache_dir / f"{embedder_name}-{key}.npy"
    if path.exists():
        return np.load(path)
    if embedder_name == "minilm":
        from goodmemory.embeddings import MiniLMEmbedder

        emb: Any = MiniLMEmbedder()
    else:
        from goodmemory.testing import FakeEmbedder

        emb = FakeEmbedder(384)
    parts = [emb.embed(sentences[i:i + 256]) for i in bar(range(0, len(sentences), 256), desc="embed sentences",
                                                          total=(len(sentences) + 255) // 256, enabled=progress)]
    mat = np.vstack(parts).astype(np.float32)
    cache_dir.mkdir(parents=True, exist_ok=True)
    np.save(path, mat)
    return mat


def derive(base: np.ndarray, n: int, rng: np.random.Generator, *, noise: float = 0.6,
           mix: float = 0.5) -> tuple[np.ndarray, np.ndarray]:
    """``n`` unit vectors ``normalize(e_i + b e_j + noise * x)``, ``x ~ N(0, cov(base))``; and each ``i``."""
    mu = base.mean(0)
    w, u = np.linalg.eigh(np.cov((base - mu).T))
    a = (u * np.sqrt(np.clip(w, 0, None))).astype(np.float32)
    out = np.empty((n, base.shape[1]), np.float32)
    parent = np.empty(n, np.int64)
    for s in range(0, n, 100_000):
        k = min(100_000, n - s)
        i = rng.integers(0, len(base), k)
        j = rng.integers(0, len(base), k)
        b = rng.uniform(0, mix, k).astype(np.float32)[:, None]
        v = base[i] + b * base[j] + noise * (rng.standard_normal((k, base.shape[1]), dtype=np.float32) @ a.T)
        v /= np.linalg.norm(v, axis=1, keepdims=True)
        out[s:s + k] = v
        parent[s:s + k] = i
    return out, parent


def nn_stats(points: np.ndarray, queries: np.ndarray, k: int = 10) -> dict[str, float]:
    sims = queries @ points.T
    top = -np.sort(-sims, axis=1)[:, :k]
    return {"top1_cos": round(float(top[:, 0].mean()), 3), f"top{k}_cos": round(float(top[:, k - 1].mean()), 3),
            "mean_cos": round(float(sims.mean()), 3)}


def records(user: str, rows: np.ndarray, parent: np.ndarray, sentences: list[str]) -> list[MemoryRecord]:
    return [MemoryRecord(
        user_id=user, kind=KINDS[r % 4], key=f"bench.m{r}", value=str(r), text=sentences[parent[r]],
        created_at=T0 + timedelta(seconds=int(r)), updated_at=T0 + timedelta(seconds=int(r)),
        source=MemorySource(session_id=f"s{r // 50}", message_ids=[f"s{r // 50}:{r % 50}"]),
    ) for r in rows.tolist()]


def batch_of(user: str, rows: np.ndarray, vecs: np.ndarray, parent: np.ndarray, sentences: list[str]) -> WriteBatch:
    recs = records(user, rows, parent, sentences)
    return WriteBatch(inserts=recs, vectors={r.id: vecs[row] for r, row in zip(recs, rows.tolist(), strict=True)},
                      events=[MemoryEvent(r.id, "import", T0, {}) for r in recs])


# -- measuring ------------------------------------------------------------------------------------
def pct(xs: list[float], p: float) -> float:
    return round(float(np.percentile(np.asarray(xs) * 1000, p)), 2)


def pg_settings(url: str) -> dict[str, str]:
    from sqlalchemy import create_engine

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            names = ["shared_buffers", "effective_cache_size", "work_mem", "maintenance_work_mem",
                     "max_parallel_maintenance_workers", "max_parallel_workers_per_gather", "server_version"]
            out = {n: str(conn.exec_driver_sql(f"SHOW {n}").scalar()) for n in names}
            out["pgvector"] = str(conn.exec_driver_sql(
                "SELECT extversion FROM pg_extension WHERE extname = 'vector'").scalar())
            return out
    finally:
        engine.dispose()


def open_backend(name: str, args: argparse.Namespace, workdir: Path, schema: str, **kw: Any) -> Storage:
    if name == "sqlite":
        from goodmemory.storage.sql import SQLStorage

        return SQLStorage(f"sqlite:///{workdir / 'bench.db'}")
    from goodmemory.storage.postgres import PostgresStorage

    return PostgresStorage(args.pg_url, schema=schema, **kw)


def vacuum(pg_url: str, schema: str) -> None:
    from sqlalchemy import create_engine

    engine = create_engine(pg_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.exec_driver_sql(f'SET search_path TO "{schema}", public')
        conn.exec_driver_sql("VACUUM (ANALYZE) gm_memories, gm_vectors, gm_events")
    engine.dispose()


def checkpoint(pg_url: str) -> float | None:
    from sqlalchemy import create_engine
    from sqlalchemy.exc import SQLAlchemyError

    engine = create_engine(pg_url, isolation_level="AUTOCOMMIT")
    t = time.perf_counter()
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql("CHECKPOINT")
        return round(time.perf_counter() - t, 1)
    except SQLAlchemyError:
        return None
    finally:
        engine.dispose()


def prewarm(pg_url: str, schema: str) -> int | None:
    """Load the schema's tables and indexes into shared_buffers with pg_prewarm; None if unavailable."""
    from sqlalchemy import create_engine, text

    engine = create_engine(pg_url)
    try:
        with engine.connect() as conn:
            if not conn.execute(text("SELECT 1 FROM pg_extension WHERE extname = 'pg_prewarm'")).first():
                return None
            blocks = conn.execute(text(
                "SELECT coalesce(sum(pg_prewarm(c.oid)), 0) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = :s AND c.relkind IN ('r', 'i')"), {"s": schema}).scalar_one()
            size = int(conn.execute(text("SELECT current_setting('block_size')::int")).scalar_one())
            return int(blocks) * size // 2**20
    finally:
        engine.dispose()


def drop_schema(pg_url: str, schema: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(pg_url)
    with engine.begin() as conn:
        conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    engine.dispose()


def bench(name: str, args: argparse.Namespace, d: dict[str, Any], workdir: Path) -> dict[str, Any]:
    vecs, parent, sentences = d["vecs"], d["parent"], d["sentences"]
    n, users = len(vecs), args.users
    schema = f"gm_bench_{uuid.uuid4().hex[:8]}"
    pg_kw = {"ef_search": args.ef_search[-1], "hnsw_ef_construction": args.ef_construction}
    storage = open_backend(name, args, workdir, schema, **pg_kw)
    res: dict[str, Any] = {"backend": name, "n": n, "users": users, "dim": int(vecs.shape[1]),
                           "loadavg_start": [round(x, 2) for x in os.getloadavg()]}
    if name == "postgres":
        res["settings"] = {**pg_settings(args.pg_url), "ef_construction": args.ef_construction, "m": 16,
                           "vector_type": "halfvec", "iterative_scan": "relaxed_order"}
    rows_of = {f"user{u}": np.arange(u, n, users) for u in range(users)}
    ids_of: dict[str, list[str]] = {}
    try:
        # 1. bulk: one write_bulk per user
        assert storage.capabilities.bulk_load
        bulk_s, gen_s, index_s = 0.0, 0.0, 0.0
        loads: list[dict[str, Any]] = []
        for user in bar(list(rows_of), desc=f"{name}: bulk load", enabled=args.progress):
            t = time.perf_counter()
            batch = batch_of(user, rows_of[user], vecs, parent, sentences)
            gen_s += time.perf_counter() - t
            ids_of[user] = [r.id for r in batch.inserts]
            t = time.perf_counter()
            write_new(storage, user, batch)
            bulk_s += time.perf_counter() - t
            plan = getattr(storage, "last_bulk", None)
            if plan is not None:  # PostgreSQL: where the load went and what it cost
                index_s += plan.index_build_s
                loads.append({"user": user, "partition": plan.partition, "rebuilt_index": plan.rebuilt_index,
                              **{k: round(v, 1) for k, v in plan.seconds.items()}})
        res["ingest_bulk_per_s"] = round(n / bulk_s, 1)
        res["ingest_bulk_s"] = round(bulk_s, 1)
        res["index_build_s"] = round(index_s, 1) if name == "postgres" else None
        res["record_generation_s"] = round(gen_s, 1)
        if loads:
            res["bulk_loads"] = loads
        if name == "postgres":
            # what autovacuum would do next (PostgreSQL's advice after a bulk load): timed, not in ingest
            t = time.perf_counter()
            vacuum(args.pg_url, schema)
            res["vacuum_analyze_s"] = round(time.perf_counter() - t, 1)
            # the load wrote gigabytes: flush them now rather than during the measurements (needs the
            # pg_checkpoint role; skipped without it)
            res["checkpoint_s"] = checkpoint(args.pg_url)
            if args.prewarm:
                # steady state of a server whose working set fits shared_buffers, without waiting for
                # thousands of queries to fault it in (needs CREATE EXTENSION pg_prewarm by a superuser)
                t = time.perf_counter()
                res["prewarmed_mb"] = prewarm(args.pg_url, schema)
                res["prewarm_s"] = round(time.perf_counter() - t, 1)

        # 2. per-row writes on the loaded store (user0), each its own transaction
        extra, extra_parent = derive(d["base"], args.per_row, np.random.default_rng(99), noise=args.noise)
        user0_vecs = [vecs[rows_of["user0"]], extra]
        all_parent = np.concatenate([parent, extra_parent])
        t_all = 0.0
        for k in bar(range(args.per_row), desc=f"{name}: per-row writes", enabled=args.progress):
            rec = records("user0", np.array([n + k]), all_parent, sentences)[0]
            b = WriteBatch(inserts=[rec], vectors={rec.id: extra[k]}, events=[MemoryEvent(rec.id, "add", T0, {})])
            t = time.perf_counter()
            storage.write("user0", b)
            t_all += time.perf_counter() - t
            ids_of["user0"].append(rec.id)
        res["ingest_per_row_per_s"] = round(args.per_row / t_all, 1) if args.per_row else None
        exact_mats = {u: (np.vstack(user0_vecs) if u == "user0" else vecs[r]) for u, r in rows_of.items()}

        # 3. vector search: recall@10 against exact top-10, latency at k=10 (per ef_search) and k=60
        q_vecs, q_texts = d["q_vecs"][: args.queries], d["q_texts"][: args.queries]
        q_users = [f"user{i % users}" for i in range(len(q_vecs))]
        # warm-up queries are other held-out sentences: caches warm, measured queries still unseen
        w_vecs, w_texts = d["q_vecs"][args.queries:], d["q_texts"][args.queries:]
        w_users = [f"user{i % users}" for i in range(len(w_vecs))]
        exact = []
        for qv, u in zip(q_vecs, q_users, strict=True):
            top = np.argpartition(-(exact_mats[u] @ qv), 10)[:10]
            exact.append({ids_of[u][i] for i in top.tolist()})
        searchers: list[tuple[int | None, Storage]] = [(None, storage)]
        if name == "postgres":
            searchers = [(ef, open_backend(name, args, workdir, schema, pool_size=1, ef_search=ef,
                                           hnsw_ef_construction=args.ef_construction)) for ef in args.ef_search]
        res["vector"] = []
        for ef, s in searchers:
            for qv, u in zip(w_vecs, w_users, strict=True):  # warm caches (SQLite: per-user matrices)
                s.search_vector(u, VectorQuery(qv, limit=60))
            lat, lat60, hits = [], [], 0
            for qv, u, ex in bar(list(zip(q_vecs, q_users, exact, strict=True)), desc=f"{name}: vector ef={ef}",
                                 enabled=args.progress):
                t = time.perf_counter()
                found = s.search_vector(u, VectorQuery(qv, limit=10))
                lat.append(time.perf_counter() - t)
                hits += len(ex & {m for m, _ in found})
                t = time.perf_counter()
                s.search_vector(u, VectorQuery(qv, limit=60))
                lat60.append(time.perf_counter() - t)
            res["vector"].append({"ef_search": ef, "p50_ms": pct(lat, 50), "p95_ms": pct(lat, 95),
                                  "recall_at_10": round(hits / (10 * len(q_vecs)), 4),
                                  "k60_p50_ms": pct(lat60, 50), "k60_p95_ms": pct(lat60, 95)})
            if s is not storage:
                s.close()

        # 4. full-text search and full recall (MiniLM query embedding included)
        tlat = []
        for q, u in zip(q_texts, q_users, strict=True):
            t = time.perf_counter()
            storage.search_text(u, TextQuery(q, limit=60))
            tlat.append(time.perf_counter() - t)
        res["text_p50_ms"], res["text_p95_ms"] = pct(tlat, 50), pct(tlat, 95)
        mem = GoodMemory(storage, embedder=d["embedder"], extractor=NullExtractor(), owns_storage=False)
        for q, u in zip(w_texts[:50], w_users[:50], strict=True):
            mem.recall(q, user_id=u)
        elat, rlat = [], []
        for q, u in bar(list(zip(q_texts, q_users, strict=True)), desc=f"{name}: recall", enabled=args.progress):
            t = time.perf_counter()
            d["embedder"].embed(["embed only: " + q])
            elat.append(time.perf_counter() - t)
            t = time.perf_counter()
            mem.recall(q, user_id=u, limit=10)
            rlat.append(time.perf_counter() - t)
        res["recall_p50_ms"], res["recall_p95_ms"] = pct(rlat, 50), pct(rlat, 95)
        res["embed_p50_ms"] = pct(elat, 50)
    finally:
        storage.close()
        if name == "postgres" and not args.keep:
            drop_schema(args.pg_url, schema)
    res["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    return res


def load_data(args: argparse.Namespace) -> dict[str, Any]:
    sentences = real_sentences(args.locomo, ROOT / "fixtures")
    if args.max_sentences:
        sentences = sentences[: args.max_sentences]
    mat = embed_sentences(sentences, args.embedder, args.cache, args.progress)
    rng = np.random.default_rng(args.seed)
    perm = rng.permutation(len(sentences))
    held = min(500, len(sentences) // 5)
    q_idx, b_idx = perm[:held], perm[held:]
    base = mat[b_idx]
    base_sentences = [sentences[i] for i in b_idx.tolist()]
    t = time.perf_counter()
    vecs, parent = derive(base, args.n, rng, noise=args.noise)
    q_vecs = mat[q_idx]
    sample = vecs[: min(len(base), args.n)]
    if args.embedder == "minilm":
        from goodmemory.embeddings import MiniLMEmbedder

        embedder: Any = MiniLMEmbedder()
    else:
        from goodmemory.testing import FakeEmbedder

        embedder = FakeEmbedder(384)
    return {
        "sentences": base_sentences, "base": base, "vecs": vecs, "parent": parent, "q_vecs": q_vecs,
        "q_texts": [sentences[i] for i in q_idx.tolist()], "embedder": embedder,
        "stats": {"sentences": len(sentences), "bases": len(base), "queries": held,
                  "derive_s": round(time.perf_counter() - t, 1),
                  "real_queries_vs_real_bases": nn_stats(base, q_vecs),
                  f"real_queries_vs_{len(sample)}_derived": nn_stats(sample, q_vecs),
                  f"real_queries_vs_all_{args.n}_derived": nn_stats(vecs[: min(args.n, 200_000)], q_vecs[:100]),
                  "method": f"normalize(e_i + U(0,0.5) e_j + {args.noise} x), x ~ N(0, cov(bases))"},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=100_000, help="memories in total")
    ap.add_argument("--users", type=int, default=1, help="the memories are spread evenly over this many users")
    ap.add_argument("--queries", type=int, default=200, help="measured; the other held-out sentences warm up")
    ap.add_argument("--per-row", type=int, default=1000, help="single-record writes timed after the bulk load")
    ap.add_argument("--ef-search", default="40,100", help="PostgreSQL hnsw.ef_search values to measure")
    ap.add_argument("--ef-construction", type=int, default=32)
    ap.add_argument("--noise", type=float, default=0.6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--backends", default="postgres,sqlite")
    ap.add_argument("--pg-url", default=os.environ.get("GOODMEMORY_TEST_POSTGRES_URL"))
    ap.add_argument("--locomo", type=Path, default=ROOT.parent / "shared" / "data" / "locomo" / "locomo10.json")
    ap.add_argument("--embedder", choices=["minilm", "hashing"], default="minilm",
                    help="hashing: fast and meaningless, for smoke tests of this script only")
    ap.add_argument("--max-sentences", type=int, default=0, help="use only the first N sentences (smoke tests)")
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "goodmemory" / "bench")
    ap.add_argument("--keep", action="store_true", help="keep the PostgreSQL schema")
    ap.add_argument("--no-prewarm", dest="prewarm", action="store_false",
                    help="measure PostgreSQL with cold buffers (default: pg_prewarm the loaded store if installed)")
    ap.add_argument("--no-progress", dest="progress", action="store_false")
    ap.add_argument("--out", type=Path, help="also write the JSON here")
    args = ap.parse_args()
    args.ef_search = [int(x) for x in args.ef_search.split(",") if x.strip()]
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    if "postgres" in backends and not args.pg_url:
        sys.exit("no PostgreSQL URL: pass --pg-url or set GOODMEMORY_TEST_POSTGRES_URL "
                 "(bash scripts/postgres.sh start prints one)")
    if args.n % args.users:
        sys.exit("--n must be a multiple of --users")
    started = time.perf_counter()
    d = load_data(args)
    out: dict[str, Any] = {
        "n": args.n, "users": args.users, "queries": args.queries, "data": d["stats"],
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "loadavg_start": [round(x, 2) for x in os.getloadavg()]},
        "runs": [],
    }
    with tempfile.TemporaryDirectory() as tmp:
        for name in backends:
            out["runs"].append(bench(name, args, d, Path(tmp)))
            print(json.dumps(out["runs"][-1]), file=sys.stderr, flush=True)
    out["machine"]["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    out["wall_s"] = round(time.perf_counter() - started, 1)
    text_ = json.dumps(out, indent=2)
    print(text_)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text_ + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
