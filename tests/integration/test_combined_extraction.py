"""Combined extraction (rules first, the LLM for the turns they left) through the real loopback
OpenAI-compatible server, with the replies a real model gives: malformed JSON, partial items, keys in
the kind-first style, ids it was not shown."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from goodmemory import GoodMemoryConfig, MemoryKind, create_good_memory
from goodmemory.extraction.base import ExtractionContext
from goodmemory.extraction.combined import CombinedExtractor, make_extractor
from goodmemory.extraction.llm import LLMExtractor
from goodmemory.extraction.rules import RuleExtractor
from goodmemory.llm import LLMClient, LLMConfig
from goodmemory.models import Message
from goodmemory.taxonomy import family_of
from goodmemory.testing.openai_server import ScriptedOpenAIServer

AT = datetime(2025, 3, 1, 9, tzinfo=UTC)


def _client(srv: ScriptedOpenAIServer) -> LLMClient:
    return LLMClient(LLMConfig(base_url=srv.base_url, api_key="k", model="m", timeout_s=5.0, max_retries=1,
                               backoff_s=0.01))


def _reply(*items: dict[str, Any]) -> str:
    return json.dumps({"memories": list(items)})


def _msgs(*turns: tuple[str, str]) -> list[Message]:
    return [Message(id=f"m{i}", role=r, content=c, timestamp=AT) for i, (r, c) in enumerate(turns)]  # type: ignore[arg-type]


@pytest.fixture
def server() -> Iterator[Any]:
    made: list[tuple[ScriptedOpenAIServer, LLMClient]] = []

    def make(replies: list[Any]) -> tuple[ScriptedOpenAIServer, LLMClient]:
        srv = ScriptedOpenAIServer(replies=replies).start()
        made.append((srv, _client(srv)))
        return made[-1]

    yield make
    for srv, client in made:
        client.close()
        srv.stop()


def test_only_unread_turns_go_to_the_model_and_its_keys_join_the_registry(server: Any) -> None:
    item = {"kind": "fact", "key": "fact.vehicle.cargo_bike", "value": "cargo bike", "text": "The user rides a cargo bike.",
            "message_ids": ["m2"], "confidence": 0.8}
    bad_id = {**item, "key": "fact.pet.rex", "message_ids": ["m9"]}
    srv, client = server(["not json at all {", _reply(item, bad_id)])
    ex = CombinedExtractor(LLMExtractor(client))
    msgs = _msgs(("user", "I live in Ghent."), ("assistant", "How do you get to work?"),
                 ("user", "On my cargo bike, it takes twenty minutes."))
    out = ex.extract(msgs, ExtractionContext(user_id="u", at=AT))
    sent = srv.requests[-1]["messages"][1]["content"]
    assert "cargo bike" in sent and "How do you get to work?" in sent and "Ghent" not in sent
    keys = {c.key for c in out}
    assert "profile.home_city" in keys and "vehicle.cargo_bike" in keys  # canonical, not fact.vehicle.*
    assert all(family_of(k) is not None for k in keys)
    assert "fact.pet.rex" not in keys  # it cited a message it was not shown
    assert not any(c.metadata.get("statement") for c in out if "m2" in c.message_ids)


def test_a_failing_model_leaves_the_rules_statements(server: Any) -> None:
    srv, client = server([{"status": 500}])
    ex = CombinedExtractor(LLMExtractor(client))
    msgs = _msgs(("user", "We keep two beehives behind the shed."))
    out = ex.extract(msgs, ExtractionContext(user_id="u", at=AT))
    assert out and all(c.metadata.get("statement") for c in out)
    assert len(srv.requests) >= 1


def test_nothing_unread_makes_no_call(server: Any) -> None:
    srv, client = server([_reply()])
    ex = CombinedExtractor(LLMExtractor(client), rules=RuleExtractor())
    ex.extract(_msgs(("user", "I live in Ghent.")), ExtractionContext(user_id="u", at=AT))
    assert srv.requests == []


def test_one_config_switch_selects_the_mode(server: Any) -> None:
    srv, client = server([_reply({"kind": "preference", "key": "preference.hobby.beekeeping", "value": "beekeeping",
                                  "text": "The user keeps bees.", "message_ids": ["s:0"], "confidence": 0.9})])
    assert type(make_extractor("rules")).__name__ == "RuleExtractor"
    mem = create_good_memory("sqlite://", config=GoodMemoryConfig(extraction="combined"), llm=client)
    try:
        assert isinstance(mem.extractor, CombinedExtractor)
        mem.remember([{"role": "user", "content": "Beekeeping takes most of my Saturdays."}], user_id="u",
                     session_id="s", at=AT)
        vals = [r.value for r in mem.list(user_id="u") if r.kind != MemoryKind.EPISODE]
        assert vals == ["beekeeping"]
    finally:
        mem.close()
    with pytest.raises(ValueError):
        GoodMemoryConfig(extraction="magic")  # type: ignore[arg-type]
