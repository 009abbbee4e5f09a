"""The LLM extractor writes the rules' key families: a model answering with every family of the registry
(canonical keys, and the kind-first spelling a model tends to use) through the loopback OpenAI-compatible
server gets candidates whose keys all belong to that family, stamped as the rules stamp theirs."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from goodmemory.extraction.base import ExtractionContext
from goodmemory.extraction.llm import LLMExtractor
from goodmemory.llm import LLMClient, LLMConfig
from goodmemory.models import Message
from goodmemory.taxonomy import KEY_FAMILIES, family_of
from goodmemory.testing.openai_server import ScriptedOpenAIServer

pytestmark = pytest.mark.integration

AT = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)
_KIND_FIRST = {"fact": "fact", "open_loop": "open_loop", "procedure": "procedure"}


def _item(key: str, kind: str) -> dict[str, object]:
    return {"kind": kind, "key": key, "value": "x", "text": f"About {key}.", "confidence": 0.8,
            "importance": 0.5, "transferable": None, "message_ids": ["m0"], "is_correction": False, "closes": None}


def _extract(items: list[dict[str, object]]) -> list:  # type: ignore[type-arg]
    srv = ScriptedOpenAIServer(replies=[json.dumps({"memories": items})])
    srv.start()
    client = LLMClient(LLMConfig(base_url=srv.base_url, api_key="k", model="m", timeout_s=5.0, max_retries=0))
    try:
        msgs = [Message(id="m0", role="user", content="Some facts about me.", timestamp=AT)]
        return LLMExtractor(client).extract(msgs, ExtractionContext(user_id="u", at=AT))
    finally:
        client.close()
        srv.stop()


def test_every_registry_family_survives_the_llm_path_with_its_family() -> None:
    items = [_item(f"{fam.key}.sample", fam.kind.value) for fam in KEY_FAMILIES]
    # the kind-first spelling of older prompts ("fact.vehicle.*", "open_loop.*") lands on the same families
    items += [_item("fact.vehicle.sample.plate", "fact"), _item("open_loop.call_the_bank", "open_loop")]
    out = _extract(items)
    assert len(out) == len(items)
    for c in out:
        fam = family_of(c.key)
        assert fam is not None, c.key
        assert c.metadata["family"] == fam.name
    assert {c.metadata["family"] for c in out} == {fam.name for fam in KEY_FAMILIES}


def test_a_key_outside_the_registry_carries_no_family() -> None:
    (c,) = _extract([_item("hobbyhorse.thing", "fact")])
    assert family_of(c.key) is None and "family" not in c.metadata
