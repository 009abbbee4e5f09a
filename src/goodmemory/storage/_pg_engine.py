"""Connection side of ``PostgresStorage``: options, URL parsing, the pooled engine, error classes.

Options come from keyword arguments (``GoodMemoryConfig.storage`` passes
them) and may be overridden per URL with query parameters (``pool_size``,
``max_overflow``, ``pool_timeout``, ``schema``, ``ef_search``). Every
pooled connection gets the session settings the adapter relies on: the
search path of ``schema``, pgvector's ``hnsw.ef_search`` and
``hnsw.iterative_scan``, and ``plan_cache_mode = force_custom_plan``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, NoSuchModuleError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from ..errors import (
    ConfigurationError,
    GoodMemoryError,
    InvalidInputError,
    StorageError,
    StorageUnavailableError,
)
from ._pg_sql import integrity_error, orig_msg

__all__ = ["ITERATIVE_SCANS", "PgOptions", "classify", "ensure_pgvector", "make_engine", "parse_url", "run",
           "where_msg"]

T = TypeVar("T")

ITERATIVE_SCANS = ("relaxed_order", "strict_order", "off")
# SQLSTATEs worth one more try: serialization failure, deadlock (neither expected: writers serialize
# on an advisory lock first, but a retry is cheaper than an error), and a terminated backend.
_TRANSIENT = {"40001", "40P01"}
_DISCONNECT_STATES = {"57P01", "57P02", "57P03"}
_URL_OPTIONS = {"pool_size": "pool_size", "max_overflow": "max_overflow", "pool_timeout": "pool_timeout_s",
                "schema": "schema", "ef_search": "ef_search"}


@dataclass(frozen=True)
class PgOptions:
    pool_size: int = 5
    max_overflow: int = 5
    pool_timeout_s: float = 30
    pool_recycle_s: int = 1800
    # off: a dropped connection already fails the statement and the adapter retries once; the ping
    # would cost a round trip on every checkout (measured p50 4.6 -> 1.7 ms per search, with autocommit)
    pool_pre_ping: bool = False
    connect_timeout_s: int = 10
    schema: str | None = None
    ef_search: int = 100
    iterative_scan: str = "relaxed_order"
    application_name: str = "goodmemory"
    echo: bool = False

    def check(self) -> PgOptions:
        if self.pool_size < 1 or self.max_overflow < 0 or self.pool_timeout_s <= 0 or self.ef_search < 1:
            raise InvalidInputError("pool_size >= 1, max_overflow >= 0, pool_timeout > 0 and ef_search >= 1")
        if self.connect_timeout_s < 1:
            raise InvalidInputError("connect_timeout_s >= 1")
        s = self.schema
        if s is not None and (not s or not s.replace("_", "").isalnum() or s[0].isdigit()):
            raise InvalidInputError(f"schema must be a plain identifier (letters, digits, _), got {s!r}")
        if self.iterative_scan not in ITERATIVE_SCANS:
            raise InvalidInputError(f"iterative_scan must be one of {ITERATIVE_SCANS}, got {self.iterative_scan!r}")
        name = self.application_name
        if not name or len(name) > 63 or not name.isprintable():
            raise InvalidInputError("application_name must be 1-63 printable characters")
        return self


def parse_url(url: str, opts: PgOptions) -> tuple[URL, PgOptions]:
    """The engine URL (psycopg 3 driver, option parameters removed) and the options it overrides."""
    if not isinstance(url, str) or not url.startswith("postgresql"):
        raise InvalidInputError(f"not a PostgreSQL URL: {url!r}; use postgresql+psycopg://user:pw@host/db")
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise InvalidInputError(f"malformed PostgreSQL URL: {exc}") from exc
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    if parsed.drivername != "postgresql+psycopg":
        raise InvalidInputError(f"unsupported PostgreSQL driver {parsed.drivername!r}: use postgresql+psycopg://")
    query = dict(parsed.query)
    found: dict[str, Any] = {}
    for name, field in _URL_OPTIONS.items():
        if name in query:
            raw = query.pop(name)
            found[field] = raw[-1] if isinstance(raw, tuple) else raw
    try:
        for field in ("pool_size", "max_overflow", "ef_search"):
            if field in found:
                found[field] = int(found[field])
        if "pool_timeout_s" in found:
            found["pool_timeout_s"] = float(found["pool_timeout_s"])
    except ValueError as exc:
        raise InvalidInputError(f"bad pool setting in the storage URL: {exc}") from exc
    return parsed.set(query=query), replace(opts, **found).check()


def where_msg(url: URL) -> str:
    """Where the store is, for error messages (never the password)."""
    return (f"PostgreSQL at {url.host or 'localhost'}:{url.port or 5432}, database {url.database!r}, "
            f"user {url.username!r}")


def make_engine(url: URL, opts: PgOptions) -> Engine:
    try:
        engine = create_engine(
            url,
            pool_size=opts.pool_size,
            max_overflow=opts.max_overflow,
            pool_timeout=opts.pool_timeout_s,
            pool_recycle=opts.pool_recycle_s,
            pool_pre_ping=opts.pool_pre_ping,
            connect_args={"connect_timeout": int(opts.connect_timeout_s), "application_name": opts.application_name},
            echo=opts.echo,
        )
    except (NoSuchModuleError, ImportError) as exc:  # pragma: no cover - depends on the environment
        raise ConfigurationError("PostgreSQL storage needs psycopg 3: pip install goodmemory[postgres]") from exc
    except SQLAlchemyError as exc:
        raise StorageUnavailableError(f"cannot configure {where_msg(url)}: {exc}") from exc
    session_sql = [
        f"SET hnsw.ef_search = {int(opts.ef_search)}",
        f"SET hnsw.iterative_scan = {opts.iterative_scan}",
        # per-user selectivity differs wildly: plan each search for its own parameters
        "SET plan_cache_mode = force_custom_plan",
    ]
    if opts.schema is not None:
        session_sql.insert(0, f'SET search_path TO "{opts.schema}", public')

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        with dbapi_conn.cursor() as cur:
            for sql in session_sql:
                cur.execute(sql)
        dbapi_conn.commit()

    return engine


def classify(exc: DBAPIError) -> str:
    """``refused`` (credentials, no such database), ``transient`` (retry), ``unavailable``
    (connection lost or not reachable: retry once) or ``other``."""
    if exc.connection_invalidated:
        return "unavailable"
    state = getattr(exc.orig, "sqlstate", None)
    if state is not None and (state.startswith("28") or state == "3D000"):
        return "refused"  # bad credentials or no such database: retrying will not help
    if state in _TRANSIENT:
        return "transient"
    if state in _DISCONNECT_STATES or (state or "").startswith("08"):
        return "unavailable"
    try:
        import psycopg
    except ImportError:  # pragma: no cover
        return "other"
    if state is None and isinstance(exc.orig, psycopg.OperationalError):
        return "unavailable"  # client-side: refused, timed out, closed
    return "other"


def run(engine: Engine, fn: Callable[[Connection], T], *, where: str, read: bool = False) -> T:
    """Run ``fn`` in one transaction; retry once on a dropped connection or a transient conflict.

    ``read``: one statement that changes nothing, run in autocommit (no BEGIN/COMMIT round trips:
    on a busy machine each round trip adds milliseconds at p95). ``where`` names the server in errors.
    """
    last: BaseException | None = None
    for attempt in (1, 2):
        try:
            if read:
                with engine.connect() as conn:
                    return fn(conn.execution_options(isolation_level="AUTOCOMMIT"))
            with engine.connect() as conn, conn.begin():
                return fn(conn)
        except GoodMemoryError:
            raise
        except PoolTimeoutError as exc:
            raise StorageUnavailableError(
                f"no free connection in the pool for {where} after waiting: raise pool_size/"
                f"max_overflow or pool_timeout, or close GoodMemory objects you no longer use ({exc})"
            ) from exc
        except IntegrityError as exc:
            raise integrity_error(exc) from exc
        except DBAPIError as exc:
            kind = classify(exc)
            if kind == "refused":
                raise StorageUnavailableError(
                    f"cannot open {where}: {orig_msg(exc)}. Check the URL's user, password "
                    "and database name (scripts/postgres.sh start prints a working URL)."
                ) from exc
            if kind == "other":
                raise StorageError(f"storage error on {where}: {orig_msg(exc)}") from exc
            last = exc
            if attempt == 2:
                if kind == "unavailable":
                    raise StorageUnavailableError(
                        f"cannot reach {where}: {orig_msg(exc)}. Check that the server is "
                        "running and reachable, the URL's host, port, user and password, and that "
                        "pg_hba.conf allows this client."
                    ) from exc
                raise StorageError(f"storage conflict on {where} persisted after a retry: {orig_msg(exc)}") from exc
        except SQLAlchemyError as exc:
            raise StorageError(f"storage error on {where}: {exc}") from exc
    raise StorageError(f"storage error on {where}: {last}")  # pragma: no cover


def ensure_pgvector(conn: Connection, where: str) -> None:
    """Create the pgvector extension if it is missing, or say clearly who has to."""
    if conn.execute(text("SELECT 1 FROM pg_extension WHERE extname = 'vector'")).first():
        return
    conn.exec_driver_sql("SAVEPOINT gm_ext")
    try:
        conn.execute(text("CREATE EXTENSION IF NOT EXISTS vector"))
    except DBAPIError as exc:
        conn.exec_driver_sql("ROLLBACK TO SAVEPOINT gm_ext")
        raise ConfigurationError(
            f"the pgvector extension is not installed in {where} and this user cannot "
            f"install it ({orig_msg(exc)}): run CREATE EXTENSION vector; as a superuser "
            "(scripts/postgres.sh start does it for the bundled server)"
        ) from exc
    conn.exec_driver_sql("RELEASE SAVEPOINT gm_ext")
