"""The LangGraph store (parity with ``InMemoryStore``) and the LangChain agent middleware.

Everything upstream is real: LangGraph's ``InMemoryStore`` as the reference, ``create_agent``
with langchain-core's own ``GenericFakeChatModel``, and a langchain-core callback handler to
see what the model was sent.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

pytest.importorskip("langgraph", reason="needs the langgraph extra: pip install 'goodmemory[langgraph]'")

from langgraph.store.base import BaseStore, Item  # noqa: E402
from langgraph.store.memory import InMemoryStore  # noqa: E402

from goodmemory import GoodMemory, create_good_memory  # noqa: E402
from goodmemory.integrations.langgraph import GoodMemoryStore  # noqa: E402
from goodmemory.testing import FakeEmbedder  # noqa: E402


@pytest.fixture
def memory() -> Iterator[GoodMemory]:
    m = create_good_memory("sqlite://", embedder=FakeEmbedder())
    yield m
    m.close()


def _shape(result: Any) -> Any:
    """Compare items by content, not timestamps (the two stores write at different instants)."""
    if isinstance(result, Item):
        return ("item", result.namespace, result.key, result.value)
    if isinstance(result, list):
        return [_shape(r) for r in result]
    return result


def _scenario(store: BaseStore) -> list[Any]:
    out: list[Any] = []
    store.put(("memories", "u1"), "home", {"content": "I live in Lisbon.", "tag": "profile"})
    store.put(("memories", "u1"), "seat", {"content": "I prefer a window seat.", "tag": "travel"})
    store.put(("memories", "u2"), "home", {"content": "I live in Oslo.", "tag": "profile"})
    store.put(("memories", "u1", "notes"), "n1", {"text": "Renew passport", "tag": "todo"})
    store.put(("other",), "x", {"v": 1})
    out.append(store.get(("memories", "u1"), "home"))
    out.append(store.get(("memories", "u1"), "missing"))
    store.put(("memories", "u1"), "home", {"content": "I moved to Porto.", "tag": "profile"})  # overwrite
    out.append(store.get(("memories", "u1"), "home"))
    store.delete(("memories", "u1"), "seat")
    out.append(store.get(("memories", "u1"), "seat"))
    store.delete(("memories", "u1"), "never-existed")
    out.append(sorted(store.list_namespaces()))
    out.append(sorted(store.list_namespaces(prefix=("memories",))))
    out.append(sorted(store.list_namespaces(suffix=("notes",))))
    out.append(sorted(store.list_namespaces(max_depth=1)))
    out.append(sorted(store.list_namespaces(limit=2)))
    # search without a query is an exact, filtered listing
    out.append(sorted(_shape(store.search(("memories", "u1"), filter={"tag": "profile"}))))
    out.append(len(store.search(("memories",), limit=2)))
    out.append(len(store.search(("memories",), limit=10, offset=1)))

    async def async_part() -> list[Any]:
        await store.aput(("memories", "u3"), "k", {"content": "I am vegetarian."})
        got = await store.aget(("memories", "u3"), "k")
        await store.adelete(("memories", "u3"), "k")
        return [got, await store.aget(("memories", "u3"), "k"), sorted(await store.alist_namespaces())]

    out.extend(asyncio.run(async_part()))
    return out


def test_exact_operations_match_inmemorystore(memory: GoodMemory) -> None:
    ours = _scenario(GoodMemoryStore(memory))
    reference = _scenario(InMemoryStore())
    assert _shape(ours) == _shape(reference)


def test_semantic_search_is_served_by_recall_per_user(memory: GoodMemory) -> None:
    store = GoodMemoryStore(memory)
    store.put(("memories", "u1"), "home", {"content": "I live in Lisbon."})
    store.put(("memories", "u1"), "food", {"content": "I am vegetarian and I love spicy food."})
    store.put(("memories", "u2"), "home", {"content": "I live in Oslo."})

    hits = store.search(("memories", "u1"), query="where does the user live", limit=5)
    assert hits and hits[0].key == "home" and hits[0].value == {"content": "I live in Lisbon."}
    assert all(h.score is not None for h in hits)
    assert all(h.namespace == ("memories", "u1") for h in hits)  # u2's Oslo never shows up
    assert not any("Oslo" in str(h.value) for h in hits)
    # the memory itself is in GoodMemory, under the namespace's user
    assert any("Lisbon" in r.text for r in memory.list(user_id="u1"))

    # overwrite and delete forget what was remembered from the old value
    store.put(("memories", "u1"), "home", {"content": "I live in Porto."})
    assert not any("Lisbon" in r.text for r in memory.list(user_id="u1", include_history=True))
    assert store.search(("memories", "u1"), query="where does the user live")[0].value["content"] == \
        "I live in Porto."
    store.delete(("memories", "u1"), "home")
    assert not any("Porto" in r.text for r in memory.list(user_id="u1", include_history=True))

    # a prefix that names no user is never searched across users: it falls back to the exact listing
    broad = store.search(("memories",), query="live")
    assert {h.namespace for h in broad} <= {("memories", "u1"), ("memories", "u2")}
    assert all(h.score is None for h in broad)

    # memories GoodMemory holds from conversations come back as gm:<id> items
    memory.remember([{"role": "user", "content": "My Honda Civic plate is ABC-1234."}], user_id="u1")
    extra = store.search(("memories", "u1"), query="car plate", limit=10)
    assert any(h.key.startswith("gm:") and "ABC-1234" in h.value["text"] for h in extra)
    only_items = GoodMemoryStore(memory, inner=store.inner, include_memories=False)
    assert not any(h.key.startswith("gm:") for h in only_items.search(("memories", "u1"), query="car plate"))


def test_async_search(memory: GoodMemory) -> None:
    store = GoodMemoryStore(memory)

    async def run() -> list[Any]:
        await store.aput(("memories", "u1"), "home", {"content": "I live in Lisbon."})
        return await store.asearch(("memories", "u1"), query="home city")

    hits = asyncio.run(run())
    assert hits and hits[0].key == "home"


# -- LangChain agent middleware ----------------------------------------------
langchain_agents = pytest.importorskip("langchain.agents", reason="needs langchain>=1 (agent middleware)")

from langchain_core.callbacks import BaseCallbackHandler  # noqa: E402
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel  # noqa: E402
from langchain_core.messages import AIMessage, BaseMessage  # noqa: E402

from goodmemory.integrations.langgraph import GoodMemoryMiddleware  # noqa: E402


class Capture(BaseCallbackHandler):
    """Records the messages each chat-model call was sent."""

    def __init__(self) -> None:
        self.calls: list[list[BaseMessage]] = []

    def on_chat_model_start(self, serialized: Any, messages: list[list[BaseMessage]], **kwargs: Any) -> None:
        self.calls.extend(messages)


@dataclass
class UserContext:
    user_id: str


def _agent(memory: GoodMemory, replies: list[str]) -> Any:
    model = GenericFakeChatModel(messages=iter([AIMessage(content=r) for r in replies]))
    mw = GoodMemoryMiddleware(memory, user_id=lambda runtime: runtime.context.user_id, domain="travel")
    return langchain_agents.create_agent(model, tools=[], system_prompt="You are a travel assistant.",
                                         middleware=[mw], context_schema=UserContext)


def _system(call: list[BaseMessage]) -> str:
    return "\n".join(str(m.content) for m in call if m.type == "system")


def test_middleware_injects_context_and_remembers_sync(memory: GoodMemory) -> None:
    agent = _agent(memory, ["Nice to meet you.", "Hotels in Lisbon coming up."])
    cap = Capture()
    agent.invoke({"messages": [{"role": "user", "content": "I live in Lisbon."}]},
                 context=UserContext("ana"), config={"callbacks": [cap]})
    assert "<memory-context>" not in _system(cap.calls[0])  # nothing known before the first turn
    assert any("Lisbon" in r.text and r.kind.value == "profile" for r in memory.list(user_id="ana"))
    assert any(r.text.startswith("assistant:") for r in memory.list(user_id="ana"))

    agent.invoke({"messages": [{"role": "user", "content": "Book me a hotel near home."}]},
                 context=UserContext("ana"), config={"callbacks": [cap]})
    system = _system(cap.calls[1])
    assert system.startswith("You are a travel assistant.")
    assert "<memory-context>" in system and "Lisbon" in system

    # another user sees nothing of ana
    other = _agent(memory, ["ok"])
    cap2 = Capture()
    other.invoke({"messages": [{"role": "user", "content": "Book me a hotel near home."}]},
                 context=UserContext("bob"), config={"callbacks": [cap2]})
    assert "Lisbon" not in _system(cap2.calls[0])


def test_middleware_async(memory: GoodMemory) -> None:
    agent = _agent(memory, ["Noted.", "Vegetarian places it is."])
    cap = Capture()

    async def run() -> None:
        await agent.ainvoke({"messages": [{"role": "user", "content": "I am vegetarian."}]},
                            context=UserContext("vee"), config={"callbacks": [cap]})
        await agent.ainvoke({"messages": [{"role": "user", "content": "Suggest a restaurant for dinner."}]},
                            context=UserContext("vee"), config={"callbacks": [cap]})

    asyncio.run(run())
    assert any("vegetarian" in r.text.lower() for r in memory.list(user_id="vee"))
    assert "vegetarian" in _system(cap.calls[1]).lower()
