"""LLMExtractor and LLMClient against a real loopback OpenAI-compatible server (no mocks)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from pydantic import BaseModel

from goodmemory.errors import ExtractionError, LLMError
from goodmemory.extraction.base import ExtractionContext, Extractor
from goodmemory.extraction.llm import EXTRACTION_PROMPT, LLMExtractor
from goodmemory.llm import LLMClient, LLMConfig
from goodmemory.models import Candidate, MemoryKind, Message
from goodmemory.testing.openai_server import Reply, ScriptedOpenAIServer

pytestmark = pytest.mark.integration

T0 = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)


def _messages() -> list[Message]:
    return [
        Message(id="m1", role="user", content="Hi! I moved to Porto last month.", timestamp=T0),
        Message(
            id="m2",
            role="assistant",
            content="Nice, how do you like Porto?",
            timestamp=T0 + timedelta(minutes=1),
        ),
        Message(
            id="m3",
            role="user",
            content="Love it. Please always give me prices in euros.",
            timestamp=T0 + timedelta(minutes=2),
        ),
    ]


def _ctx(**kw: Any) -> ExtractionContext:
    base: dict[str, Any] = {
        "user_id": "u42",
        "session_id": "s7",
        "domain": "travel",
        "at": T0 + timedelta(minutes=3),
        "existing": {"profile.home_city": "Lisbon", "preference.seat": "aisle"},
    }
    base.update(kw)
    return ExtractionContext(**base)


def _memory(**kw: Any) -> dict[str, Any]:
    item: dict[str, Any] = {
        "kind": "profile",
        "key": "profile.home_city",
        "value": "Porto",
        "text": "The user lives in Porto.",
        "confidence": 0.9,
        "importance": 0.8,
        "transferable": True,
        "message_ids": ["m1"],
        "is_correction": True,
        "closes": None,
    }
    item.update(kw)
    return item


def _reply(*items: dict[str, Any]) -> str:
    return json.dumps({"memories": list(items)})


GOOD = _reply(
    _memory(),
    _memory(
        kind="preference",
        key="Preference.Currency Display",
        value="EUR",
        text="The user wants prices in euros.",
        confidence=0.8,
        importance=0.6,
        transferable=None,
        message_ids=["m3", "m2"],
        is_correction=False,
    ),
)


class StubExtractor:
    """A tiny extractor implementing the protocol, to check the fallback path."""

    name = "stub"

    def __init__(self) -> None:
        self.calls = 0

    def extract(self, messages: Sequence[Message], ctx: ExtractionContext) -> list[Candidate]:
        self.calls += 1
        return [Candidate(kind=MemoryKind.FACT, key="fact.stub", text="stub", extractor=self.name)]


def _config(srv: ScriptedOpenAIServer, **kw: Any) -> LLMConfig:
    settings: dict[str, Any] = {
        "base_url": srv.base_url,
        "api_key": "test-key",
        "model": "test-model",
        "timeout_s": 5.0,
        "max_retries": 2,
        "backoff_s": 0.01,
    }
    settings.update(kw)
    return LLMConfig(**settings)


class Harness:
    def __init__(self, replies: Sequence[Reply], *, fallback: Extractor | None = None, **config: Any) -> None:
        self.srv = ScriptedOpenAIServer(replies=list(replies))
        self.srv.start()
        self.client = LLMClient(_config(self.srv, **config))
        self.extractor = LLMExtractor(self.client, fallback=fallback)

    def close(self) -> None:
        self.client.close()
        self.srv.stop()


@pytest.fixture
def harness() -> Iterator[Any]:
    made: list[Harness] = []

    def make(replies: Sequence[Reply], **kw: Any) -> Harness:
        h = Harness(replies, **kw)
        made.append(h)
        return h

    yield make
    for h in made:
        h.close()


# -- the happy path ---------------------------------------------------------------------


def test_good_reply_produces_candidates_with_the_right_fields(harness: Any) -> None:
    h = harness([GOOD])
    candidates = h.extractor.extract(_messages(), _ctx())

    assert isinstance(h.extractor, Extractor)
    assert h.extractor.name == "llm"
    assert len(h.srv.chat_requests) == 1  # one call per batch
    city, currency = candidates
    assert city.kind is MemoryKind.PROFILE
    assert city.key == "profile.home_city"
    assert city.value == "Porto"
    assert city.text == "The user lives in Porto."
    assert city.confidence == 0.9
    assert city.importance == 0.8
    assert city.transferable is True
    assert city.message_ids == ["m1"]
    assert city.is_correction is True
    assert city.closes is None
    assert city.extractor == "llm"
    assert city.role == "user"
    assert city.timestamp == T0
    assert city.domain == "travel"

    assert currency.kind is MemoryKind.PREFERENCE
    assert currency.key == "preference.currency_display"  # normalised
    assert currency.transferable is None
    assert currency.message_ids == ["m3", "m2"]
    assert currency.role == "user"  # a user turn is among the sources
    assert currency.timestamp == T0 + timedelta(minutes=2)  # the latest source message


def test_the_request_is_a_json_chat_call_with_the_prompt(harness: Any) -> None:
    h = harness([GOOD])
    h.extractor.extract(_messages(), _ctx())
    body = h.srv.chat_requests[0]
    assert body["model"] == "test-model"
    assert body["temperature"] == 0
    assert body["response_format"]["type"] == "json_schema"
    assert "memories" in json.dumps(body["response_format"]["json_schema"]["schema"])
    system, user = body["messages"]
    assert system["role"] == "system"
    assert EXTRACTION_PROMPT.splitlines()[0] in system["content"]
    assert "JSON schema" in system["content"]  # the instruction is in the prompt too
    assert "m1 | user | 2024-05-01T09:00:00+00:00" in user["content"]
    assert "m2 | assistant" in user["content"]
    assert "DOMAIN: travel" in user["content"]


def test_the_prompt_contains_the_existing_slot_values(harness: Any) -> None:
    h = harness([_reply()])
    assert h.extractor.extract(_messages(), _ctx()) == []
    prompt = h.srv.prompt_text()
    assert "profile.home_city = Lisbon" in prompt
    assert "preference.seat = aisle" in prompt


def test_code_fenced_json_is_accepted(harness: Any) -> None:
    h = harness([f"Here you go:\n```json\n{GOOD}\n```"])
    assert [c.key for c in h.extractor.extract(_messages(), _ctx())] == [
        "profile.home_city",
        "preference.currency_display",
    ]


def test_empty_batch_makes_no_call(harness: Any) -> None:
    h = harness([GOOD])
    assert h.extractor.extract([], _ctx()) == []
    assert h.srv.requests == []


# -- what gets dropped ----------------------------------------------------------------


def test_items_citing_unknown_message_ids_are_dropped(harness: Any) -> None:
    h = harness(
        [
            _reply(
                _memory(message_ids=["m99"]),
                _memory(
                    key="profile.name", value="Ana", text="The user is Ana.", message_ids=["m1", "bogus"]
                ),
                _memory(key="profile.job", value="nurse", text="The user is a nurse.", message_ids=[]),
                _memory(key="profile.pet", value="cat", text="The user has a cat.", message_ids=["m3"]),
            )
        ]
    )
    candidates = h.extractor.extract(_messages(), _ctx())
    assert [c.key for c in candidates] == ["profile.pet"]


def test_items_of_unknown_kind_are_dropped(harness: Any) -> None:
    h = harness(
        [_reply(_memory(kind="rumour"), _memory(kind="Open Loop", key="open_loop.visa", text="Get a visa."))]
    )
    candidates = h.extractor.extract(_messages(), _ctx())
    # the kind-first key a model may write maps onto the registry's task family
    assert [(c.kind, c.key) for c in candidates] == [(MemoryKind.OPEN_LOOP, "task.visa")]


def test_assistant_only_sources_keep_the_assistant_role(harness: Any) -> None:
    h = harness([_reply(_memory(message_ids=["m2"]))])
    (candidate,) = h.extractor.extract(_messages(), _ctx())
    assert candidate.role == "assistant"
    assert candidate.timestamp == T0 + timedelta(minutes=1)


# -- retries and failures -----------------------------------------------------------------


def test_malformed_json_then_good_json_succeeds_after_a_retry(harness: Any) -> None:
    h = harness(["this is not json {", GOOD])
    candidates = h.extractor.extract(_messages(), _ctx())
    assert len(candidates) == 2
    assert len(h.srv.chat_requests) == 2
    # the retry tells the model what was wrong
    assert "could not be used" in h.srv.prompt_text(1)


def test_schema_violation_is_retried(harness: Any) -> None:
    h = harness([json.dumps({"memories": [{"kind": "profile"}]}), GOOD])
    assert len(h.extractor.extract(_messages(), _ctx())) == 2
    assert len(h.srv.chat_requests) == 2


def test_always_malformed_raises_extraction_error(harness: Any) -> None:
    h = harness(["nope"], max_retries=2)
    with pytest.raises(ExtractionError) as info:
        h.extractor.extract(_messages(), _ctx())
    assert isinstance(info.value.__cause__, LLMError)
    assert h.srv.base_url in str(info.value)
    assert "JSON" in str(info.value)
    assert len(h.srv.chat_requests) == 3


def test_429_then_success_succeeds_and_the_server_saw_two_requests(harness: Any) -> None:
    h = harness([{"status": 429}, GOOD])
    assert len(h.extractor.extract(_messages(), _ctx())) == 2
    assert len(h.srv.requests) == 2


def test_5xx_then_success_succeeds(harness: Any) -> None:
    h = harness([{"status": 500, "body": "oops"}, {"status": 503}, GOOD])
    assert len(h.extractor.extract(_messages(), _ctx())) == 2
    assert len(h.srv.requests) == 3


def test_always_429_raises_extraction_error_naming_the_endpoint(harness: Any) -> None:
    h = harness([{"status": 429}], max_retries=2)
    with pytest.raises(ExtractionError) as info:
        h.extractor.extract(_messages(), _ctx())
    message = str(info.value)
    assert h.srv.base_url in message
    assert "429" in message
    assert len(h.srv.requests) == 3
    assert isinstance(info.value.__cause__, LLMError)


def test_a_hang_longer_than_the_timeout_fails_quickly(harness: Any) -> None:
    h = harness([{"hang": 2}], timeout_s=0.5, max_retries=0)
    start = time.monotonic()
    with pytest.raises(ExtractionError) as info:
        h.extractor.extract(_messages(), _ctx())
    assert time.monotonic() - start < 1.5
    assert "timed out" in str(info.value)


def test_client_errors_are_not_retried(harness: Any) -> None:
    h = harness([{"status": 401}], max_retries=3, use_json_schema=False)
    with pytest.raises(ExtractionError, match="401"):
        h.extractor.extract(_messages(), _ctx())
    assert len(h.srv.requests) == 1


def test_endpoints_rejecting_json_schema_are_retried_without_it(harness: Any) -> None:
    h = harness(
        [{"status": 400, "body": {"error": {"message": "response_format not supported"}}}, GOOD],
        max_retries=0,
    )
    assert len(h.extractor.extract(_messages(), _ctx())) == 2
    first, second = h.srv.chat_requests
    assert "response_format" in first
    assert "response_format" not in second
    assert "JSON schema" in h.srv.prompt_text(1)  # still instructed in the prompt


def test_fallback_extractor_is_used_when_the_llm_fails(
    harness: Any, caplog: pytest.LogCaptureFixture
) -> None:
    stub = StubExtractor()
    h = harness([{"status": 500}], fallback=stub, max_retries=1)
    with caplog.at_level("WARNING", logger="goodmemory.extraction.llm"):
        candidates = h.extractor.extract(_messages(), _ctx())
    assert stub.calls == 1
    assert [c.extractor for c in candidates] == ["stub"]
    assert any("stub" in r.getMessage() for r in caplog.records)


def test_fallback_is_not_used_when_the_llm_works(harness: Any) -> None:
    stub = StubExtractor()
    h = harness([GOOD], fallback=stub)
    assert len(h.extractor.extract(_messages(), _ctx())) == 2
    assert stub.calls == 0


# -- the client on its own --------------------------------------------------------------


class Pick(BaseModel):
    answer: int


def test_client_complete_json_and_complete() -> None:
    with ScriptedOpenAIServer(replies=['{"answer": 42}', "plain text"]) as srv:
        with LLMClient(_config(srv)) as client:
            assert client.complete_json([{"role": "user", "content": "q"}], Pick) == Pick(answer=42)
            assert client.complete([{"role": "user", "content": "q"}]) == "plain text"
        assert "response_format" not in srv.requests[1]


def test_config_reads_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret")
    monkeypatch.delenv("GOODMEMORY_LLM_MODEL", raising=False)
    monkeypatch.setenv("OPENAI_MODEL", "env-model")
    config = LLMConfig()
    assert (config.base_url, config.api_key, config.model) == (
        "http://127.0.0.1:9/v1",
        "sk-secret",
        "env-model",
    )
    monkeypatch.setenv("GOODMEMORY_LLM_MODEL", "gm-model")
    assert LLMConfig().model == "gm-model"
    assert LLMConfig(model="explicit").model == "explicit"
    assert "sk-secret" not in repr(config)


def test_extractor_builds_its_own_client_from_config() -> None:
    with ScriptedOpenAIServer(replies=[GOOD]) as srv:
        extractor = LLMExtractor(config=_config(srv))
        try:
            assert len(extractor.extract(_messages(), _ctx())) == 2
        finally:
            extractor.close()
