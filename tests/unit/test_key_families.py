"""The key-family registry: every key an extractor writes belongs to a family, and the LLM prompt
teaches the same families the rules write."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml

from goodmemory.extraction.base import ExtractionContext
from goodmemory.extraction.llm import LLMExtractor
from goodmemory.extraction.rules import RuleExtractor
from goodmemory.models import Message
from goodmemory.taxonomy import KEY_FAMILIES, canonical_key, family_by_name, family_of

ROOT = Path(__file__).resolve().parents[2]
AT = datetime(2025, 1, 1, tzinfo=UTC)


def _turn_sets() -> list[list[dict[str, str]]]:
    """Every session of the write corpus, plus every quoted first-person sentence of the rule unit tests."""
    out: list[list[dict[str, str]]] = []
    for f in sorted((ROOT / "fixtures" / "write_corpus").glob("*.yaml")):
        for life in yaml.safe_load(f.read_text()):
            for line in life["s"]:
                if isinstance(line, dict):
                    ((k, v),) = line.items()
                    line = f"{k}: {v}"
                body = line.partition(" | ")[2]
                out.append([{"role": "assistant", "content": t[3:]} if t.startswith("A: ") else
                            {"role": "user", "content": t} for t in body.split(" || ")])
    src = (ROOT / "tests" / "unit" / "test_rule_extractor.py").read_text()
    out += [[{"role": "user", "content": m}] for m in re.findall(r'"((?:I|I\'m|My|We|Our) [^"]{5,200})"', src)]
    return out


def test_every_rule_key_belongs_to_a_family() -> None:
    ex = RuleExtractor()
    seen, orphans = 0, {}
    for turns in _turn_sets():
        msgs = [Message(id=f"m{i}", role=t["role"], content=t["content"], timestamp=AT) for i, t in enumerate(turns)]
        for c in ex.extract(msgs, ExtractionContext(user_id="u", at=AT)):
            if c.metadata.get("statement"):
                continue  # the write path gives it a family or drops it (test_statements.py)
            seen += 1
            for key in filter(None, (c.key, c.closes)):
                if family_of(key) is None:
                    orphans[key] = c.text
            assert c.metadata.get("family") == family_of(c.key).name  # type: ignore[union-attr]
    assert seen > 50
    assert not orphans, orphans


def test_family_lookup_is_by_dotted_prefix_and_suffix() -> None:
    assert family_of("profile.home_city").name == "home_city"  # type: ignore[union-attr]
    assert family_of("vehicle.ford_focus.plate").name == "vehicle"  # type: ignore[union-attr]
    assert family_of("warranty.apple.expiration").name == "expiry"  # type: ignore[union-attr]
    assert family_of("profile.home_city~1a2b3c4d").name == "home_city"  # type: ignore[union-attr]
    assert family_of("vehiclex.thing") is None and family_of("episode.s1:0") is None
    names = [fam.name for fam in KEY_FAMILIES]
    assert len(names) == len(set(names))
    assert family_by_name("pet").multi and not family_by_name("home_city").multi


@pytest.mark.parametrize(("llm_key", "key"), [
    ("fact.vehicle.honda_civic.plate", "vehicle.honda_civic.plate"),
    ("open_loop.renew_passport", "task.renew_passport"),
    ("profile.home_city", "profile.home_city"),
    ("fact.pet.miso", "fact.pet.miso"),
    ("made_up.thing", "made_up.thing"),
])
def test_kind_first_keys_map_onto_the_registry(llm_key: str, key: str) -> None:
    assert canonical_key(llm_key) == key


def test_llm_prompt_teaches_the_registry_families() -> None:
    from goodmemory.llm.client import LLMConfig

    ex = LLMExtractor(config=LLMConfig(base_url="http://127.0.0.1:9/v1", api_key="x", model="m"))
    system = ex.build_messages([Message(id="m0", role="user", content="hi", timestamp=AT)],
                               ExtractionContext(user_id="u", at=AT))[0]["content"]
    for fam in KEY_FAMILIES:
        assert f"- {fam.key} ({fam.kind.value}, {fam.cardinality})" in system
    assert "fact.vehicle" not in system and "open_loop." not in system
