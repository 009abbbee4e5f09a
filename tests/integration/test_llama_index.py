"""The LlamaIndex memory block inside LlamaIndex's own ``Memory`` (real upstream package): flushed messages are
remembered, ``get`` puts the cited context for the latest user message into the system message, one user's
block never shows another's memories, truncation asks for a smaller context."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator

import pytest

pytest.importorskip("llama_index.core", reason="needs the llama-index extra: pip install 'goodmemory[llama-index]'")

from llama_index.core.base.llms.types import ChatMessage  # noqa: E402
from llama_index.core.memory import Memory  # noqa: E402

from conftest import close_thread_event_loop  # noqa: E402
from goodmemory import GoodMemory, create_good_memory  # noqa: E402
from goodmemory.integrations.llama_index import GoodMemoryBlock  # noqa: E402
from goodmemory.testing import FakeEmbedder  # noqa: E402
from goodmemory.tokens import count_tokens  # noqa: E402

# LlamaIndex's Memory keeps its chat history in an aiosqlite engine that it never closes (its chat store has no
# close): the leak is upstream's, so its ResourceWarning is not an error here
pytestmark = [pytest.mark.filterwarnings("ignore::ResourceWarning"),
              pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")]


@pytest.fixture(autouse=True)
def _collect_garbage_here() -> Iterator[None]:
    """Collect what the test left for the garbage collector before the next test starts, so an unclosed
    resource is reported against the test that left it, not a later one."""
    yield
    close_thread_event_loop()
    gc.collect()


@pytest.fixture
def gm() -> Iterator[GoodMemory]:
    m = create_good_memory("sqlite://", embedder=FakeEmbedder())
    yield m
    m.close()


def _chat(gm: GoodMemory, user: str, first: str) -> Memory:
    mem = Memory.from_defaults(session_id=f"chat-{user}", token_limit=60, chat_history_token_ratio=0.5,
                               token_flush_size=20, memory_blocks=[GoodMemoryBlock(memory=gm, user_id=user)])
    mem.put(ChatMessage(role="user", content=first))
    mem.put(ChatMessage(role="assistant", content="Noted, thanks for telling me all about that."))
    for i in range(4):  # push the first turn out of the short-term window
        mem.put(ChatMessage(role="user", content=f"Some other chat number {i} about the weather today."))
        mem.put(ChatMessage(role="assistant", content="Okay."))
    mem.put(ChatMessage(role="user", content="Book me a hotel near home."))
    return mem


def test_flushed_turns_are_remembered_and_come_back_cited(gm: GoodMemory) -> None:
    mem = _chat(gm, "u1", "I live in Lisbon and I work as a nurse.")
    assert any("Lisbon" in m.text and m.kind != "episode" for m in gm.list(user_id="u1"))
    system, *rest = mem.get()
    assert system.role == "system" and "<memory-context>" in (system.content or "")
    city = next(m for m in gm.list(user_id="u1") if m.kind != "episode" and "Lisbon" in m.text)
    assert f"[{city.id[:6]}" in (system.content or "")
    assert rest[-1].content == "Book me a hotel near home."


def test_one_users_block_never_shows_another_users_memory(gm: GoodMemory) -> None:
    _chat(gm, "u1", "I live in Lisbon and I work as a nurse.")
    mem2 = _chat(gm, "u2", "I live in Oslo and I work as a pilot.")
    text = " ".join(m.content or "" for m in mem2.get())
    assert "Oslo" in text and "Lisbon" not in text


def test_truncation_asks_for_a_smaller_context(gm: GoodMemory) -> None:
    for i, city in enumerate(["Lisbon", "Porto", "Faro", "Braga", "Évora", "Coimbra"]):
        gm.remember([{"role": "user", "content": f"Trip {i}: I spent a week in {city} and loved the food there."}],
                    user_id="u1", session_id=f"s{i}")
    block = GoodMemoryBlock(memory=gm, user_id="u1", max_tokens=400)
    full = asyncio.run(block.aget([ChatMessage(role="user", content="Which trips did I enjoy?")]))
    cut = count_tokens(full) - 120
    shorter = asyncio.run(block.atruncate(full, cut))
    assert shorter is not None and count_tokens(shorter) <= count_tokens(full) - cut
    assert asyncio.run(block.atruncate(full, 10_000)) is None


def test_no_user_message_means_no_block(gm: GoodMemory) -> None:
    block = GoodMemoryBlock(memory=gm, user_id="u1")
    assert asyncio.run(block.aget([])) == ""
    with pytest.raises(ValueError, match="needs a GoodMemory"):  # pydantic wraps it as a ValidationError
        GoodMemoryBlock(memory=object(), user_id="u1")
