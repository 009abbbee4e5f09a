"""``goodmemory-server``: the library over REST (FastAPI + uvicorn, the ``server`` extra).

Every request names its user by its API key alone: ``Authorization: Bearer <key>``, each key mapped to one user
id in the server's configuration. No path, query or body field can name a user, so a client holding one key can
never read, change or delete another user's memory. ``/v1/health`` and the OpenAPI schema need no key.

Errors come back as JSON ``{"error": <class>, "detail": <message>}`` with a 4xx status for bad input (the
library's own message), 404 for an id the user does not have (another user's id looks the same), 409 for a write
conflict, 503 when the store is unavailable; an unexpected fault gives 500 with no stack trace.

Wherever a path takes a memory id, a unique prefix of at least 6 hex characters (the short id a context shows)
will do, resolved among the caller's own memories only; an ambiguous prefix is a 422 naming the matches.

Keys: ``--keys FILE`` (a JSON object ``{"<key>": "<user_id>"}``) or ``GOODMEMORY_API_KEYS`` (``key=user,...``).
"""

# no `from __future__ import annotations`: FastAPI reads the route annotations at run time
import argparse
import logging
import sys
from collections.abc import Mapping
from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from .._version import __version__
from ..aio import AsyncGoodMemory
from ..errors import (
    ConfigurationError,
    GoodMemoryError,
    InvalidInputError,
    LLMError,
    MemoryNotFoundError,
    SlotConflictError,
    StorageUnavailableError,
)
from ..memory import GoodMemory, create_good_memory
from ..models import (
    Context,
    FeedbackResult,
    FeedbackSignal,
    ForgetReceipt,
    HistoryEntry,
    MemoryKind,
    MemoryRecord,
    Message,
    RecallResult,
    UserExport,
    WriteResult,
)
from ._ids import full_memory_id
from ._keys import KEYS_ENV, KeyRing, load_api_keys

try:
    from fastapi import Depends, FastAPI, Query, Request
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import JSONResponse
    from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
except ImportError as exc:  # pragma: no cover - exercised by the extras-isolation test
    raise ImportError("goodmemory-server needs the server extra: pip install 'goodmemory[server]'") from exc

__all__ = ["KEYS_ENV", "create_app", "load_api_keys", "main"]

log = logging.getLogger("goodmemory.server")

_STATUS: tuple[tuple[type[GoodMemoryError], int], ...] = (
    (InvalidInputError, 422),
    (MemoryNotFoundError, 404),
    (SlotConflictError, 409),
    (StorageUnavailableError, 503),
    (LLMError, 502),
)


class _Body(BaseModel):
    # no user_id field anywhere: the key names the user, and an extra field is refused rather than ignored
    model_config = ConfigDict(extra="forbid")


class RememberBody(_Body):
    messages: list[Message]
    session_id: str | None = None
    agent_id: str | None = None
    domain: str | None = None
    at: datetime | None = None
    tags: list[str] | None = Field(None, description="labels for everything this call stores")


class RecallBody(_Body):
    query: str
    domain: str | None = None
    kinds: list[MemoryKind] | None = None
    limit: int = Field(10, ge=1, le=1000)
    include_history: bool = False
    at: datetime | None = None
    tags: list[str] | None = Field(None, description="only memories carrying any of these tags")


class ContextBody(_Body):
    query: str
    domain: str | None = None
    max_tokens: int = Field(800, ge=1, le=200_000)
    at: datetime | None = None
    tags: list[str] | None = Field(None, description="build the context from memories with any of these tags")


class FeedbackBody(_Body):
    signal: FeedbackSignal
    correction: str | None = None
    note: str | None = None


class ForgetBody(_Body):
    key: str | None = None
    session_id: str | None = None
    domain: str | None = None
    tags: list[str] | None = Field(None, description="the memories carrying any of these tags")
    all: bool = Field(False, description="required to forget every memory of the user (no other filter)")
    dry_run: bool = False


class Health(BaseModel):
    status: Literal["ok"]
    version: str


def _error(status: int, exc: BaseException) -> JSONResponse:
    return JSONResponse(status_code=status, content={"error": type(exc).__name__, "detail": str(exc)})


