"""OpenTelemetry spans for remember / recall / build_context / forget, with the SDK's in-memory exporter."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("opentelemetry.sdk", reason="needs the otel extra: pip install 'goodmemory[otel]'")

from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter  # noqa: E402
from opentelemetry.trace import StatusCode  # noqa: E402

from goodmemory import GoodMemory, MemoryNotFoundError, create_good_memory  # noqa: E402
from goodmemory.integrations import otel  # noqa: E402
from goodmemory.testing import FakeEmbedder  # noqa: E402


@pytest.fixture
def exporter() -> Iterator[InMemorySpanExporter]:
    exp = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exp))
    otel.set_tracer_provider(provider)
    yield exp
    otel.set_tracer_provider(None)
    provider.shutdown()


@pytest.fixture
def memory(tmp_path: Any) -> Iterator[GoodMemory]:
    m = create_good_memory(f"sqlite:///{tmp_path / 'o.db'}", embedder=FakeEmbedder())
    yield m
    m.close()


def test_spans_follow_gen_ai_memory_conventions(memory: GoodMemory, exporter: InMemorySpanExporter,
                                                monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.delenv(otel.CAPTURE_QUERY_ENV, raising=False)
    memory.remember([{"role": "user", "content": "I live in Lisbon."}], user_id="u1")
    memory.recall("where do I live", user_id="u1")
    memory.build_context("hotel near home", user_id="u1", max_tokens=200)
    city = next(r for r in memory.list(user_id="u1") if r.kind.value == "profile")
    memory.forget(city.id, user_id="u1")
    memory.forget(user_id="u1", all=True)

    spans = exporter.get_finished_spans()
    ops = [s.attributes["gen_ai.operation.name"] for s in spans]
    assert ops == ["update_memory", "search_memory", "search_memory", "delete_memory", "delete_memory"]
    assert [s.name for s in spans][0] == "update_memory goodmemory"
    for s in spans:
        assert s.attributes["gen_ai.memory.store.id"] == f"sqlite:///{tmp_path / 'o.db'}"
        assert "gen_ai.memory.query.text" not in s.attributes  # not captured unless opted in
        assert not any(v == "u1" for v in s.attributes.values())  # the user id is never recorded
    remember, recall, ctx, forget_one, forget_all = spans
    assert remember.attributes["goodmemory.memories"] >= 2
    assert recall.attributes["goodmemory.hits"] >= 1
    assert ctx.attributes["goodmemory.tokens"] <= 200
    assert forget_one.attributes["gen_ai.memory.record.id"] == city.id
    assert "gen_ai.memory.record.id" not in forget_all.attributes  # absent = every record of the user


def test_query_text_only_when_opted_in(memory: GoodMemory, exporter: InMemorySpanExporter,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(otel.CAPTURE_QUERY_ENV, "1")
    memory.recall("where do I live", user_id="u1")
    memory.build_context("hotel near home", user_id="u1")
    texts = [s.attributes.get("gen_ai.memory.query.text") for s in exporter.get_finished_spans()]
    assert texts == ["where do I live", "hotel near home"]


def test_errors_are_recorded_and_reraised(memory: GoodMemory, exporter: InMemorySpanExporter) -> None:
    with pytest.raises(MemoryNotFoundError):
        memory.forget("no-such-id", user_id="u1")
    (span,) = exporter.get_finished_spans()
    assert span.status.status_code == StatusCode.ERROR
    assert span.attributes["error.type"] == "MemoryNotFoundError"


def test_no_provider_means_no_spans_and_same_behaviour(memory: GoodMemory) -> None:
    # with only the API's default (no-op) provider nothing is recorded and results are unchanged
    res = memory.remember([{"role": "user", "content": "I live in Lisbon."}], user_id="u1")
    assert res.memories
    assert GoodMemory.remember.__wrapped__ is not None  # type: ignore[attr-defined]


def test_traced_is_identity_without_opentelemetry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(otel, "_available", False)

    def remember(self: Any) -> str:
        return "same"

    assert otel.traced("remember")(remember) is remember
    with pytest.raises(ValueError):
        otel.traced("nonsense")


def test_feedback_import_and_maintain_spans(memory: GoodMemory, exporter: InMemorySpanExporter,
                                            monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.delenv(otel.CAPTURE_QUERY_ENV, raising=False)
    memory.remember([{"role": "user", "content": "I live in Lisbon and I work as a nurse."}], user_id="u1")
    city = next(r for r in memory.list(user_id="u1") if r.kind.value == "profile" and "Lisbon" in r.text)
    exporter.clear()
    memory.feedback(city.id, "confirm", user_id="u1")
    corrected = memory.feedback(city.id, "correct", user_id="u1", correction="I live in Porto.")
    exported = memory.export(user_id="u1")  # a read: not traced
    imported = memory.import_(exported, user_id="u2")
    memory.maintain(user_id="u1")
    memory.maintain()
    with pytest.raises(MemoryNotFoundError):
        memory.feedback("no-such-id", "confirm", user_id="u1")

    spans = exporter.get_finished_spans()
    assert [(s.attributes["goodmemory.method"], s.attributes["gen_ai.operation.name"]) for s in spans] == [
        ("feedback", "update_memory"), ("feedback", "update_memory"), ("import_", "update_memory"),
        ("maintain", "update_memory"), ("maintain", "update_memory"), ("feedback", "update_memory")]
    confirm, correct, imp, maintain_one, maintain_all, failed = spans
    for s in spans:
        assert s.name == "update_memory goodmemory"
        assert s.attributes["gen_ai.memory.store.id"] == f"sqlite:///{tmp_path / 'o.db'}"
        values = [str(v) for v in s.attributes.values()]
        assert not any(v in ("u1", "u2") for v in values)  # user ids are never recorded
        assert not any("Porto" in v for v in values)  # nor the correction text
    assert confirm.attributes["gen_ai.memory.record.id"] == city.id
    assert confirm.attributes["goodmemory.feedback.signal"] == "confirm"
    assert correct.attributes["goodmemory.feedback.signal"] == "correct"
    assert correct.attributes["goodmemory.new_record.id"] == corrected.new_memory_id
    assert imp.attributes["goodmemory.memories"] == len(imported.memories) == len(exported.memories) >= 2
    assert maintain_one.attributes["goodmemory.users"] == 1
    assert maintain_all.attributes["goodmemory.users"] == 2
    for key in ("decayed", "marked_stale", "consolidated", "compacted", "expired", "purged"):
        assert isinstance(maintain_one.attributes[f"goodmemory.{key}"], int), key
    assert failed.status.status_code == StatusCode.ERROR
    assert failed.attributes["error.type"] == "MemoryNotFoundError"
    from goodmemory.models import FeedbackSignal

    assert {s.value for s in FeedbackSignal} == otel._SIGNALS  # only known signals are recorded


def test_async_facade_calls_are_traced_once(exporter: InMemorySpanExporter, tmp_path: Any) -> None:
    import asyncio

    from goodmemory import AsyncGoodMemory

    async def run() -> None:
        with create_good_memory(f"sqlite:///{tmp_path / 'a.db'}", embedder=FakeEmbedder()) as core:
            amem = AsyncGoodMemory(core)
            await amem.remember([{"role": "user", "content": "I live in Lisbon."}], user_id="u1")
            await amem.maintain(user_id="u1")

    asyncio.run(run())
    assert [s.attributes["goodmemory.method"] for s in exporter.get_finished_spans()] == ["remember", "maintain"]
