"""The Pydantic AI capability and toolset, run inside real Pydantic AI agents (FunctionModel stands in for the
LLM: it sees exactly the instructions and tool results a real model would, and scripts the tool calls)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("pydantic_ai", reason="needs the pydantic-ai extra: pip install 'goodmemory[pydantic-ai]'")

from pydantic_ai import Agent  # noqa: E402
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart  # noqa: E402
from pydantic_ai.models.function import AgentInfo, FunctionModel  # noqa: E402

from goodmemory import GoodMemory, create_good_memory  # noqa: E402
from goodmemory.integrations.pydantic_ai import GoodMemoryCapability, memory_toolset  # noqa: E402
from goodmemory.testing import FakeEmbedder  # noqa: E402


@pytest.fixture(autouse=True)
def _collect_garbage_here() -> Iterator[None]:
    """Collect what the test left for the garbage collector before the next test starts, so an unclosed
    resource is reported against the test that left it, not a later one."""
    yield
    gc.collect()


@pytest.fixture
def memory() -> Any:
    m = create_good_memory("sqlite://", embedder=FakeEmbedder())
    yield m
    m.close()


def _recording_model(seen: list[str | None], reply: str = "ok") -> FunctionModel:
    def fn(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append(messages[-1].instructions)  # type: ignore[union-attr]
        return ModelResponse(parts=[TextPart(reply)])

    return FunctionModel(fn)


def test_each_run_is_remembered_and_the_next_run_sees_it_cited(memory: GoodMemory) -> None:
    seen: list[str | None] = []
    cap = GoodMemoryCapability(memory, user_id="u1", session_id="chat")
    agent = Agent(_recording_model(seen, "Noted."), instructions="You are a travel assistant.", capabilities=[cap])
    agent.run_sync("I live in Lisbon.")
    assert cap.last_write is not None and cap.last_write.memories
    agent.run_sync("Book me a hotel near home.")
    assert seen[0] == "You are a travel assistant."  # nothing remembered yet: no block at all
    assert "<memory-context>" in (seen[1] or "") and "Lisbon" in (seen[1] or "")
    city = next(m for m in memory.list(user_id="u1") if "Lisbon" in m.text)
    assert f"[{city.id[:6]}" in (seen[1] or "")  # cited by id


def test_another_users_agent_never_sees_the_memory(memory: GoodMemory) -> None:
    Agent(_recording_model([]), capabilities=[GoodMemoryCapability(memory, user_id="u1")]).run_sync(
        "My passport number is on file and I live in Lisbon.")
    seen: list[str | None] = []
    Agent(_recording_model(seen), capabilities=[GoodMemoryCapability(memory, user_id="u2", remember=False)]).run_sync(
        "Book me a hotel near home.")
    assert "Lisbon" not in (seen[0] or "")
    assert memory.list(user_id="u2") == []  # remember=False wrote nothing


@pytest.mark.parametrize("id_len", [32, 6], ids=["full id", "a context's short id"])
def test_the_agent_recalls_and_forgets_through_its_tools(memory: GoodMemory, id_len: int) -> None:
    memory.remember([{"role": "user", "content": "I live in Lisbon."}], user_id="u1")
    memory.remember([{"role": "user", "content": "I live in Oslo."}], user_id="u2")
    returns: list[Any] = []

    def fn(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        assert {t.name for t in info.function_tools} == {"recall_memory", "forget_memory"}
        last = messages[-1].parts  # type: ignore[union-attr]
        results = [p for p in last if isinstance(p, ToolReturnPart)]
        if not results:
            return ModelResponse(parts=[ToolCallPart("recall_memory", {"query": "where do I live"})])
        returns.append(results[0].content)
        if results[0].tool_name == "recall_memory":
            target = next(h["id"] for h in results[0].content if "Lisbon" in h["text"])
            return ModelResponse(parts=[ToolCallPart("forget_memory", {"memory_id": target[:id_len]})])
        return ModelResponse(parts=[TextPart("done")])

    agent = Agent(FunctionModel(fn), toolsets=[memory_toolset(memory, user_id="u1")])
    assert agent.run_sync("Where do I live? Then forget it.").output == "done"
    hits = returns[0]
    assert any("Lisbon" in h["text"] for h in hits) and not any("Oslo" in h["text"] for h in hits)
    assert returns[1].startswith("forgotten")
    assert not any("Lisbon" in m.text and m.kind != "episode" for m in memory.list(user_id="u1"))
    assert any("Oslo" in m.text for m in memory.list(user_id="u2"))


@pytest.mark.parametrize("id_len", [32, 6], ids=["full id", "a context's short id"])
def test_forgetting_another_users_id_is_refused_to_the_model(memory: GoodMemory, id_len: int) -> None:
    res = memory.remember([{"role": "user", "content": "I live in Oslo."}], user_id="u2")
    other_id = res.memories[0].id

    def fn(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        last = messages[-1].parts  # type: ignore[union-attr]
        done = [p for p in last if isinstance(p, ToolReturnPart)]
        if not done:
            return ModelResponse(parts=[ToolCallPart("forget_memory", {"memory_id": other_id[:id_len]})])
        return ModelResponse(parts=[TextPart(str(done[0].content))])

    out = Agent(FunctionModel(fn), toolsets=[memory_toolset(memory, user_id="u1")]).run_sync("forget it").output
    assert out.startswith("not forgotten")
    assert memory.get(other_id, user_id="u2").id == other_id
