"""MCP tools take tags, driven by a real MCP client session against the stdio server process."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp", reason="needs the mcp extra: pip install 'goodmemory[mcp]'")

from test_mcp import _session, _text  # noqa: E402


def test_tags_through_the_mcp_tools(tmp_path: Path) -> None:
    db = tmp_path / "mcp.db"
    out: dict[str, Any] = {}

    async def run() -> None:
        async with _session(db, "alice") as alice:
            tagged = await alice.call_tool("remember", {"messages": [
                {"role": "user", "content": "For project Atlas the deadline is the 3rd of May."}], "tags": ["atlas"]})
            await alice.call_tool("remember", {"messages": [
                {"role": "user", "content": "My Honda Civic plate is ABC-1234."}]})
            out["ids"] = {d["memory_id"] for d in tagged.structured_content["decisions"] if d["memory_id"]}
            out["hits"] = (await alice.call_tool("recall", {"query": "deadline plate Honda",
                                                            "tags": ["atlas"]})).structured_content["hits"]
            out["all_hits"] = (await alice.call_tool("recall", {"query": "Honda Civic plate"})).structured_content
            out["context"] = _text(await alice.call_tool("build_context", {"query": "what is my plate number",
                                                                           "tags": ["atlas"]}))
            out["bad"] = await alice.call_tool("recall", {"query": "x", "tags": ["x" * 100]})
            out["forget"] = (await alice.call_tool("forget", {"tags": ["atlas"]})).structured_content
            out["after"] = (await alice.call_tool("recall", {"query": "deadline Atlas",
                                                             "tags": ["atlas"]})).structured_content["hits"]

    anyio.run(run)
    assert out["hits"] and {h["memory_id"] for h in out["hits"]} <= out["ids"]
    assert any("ABC-1234" in h["text"] for h in out["all_hits"]["hits"])  # found without the tag filter
    assert "ABC-1234" not in out["context"] and "Atlas" in out["context"]
    assert out["bad"].is_error and "tag" in _text(out["bad"])
    assert set(out["forget"]["memory_ids"]) == out["ids"] and out["after"] == []
