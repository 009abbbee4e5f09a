"""Storage settings in ``GoodMemoryConfig.storage`` reach the adapter ``create_good_memory`` opens,
are validated by pydantic, and ``close()`` gives every PostgreSQL connection back to the server."""

from __future__ import annotations

import os
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from sqlalchemy import create_engine, text

from goodmemory import create_good_memory
from goodmemory.config import GoodMemoryConfig, StorageConfig
from goodmemory.errors import ConfigurationError
from goodmemory.testing import FakeEmbedder, NullExtractor

PG_URL = os.environ.get("GOODMEMORY_TEST_POSTGRES_URL")


@pytest.mark.parametrize("bad", [
    {"pool_size": 0}, {"max_overflow": -1}, {"pool_timeout_s": 0}, {"ef_search": 0},
    {"iterative_scan": "sometimes"}, {"pg_schema": "x; DROP TABLE y"}, {"application_name": ""},
    {"bulk_reindex_fraction": 1.5}, {"index_build_memory_mb": 1}, {"pool_sise": 3}, {"hnsw_m": 32},
])
def test_invalid_storage_settings_are_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        StorageConfig(**bad)
    with pytest.raises(ConfigurationError, match="storage"):
        create_good_memory("sqlite://", config={"storage": bad}, embedder=FakeEmbedder())


def test_defaults_match_the_adapters() -> None:
    """The config's defaults are the adapters' own, so an empty config changes nothing."""
    import inspect

    from goodmemory.storage.postgres import PostgresStorage
    from goodmemory.storage.sql import SQLStorage

    cfg = StorageConfig()
    for cls, opts in ((PostgresStorage, cfg.postgres_options()), (SQLStorage, cfg.sqlite_options())):
        params = inspect.signature(cls.__init__).parameters
        assert {k: params[k].default for k in opts} == opts, cls.__name__
    assert GoodMemoryConfig().storage == cfg


def test_sqlite_settings_reach_the_connection(tmp_path: Path) -> None:
    cfg = {"storage": {"busy_timeout_ms": 1234, "vacuum_on_delete": False}}
    with create_good_memory(f"sqlite:///{tmp_path / 'gm.db'}", config=cfg, embedder=FakeEmbedder()) as mem:
        storage: Any = mem.storage
        assert storage.vacuum_on_delete is False
        with storage.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 1234


# -- PostgreSQL --------------------------------------------------------------------------------------
def _backends(app: str) -> int:
    admin = create_engine(str(PG_URL), poolclass=None)
    try:
        with admin.connect() as conn:
            return int(conn.execute(text(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = :a"), {"a": app}).scalar_one())
    finally:
        admin.dispose()


@pytest.mark.postgres
def test_pool_and_session_settings_reach_the_engine(pg_schema: str) -> None:
    app = f"gm-test-{uuid.uuid4().hex[:8]}"
    cfg = {"storage": {"pool_size": 3, "max_overflow": 2, "pool_timeout_s": 7, "pool_recycle_s": 600,
                       "pool_pre_ping": True, "connect_timeout_s": 4, "application_name": app,
                       "pg_schema": pg_schema, "ef_search": 77,
                       "iterative_scan": "strict_order", "hnsw_m": 12, "hnsw_ef_construction": 48}}
    with create_good_memory(str(PG_URL), config=cfg, embedder=FakeEmbedder(16), extractor=NullExtractor()) as mem:
        storage: Any = mem.storage
        pool = storage.engine.pool
        assert (pool.size(), pool._max_overflow, pool._timeout, pool._recycle, pool._pre_ping) == (3, 2, 7, 600, True)
        assert storage.schema == pg_schema and storage.options.connect_timeout_s == 4
        mem.remember([{"role": "user", "content": "I keep bees in Porto."}], user_id="u")
        with storage.engine.connect() as conn:
            shown = {name: conn.execute(text(f"SHOW {name}")).scalar_one()
                     for name in ("hnsw.ef_search", "hnsw.iterative_scan", "application_name", "search_path")}
            idx = conn.execute(text("SELECT indexdef FROM pg_indexes WHERE schemaname = :s AND indexname LIKE "
                                    "'gm_vec_hnsw_p%' LIMIT 1"), {"s": pg_schema}).scalar_one()
        assert shown["hnsw.ef_search"] == "77" and shown["hnsw.iterative_scan"] == "strict_order"
        assert shown["application_name"] == app and shown["search_path"].strip('"').startswith(pg_schema)
        assert "m='12'" in idx.replace(" ", "") and "ef_construction='48'" in idx.replace(" ", "")
    # a URL parameter wins over the config
    with create_good_memory(f"{PG_URL}?pool_size=4", config=cfg, embedder=FakeEmbedder(16)) as mem:
        assert mem.storage.engine.pool.size() == 4  # type: ignore[attr-defined]


@pytest.mark.postgres
def test_close_releases_every_connection(pg_schema: str) -> None:
    app = f"gm-test-{uuid.uuid4().hex[:8]}"
    cfg = {"storage": {"pool_size": 3, "max_overflow": 2, "application_name": app, "pg_schema": pg_schema}}
    mem = create_good_memory(str(PG_URL), config=cfg, embedder=FakeEmbedder(16), extractor=NullExtractor())
    storage: Any = mem.storage
    # hold every connection the pool may open at once, then use it from several threads
    held = [storage.engine.connect() for _ in range(5)]
    for c in held:
        c.execute(text("SELECT 1"))
    assert _backends(app) == 5
    for c in held:
        c.close()

    def work(i: int) -> None:
        mem.remember([{"role": "user", "content": f"Note {i}: the gate code is {i}."}], user_id=f"u{i % 2}")
        mem.recall("gate code", user_id=f"u{i % 2}")

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert 1 <= _backends(app) <= 5
    mem.close()
    deadline = time.time() + 10
    while _backends(app) and time.time() < deadline:
        time.sleep(0.05)
    assert _backends(app) == 0
