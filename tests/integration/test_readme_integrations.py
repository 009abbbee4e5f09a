"""The README's integration examples (``py`` blocks) run as written when their extra is installed."""

from __future__ import annotations

import gc
import importlib.util
import json
import re
from pathlib import Path

import pytest

from conftest import close_thread_event_loop

README = Path(__file__).parents[2] / "README.md"

NEEDS = {  # a block is skipped when the module its first import names is missing
    "agents": "openai-agents",
    "langchain": "langgraph",
    "langgraph": "langgraph",
    "opentelemetry": "otel",
    "fastapi": "server",
    "pydantic_ai": "pydantic-ai",
    "llama_index": "llama-index",
}


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def _id(block: str) -> str:
    first = block.strip().splitlines()[0]
    return first.split()[1].split(".")[0]


# LlamaIndex's chat store never closes its aiosqlite engine (upstream has no close); the suite's own code is
# checked for unclosed resources everywhere else
@pytest.mark.filterwarnings("ignore::ResourceWarning")
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("block", _blocks("py"), ids=_id)
def test_integration_example_runs(block: str, capsys: pytest.CaptureFixture[str]) -> None:
    top = _id(block)
    if importlib.util.find_spec(top) is None:
        pytest.skip(f"needs the {NEEDS.get(top, top)} extra")
    try:
        exec(compile(block, str(README), "exec"), {"__name__": "readme"})
    finally:
        if top in ("agents", "llama_index"):  # Runner.run_sync and LlamaIndex leave their event loop set and open
            close_thread_event_loop()
        # what the example left (LlamaIndex's unclosed aiosqlite connection) is collected here, under this
        # test's filters, not reported against a later test that happens to run the collector
        gc.collect()
    out = capsys.readouterr().out
    assert out.strip(), "the example printed nothing"
    if top in ("agents", "langchain", "pydantic_ai", "llama_index"):
        assert "Lisbon" in out


def test_mcp_servers_entry_is_valid_json_naming_the_installed_command() -> None:
    (entry,) = [json.loads(b) for b in _blocks("json") if "mcpServers" in b]
    server = entry["mcpServers"]["goodmemory"]
    assert server["command"] == "goodmemory-mcp"
    assert set(server["env"]) == {"GOODMEMORY_URL", "GOODMEMORY_USER_ID"}
    # the HTTP entry reaches the server's endpoint and names its user by a bearer key, not in the URL
    http = entry["mcpServers"]["goodmemory-http"]
    assert http["type"] == "http" and re.fullmatch(r"http://127\.0\.0\.1:\d+/mcp", http["url"])
    key = http["headers"]["Authorization"].removeprefix("Bearer ")
    assert len(key) >= 16 and f'"{key}": "me"' in README.read_text(encoding="utf-8")
    import tomllib

    scripts = tomllib.loads((README.parent / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["goodmemory-mcp"] == "goodmemory.integrations.mcp_server:main"
    assert scripts["goodmemory"] == "goodmemory.cli:main"