def create_app(memory: GoodMemory | AsyncGoodMemory, *, api_keys: Mapping[str, str]) -> FastAPI:
    """The REST app over ``memory``; ``api_keys`` maps each bearer key to the one user it acts for."""
    if not api_keys:
        raise ConfigurationError("create_app needs at least one API key")
    amem = memory if isinstance(memory, AsyncGoodMemory) else AsyncGoodMemory(memory)
    keys = KeyRing(api_keys)
    bearer = HTTPBearer(auto_error=False)

    def user_of(creds: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> str:
        user = keys.user_for(creds.credentials) if creds is not None else None
        if user is None:
            raise _Unauthorized()
        return user

    User = Annotated[str, Depends(user_of)]

    app = FastAPI(title="GoodMemory", version=__version__,
                  description="Long-term user memory for LLM agents. The API key names the user.")

    @app.exception_handler(_Unauthorized)
    async def unauthorized(request: Request, exc: _Unauthorized) -> JSONResponse:
        resp = _error(401, exc)
        resp.headers["WWW-Authenticate"] = "Bearer"
        return resp

    @app.exception_handler(GoodMemoryError)
    async def library_error(request: Request, exc: GoodMemoryError) -> JSONResponse:
        for cls, status in _STATUS:
            if isinstance(exc, cls):
                return _error(status, exc)
        log.error("%s on %s %s: %s", type(exc).__name__, request.method, request.url.path, exc)
        return _error(500, exc)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ()) if p != 'body') or 'body'}: {e.get('msg', 'invalid')}"
            for e in exc.errors()
        )
        return JSONResponse(status_code=422, content={"error": "InvalidInputError", "detail": problems})

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return JSONResponse(status_code=500, content={"error": "InternalError", "detail": "internal error"})

    @app.get("/v1/health", response_model=Health, tags=["service"])
    async def health() -> Health:
        return Health(status="ok", version=__version__)

    @app.post("/v1/remember", response_model=WriteResult, tags=["memory"])
    async def remember(body: RememberBody, user: User) -> WriteResult:
        return await amem.remember(body.messages, user_id=user, session_id=body.session_id,
                                   agent_id=body.agent_id, domain=body.domain, at=body.at, tags=body.tags)

    @app.post("/v1/recall", response_model=RecallResult, tags=["memory"])
    async def recall(body: RecallBody, user: User) -> RecallResult:
        return await amem.recall(body.query, user_id=user, domain=body.domain, kinds=body.kinds,
                                 limit=body.limit, include_history=body.include_history, at=body.at,
                                 tags=body.tags)

    @app.post("/v1/context", response_model=Context, tags=["memory"])
    async def build_context(body: ContextBody, user: User) -> Context:
        return await amem.build_context(body.query, user_id=user, domain=body.domain,
                                        max_tokens=body.max_tokens, at=body.at, tags=body.tags)

    @app.get("/v1/memories", response_model=list[MemoryRecord], tags=["memories"])
    async def list_memories(user: User, kinds: Annotated[list[MemoryKind] | None, Query()] = None,
                            domain: str | None = None, include_history: bool = False,
                            limit: Annotated[int | None, Query(ge=1, le=100_000)] = None,
                            tag: Annotated[list[str] | None, Query()] = None) -> list[MemoryRecord]:
        return await amem.list(user_id=user, kinds=kinds, domain=domain, include_history=include_history,
                               limit=limit, tags=tag)

    async def full_id(memory_id: str, user: str) -> str:
        return await full_memory_id(amem, memory_id, user)  # a context's short id, as the CLI takes

    @app.get("/v1/memories/{memory_id}", response_model=MemoryRecord, tags=["memories"])
    async def get_memory(memory_id: str, user: User) -> MemoryRecord:
        return await amem.get(await full_id(memory_id, user), user_id=user)

    @app.get("/v1/memories/{memory_id}/history", response_model=list[HistoryEntry], tags=["memories"])
    async def history(memory_id: str, user: User) -> list[HistoryEntry]:
        return await amem.history(await full_id(memory_id, user), user_id=user)

    @app.post("/v1/memories/{memory_id}/feedback", response_model=FeedbackResult, tags=["memories"])
    async def feedback(memory_id: str, body: FeedbackBody, user: User) -> FeedbackResult:
        return await amem.feedback(await full_id(memory_id, user), body.signal, user_id=user,
                                   correction=body.correction, note=body.note)

    @app.delete("/v1/memories/{memory_id}", response_model=ForgetReceipt, tags=["memories"])
    async def forget_memory(memory_id: str, user: User) -> ForgetReceipt:
        return await amem.forget(await full_id(memory_id, user), user_id=user)

    @app.post("/v1/forget", response_model=ForgetReceipt, tags=["memories"])
    async def forget(body: ForgetBody, user: User) -> ForgetReceipt:
        # the library refuses a filterless call without all=true, and all=true beside a filter
        return await amem.forget(user_id=user, key=body.key, session_id=body.session_id, domain=body.domain,
                                 dry_run=body.dry_run, all=body.all, tags=body.tags)

    @app.get("/v1/export", response_model=UserExport, tags=["portability"])
    async def export(user: User, tag: Annotated[list[str] | None, Query()] = None) -> UserExport:
        return await amem.export(user_id=user, tags=tag)

    @app.post("/v1/import", response_model=WriteResult, tags=["portability"])
    async def import_(body: UserExport, user: User) -> WriteResult:
        # the export's own user_id is ignored: an import always lands in the caller's scope
        return await amem.import_(body, user_id=user)

    return app


class _Unauthorized(Exception):
    def __init__(self) -> None:
        super().__init__("missing or unknown API key: send Authorization: Bearer <key>")


def main(argv: list[str] | None = None) -> int:
    """``goodmemory-server [--host H] [--port P] [--url URL] [--keys FILE]``."""
    ap = argparse.ArgumentParser(prog="goodmemory-server", description=__doc__.split("\n\n")[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8080)
    ap.add_argument("--url", default=None, help="storage URL (default: $GOODMEMORY_URL, else the user data file)")
    ap.add_argument("--keys", default=None, help=f"JSON file of API key -> user id (default: ${KEYS_ENV})")
    args = ap.parse_args(argv)
    try:
        keys = load_api_keys(args.keys)
        memory = create_good_memory(args.url) if args.url else create_good_memory()
    except GoodMemoryError as exc:
        print(f"goodmemory-server: {exc}", file=sys.stderr)
        return 2
    import uvicorn

    app = create_app(memory, api_keys=keys)
    print(f"goodmemory-server on http://{args.host}:{args.port} ({len(keys)} API keys)", file=sys.stderr)
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    finally:
        memory.close()
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
