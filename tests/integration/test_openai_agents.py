"""The OpenAI Agents SDK adapter under Runner.run, Runner.run_sync and Runner.run_streamed.

The model is the SDK's own ``agents.testing.ScriptedModel``; everything else is the real SDK.
"""

from __future__ import annotations

import asyncio
import json
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("agents", reason="needs the openai-agents extra: pip install 'goodmemory[openai-agents]'")

from agents import Agent, RunConfig, Runner, SQLiteSession, set_tracing_disabled  # noqa: E402
from agents.memory import Session  # noqa: E402
from agents.testing import ScriptedModel, assistant_message, function_call  # noqa: E402

from goodmemory import GoodMemory, create_good_memory  # noqa: E402
from goodmemory.integrations.openai_agents import (  # noqa: E402
    GoodMemorySession,
    items_to_messages,
    memory_input_filter,
    memory_tools,
)
from goodmemory.testing import FakeEmbedder  # noqa: E402

set_tracing_disabled(True)  # no trace export to OpenAI from tests


def run_sync(agent: Agent, text: str, **kw: Any) -> Any:
    """``Runner.run_sync``, then close the default event loop it ran on (the SDK leaves it open)."""
    try:
        return Runner.run_sync(agent, text, **kw)
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            loop = asyncio.get_event_loop_policy().get_event_loop()
        loop.close()
        asyncio.set_event_loop(None)


@pytest.fixture
def memory() -> Iterator[GoodMemory]:
    m = create_good_memory("sqlite://", embedder=FakeEmbedder())
    yield m
    m.close()


def _agent(model: ScriptedModel, **kw: object) -> Agent:
    return Agent(name="assistant", instructions="You are a helpful travel assistant.", model=model, **kw)


def test_session_implements_the_protocol_and_converts_items(memory: GoodMemory) -> None:
    session = GoodMemorySession(memory, user_id="u1", session_id="s1", remember_on="items")
    assert isinstance(session, Session)
    items = [
        {"role": "user", "content": "I live in Lisbon."},
        {"type": "message", "role": "assistant", "status": "completed", "id": "m1",
         "content": [{"type": "output_text", "text": "Noted!", "annotations": []}]},
        {"type": "function_call", "call_id": "c1", "name": "x", "arguments": "{}"},
        {"role": "system", "content": "internal"},
    ]
    assert items_to_messages(items) == [{"role": "user", "content": "I live in Lisbon."},
                                        {"role": "assistant", "content": "Noted!"}]

    async def run() -> None:
        await session.add_items(items)  # type: ignore[arg-type]
        assert len(await session.get_items()) == 4
        assert await session.pop_item() is not None
        assert len(await session.get_items(limit=2)) == 2
        await session.clear_session()
        assert await session.get_items() == []

    asyncio.run(run())
    # clearing the history does not forget long-term memory
    assert any("Lisbon" in r.text for r in memory.list(user_id="u1"))


def test_run_remembers_and_injects_context_under_run_sync_and_streamed(memory: GoodMemory) -> None:
    model = ScriptedModel([
        [assistant_message("Nice to meet you, Ana.")],
        [assistant_message("Here are hotels in Lisbon.")],
        [assistant_message("A window seat it is.")],
    ])
    agent = _agent(model)
    session = GoodMemorySession(memory, user_id="ana", inner=SQLiteSession("trip-1"), domain="travel")
    config = RunConfig(call_model_input_filter=memory_input_filter(memory, user_id="ana", domain="travel"))

    # 1. Runner.run (async): the turn is stored in the history and remembered
    r1 = asyncio.run(Runner.run(agent, "I'm Ana and I live in Lisbon.", session=session, run_config=config))
    assert r1.final_output == "Nice to meet you, Ana."
    assert session.last_write is not None
    assert any("Lisbon" in m.text and m.kind.value == "profile" for m in memory.list(user_id="ana"))
    first = model.calls[0]
    # nothing known yet, and the input being answered is not echoed back as memory
    assert first.system_instructions == "You are a helpful travel assistant."

    # 2. Runner.run_sync: the model call carries the memory context for the new request
    r2 = run_sync(agent, "Book me a hotel near home.", session=session, run_config=config)
    assert r2.final_output == "Here are hotels in Lisbon."
    second = model.calls[1]
    assert second.system_instructions is not None
    assert second.system_instructions.startswith("You are a helpful travel assistant.")
    assert "<memory-context>" in second.system_instructions and "Lisbon" in second.system_instructions
    # the history came from the inner session; the memory block never entered it
    history = asyncio.run(session.get_items())
    assert len(history) == 4
    assert not any("<memory-context>" in json.dumps(i, default=str) for i in history)

    # 3. Runner.run_streamed
    async def streamed() -> str:
        result = Runner.run_streamed(agent, "I prefer a window seat.", session=session, run_config=config)
        async for _event in result.stream_events():
            pass
        return str(result.final_output)

    assert asyncio.run(streamed()) == "A window seat it is."
    assert "<memory-context>" in (model.calls[2].system_instructions or "")
    assert any("window" in m.text.lower() for m in memory.list(user_id="ana"))
    assert len(asyncio.run(session.get_items())) == 6
    model.assert_complete()


def test_user_id_from_run_context_keeps_users_apart(memory: GoodMemory) -> None:
    memory.remember([{"role": "user", "content": "I live in Lisbon."}], user_id="alice")
    model = ScriptedModel([[assistant_message("ok")], [assistant_message("ok")]])
    config = RunConfig(call_model_input_filter=memory_input_filter(memory, user_id=lambda ctx: ctx["user"]))
    run_sync(_agent(model), "Where do I live?", context={"user": "alice"}, run_config=config)
    run_sync(_agent(model), "Where do I live?", context={"user": "bob"}, run_config=config)
    assert "Lisbon" in (model.calls[0].system_instructions or "")
    assert "Lisbon" not in (model.calls[1].system_instructions or "")


@pytest.mark.parametrize("id_len", [32, 6], ids=["full id", "a context's short id"])
def test_recall_and_forget_tools(memory: GoodMemory, id_len: int) -> None:
    memory.remember([{"role": "user", "content": "I live in Lisbon."}], user_id="u1")
    city = next(m for m in memory.list(user_id="u1") if m.kind.value == "profile")
    model = ScriptedModel([
        [function_call("recall_memory", {"query": "home city"}, call_id="c1")],
        [function_call("forget_memory", {"memory_id": city.id[:id_len]}, call_id="c2")],
        [assistant_message("Done, I forgot where you live.")],
    ])
    agent = _agent(model, tools=memory_tools(memory, user_id="u1"))
    result = run_sync(agent, "What do you know about my home, then forget it.")
    assert result.final_output == "Done, I forgot where you live."
    outputs = [i for i in model.calls[1].input if isinstance(i, dict) and i.get("type") == "function_call_output"]
    assert outputs and "Lisbon" in str(outputs[0]["output"])
    assert not any(m.id == city.id for m in memory.list(user_id="u1", include_history=True))
    assert not any("Lisbon" in m.text for m in memory.list(user_id="u1", include_history=True))


def test_turn_mode_waits_for_the_answer_and_flush_remembers_a_lone_input(memory: GoodMemory) -> None:
    session = GoodMemorySession(memory, user_id="u2", session_id="s2")

    async def run() -> None:
        await session.add_items([{"role": "user", "content": "I live in Lisbon."}])
        assert not memory.list(user_id="u2")
        await session.flush()

    asyncio.run(run())
    assert any("Lisbon" in r.text for r in memory.list(user_id="u2"))
