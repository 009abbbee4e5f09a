from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from goodmemory.errors import StorageError, StorageUnavailableError
from goodmemory.storage.base import TextQuery, WriteBatch
from goodmemory.storage.memory import InMemoryStorage
from goodmemory.storage.sql import SQLStorage
from goodmemory.testing.conformance import StorageConformance, make_record


class TestInMemoryStorage(StorageConformance):
    @pytest.fixture
    def storage(self) -> Iterator[InMemoryStorage]:
        s = InMemoryStorage()
        yield s
        s.close()


class TestSQLiteInMemory(StorageConformance):
    @pytest.fixture
    def storage(self) -> Iterator[SQLStorage]:
        s = SQLStorage("sqlite://")
        yield s
        s.close()


class TestSQLiteFile(StorageConformance):
    @pytest.fixture
    def storage(self, tmp_path: Path) -> Iterator[SQLStorage]:
        s = SQLStorage(f"sqlite:///{tmp_path / 'gm.db'}")
        yield s
        s.close()


def test_sqlite_lists_of_a_kind_use_the_kind_index_without_statistics(tmp_path: Path) -> None:
    """A store not yet closed once has no planner statistics; build_context's per-kind lists must not
    walk the user's (user_id, created_at) index over every row (measured 5 ms -> 0.3 ms at 10k)."""
    from goodmemory.models import MemoryKind
    from goodmemory.storage.base import MemoryFilter

    s = SQLStorage(f"sqlite:///{tmp_path / 'gm.db'}")
    try:
        s.write("u", WriteBatch(inserts=[make_record("u", f"turn {i}", key=f"episode.{i}", kind=MemoryKind.EPISODE,
                                                     minutes=i) for i in range(50)]))
        with s._conn() as conn:
            assert conn.exec_driver_sql("SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'"
                                        ).scalar_one() == 0
            for flt, limit in [(MemoryFilter(kinds=(MemoryKind.PROFILE,), visible_in_domain="travel"), None),
                               (MemoryFilter(kinds=(MemoryKind.OPEN_LOOP,), newest_first=True), 30)]:
                stmt = s._list_select("u", flt, limit).compile(conn, compile_kwargs={"literal_binds": True})
                plan = " ".join(r[-1] for r in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {stmt}"))
                assert "gm_mem_user_kind" in plan, plan
    finally:
        s.close()


def test_sqlite_text_search_scores_rare_terms_first(tmp_path: Path) -> None:
    """A term most rows contain is not scored when rarer terms fill the budget (FTS5 counts the rows)."""
    s = SQLStorage(f"sqlite:///{tmp_path / 'gm.db'}", text_rank_budget_rows=50)
    try:
        recs = [make_record("u", f"common words everywhere note {i}" + (" with rare okapi" if i < 3 else ""),
                            minutes=i) for i in range(300)]
        s.write_bulk("u", WriteBatch(inserts=recs))
        assert {m for m, _ in s.search_text("u", TextQuery("common okapi", limit=500))} == {r.id for r in recs[:3]}
        assert len(s.search_text("u", TextQuery("common", limit=500))) == 300  # a lone term is kept
        roomy = SQLStorage(f"sqlite:///{tmp_path / 'gm.db'}")  # the default budget keeps both terms here
        try:
            assert len(roomy.search_text("u", TextQuery("common okapi", limit=500))) == 300
        finally:
            roomy.close()
    finally:
        s.close()


# -- PostgreSQL (runs when GOODMEMORY_TEST_POSTGRES_URL is set; CI starts a server) -----------------
PG_URL = os.environ.get("GOODMEMORY_TEST_POSTGRES_URL")


@pytest.mark.postgres
class TestPostgres(StorageConformance):
    @pytest.fixture
    def storage(self, pg_schema: str) -> Iterator[Any]:
        from goodmemory.storage.postgres import PostgresStorage

        s = PostgresStorage(str(PG_URL), schema=pg_schema)
        yield s
        s.close()

    # -- PostgreSQL specifics: lifecycle, pooling, errors ---------------------------------------
    def test_capabilities_are_declared(self, storage: Any) -> None:
        caps = storage.capabilities
        assert caps.multi_process and caps.persistent and caps.enforces_unique_active_slot
        assert not caps.exact_vectors  # HNSW is approximate

    def test_hnsw_index_per_partition_and_dim_in_meta(self, storage: Any, pg_schema: str) -> None:
        from sqlalchemy import text

        from goodmemory.storage import _schema as S

        a = make_record("u", "first vector")
        storage.write("u", WriteBatch(inserts=[a], vectors={a.id: np.ones(16, dtype=np.float32) / 4}))
        with storage.engine.connect() as conn:
            defs = conn.execute(text("SELECT tablename, indexdef FROM pg_indexes WHERE schemaname = :s AND "
                                     "indexname LIKE 'gm_vec_hnsw_p%'"), {"s": pg_schema}).all()
            dim = conn.execute(text("SELECT value FROM gm_meta WHERE name = 'dim'")).scalar_one()
            plan = "\n".join(r[0] for r in conn.execute(text(
                "EXPLAIN SELECT memory_id FROM gm_vectors WHERE user_id = 'u' ORDER BY emb <=> "
                "CAST(:q AS halfvec) LIMIT 5"), {"q": "[" + ",".join(["0.25"] * 16) + "]"}))
        assert len(defs) == S.VECTOR_PARTITIONS == len({t for t, _ in defs}) and dim == "16"
        assert all("hnsw" in d and "halfvec_cosine_ops" in d for _, d in defs)
        assert len(set(re.findall(r"gm_vectors_p\d+", plan))) == 1  # a user's search reads one partition

    def test_reopen_sees_data_and_dim(self, storage: Any, pg_schema: str) -> None:
        from goodmemory.storage.postgres import PostgresStorage

        a = make_record("u", "persisted across opens")
        storage.write("u", WriteBatch(inserts=[a], vectors={a.id: np.ones(16, dtype=np.float32) / 4}))
        other = PostgresStorage(str(PG_URL), schema=pg_schema)
        try:
            assert other.dim == 16 and [r.id for r in other.list("u")] == [a.id]
        finally:
            other.close()

    def test_text_search_scores_rare_terms_first(self, pg_schema: str) -> None:
        """With planner statistics, a term most rows contain is not scored when rarer terms fill the budget."""
        from sqlalchemy import text

        from goodmemory.storage.postgres import PostgresStorage

        s = PostgresStorage(str(PG_URL), schema=pg_schema, text_rank_budget_rows=50)
        try:
            recs = [make_record("u", f"common words everywhere note {i}" + (" with rare okapi" if i < 3 else ""),
                                minutes=i) for i in range(300)]
            s.write("u", WriteBatch(inserts=recs))
            assert len(s.search_text("u", TextQuery("common okapi", limit=500))) == 300  # no statistics yet
            with s.engine.begin() as conn:
                conn.execute(text("ANALYZE gm_memories"))
            s._stats_at = None  # refresh now instead of within minutes
            hits = s.search_text("u", TextQuery("common okapi", limit=500))
            assert {m for m, _ in hits} == {r.id for r in recs[:3]}
            assert len(s.search_text("u", TextQuery("common", limit=500))) == 300  # a lone term is kept
        finally:
            s.close()

    def test_text_search_weighs_rare_terms_higher_with_statistics(self, pg_schema: str) -> None:
        """ts_rank alone has no idf: a short row repeating a common word beat the row with the rare word the
        question is about. With planner statistics each term counts by its rarity, as BM25 does on SQLite."""
        from sqlalchemy import text

        from goodmemory.storage.postgres import PostgresStorage

        s = PostgresStorage(str(PG_URL), schema=pg_schema)
        try:
            recs = [make_record("u", f"common filler note number {i}", minutes=i) for i in range(300)]
            loud = make_record("u", "common common common", minutes=301)
            rare = make_record("u", "we finally saw an okapi at the zoo in the rain with the kids", minutes=302)
            s.write("u", WriteBatch(inserts=[*recs, loud, rare]))
            with s.engine.begin() as conn:
                conn.execute(text("ANALYZE gm_memories"))
            s._stats_at = None  # refresh now instead of within minutes
            hits = s.search_text("u", TextQuery("common okapi", limit=10))
            assert hits[0][0] == rare.id, hits[:3]
            assert hits[1][0] == loud.id
        finally:
            s.close()

    def test_close_releases_every_connection(self, pg_schema: str) -> None:
        from sqlalchemy import create_engine, text

        from goodmemory.storage.postgres import PostgresStorage

        s = PostgresStorage(f"{PG_URL}?pool_size=3&max_overflow=1", schema=pg_schema)
        assert s.engine.pool.size() == 3  # type: ignore[attr-defined]
        s.write("u", WriteBatch(inserts=[make_record("u", "x")]))
        s.list("u")
        admin = create_engine(str(PG_URL))

        def backends() -> int:
            with admin.connect() as conn:
                return int(conn.execute(text(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'goodmemory' "
                    "AND pid <> pg_backend_pid()")).scalar_one())

        before = backends()
        assert before >= 1
        s.close()
        deadline = time.time() + 5
        while backends() >= before and time.time() < deadline:
            time.sleep(0.05)
        assert backends() < before
        with pytest.raises(StorageError):
            s.list("u")
        admin.dispose()

    def test_dropped_connection_is_retried_once(self, storage: Any) -> None:
        from sqlalchemy import create_engine, text

        storage.write("u", WriteBatch(inserts=[make_record("u", "survives a dropped connection")]))
        with storage.engine.connect() as conn:  # the pooled connection the next call will reuse
            pid = conn.execute(text("SELECT pg_backend_pid()")).scalar_one()
        admin = create_engine(str(PG_URL))
        with admin.begin() as conn:  # kill exactly that backend (never other sessions of this role)
            assert conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid}).scalar_one()
        admin.dispose()
        assert [r.text for r in storage.list("u")] == ["survives a dropped connection"]
        # without pre-ping the dead connection reaches the query itself: retried once, then fine
        storage.engine.pool._pre_ping = False  # type: ignore[attr-defined]
        with storage.engine.connect() as conn:
            pid = conn.execute(text("SELECT pg_backend_pid()")).scalar_one()
        admin = create_engine(str(PG_URL))
        with admin.begin() as conn:
            conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid})
        admin.dispose()
        time.sleep(0.1)
        assert storage.count("u") == 1

    def test_unreachable_server_names_host_and_database(self) -> None:
        from goodmemory.storage.postgres import PostgresStorage

        with pytest.raises(StorageUnavailableError, match=r"(?s)127\.0\.0\.1:1.*'nodb'.*running") as info:
            PostgresStorage("postgresql+psycopg://someone:secret-pw@127.0.0.1:1/nodb", connect_timeout_s=2)
        assert "secret-pw" not in str(info.value)

    def test_wrong_password_is_unavailable_not_a_leak(self) -> None:
        if not PG_URL:
            pytest.skip("GOODMEMORY_TEST_POSTGRES_URL is not set")
        from sqlalchemy.engine import make_url

        from goodmemory.storage.postgres import PostgresStorage

        bad = make_url(str(PG_URL)).set(password="definitely-wrong")
        with pytest.raises(StorageUnavailableError) as info:
            PostgresStorage(bad.render_as_string(hide_password=False))
        assert "definitely-wrong" not in str(info.value)

    def test_open_storage_returns_postgres(self, pg_schema: str) -> None:
        from goodmemory.memory import open_storage
        from goodmemory.storage.postgres import PostgresStorage

        s = open_storage(f"{PG_URL}?schema={pg_schema}")
        try:
            assert isinstance(s, PostgresStorage) and s.schema == pg_schema
        finally:
            s.close()
