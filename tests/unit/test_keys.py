"""Key encodings (goodmemory.keys) and the key-family registry: every key the rule extractor writes on the
write corpus belongs to a family."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from goodmemory import keys
from goodmemory._key_families import family_of
from goodmemory.extraction._statements import STATEMENT_KEY
from goodmemory.extraction.base import ExtractionContext
from goodmemory.extraction.rules import RuleExtractor
from goodmemory.models import MemoryKind, Message


def test_multi_value_keys_stay_in_their_slot() -> None:
    key = keys.multi_value_key("pet.cat", "1a2b3c4d5e6f")
    assert key == "pet.cat~1a2b3c4d"
    assert keys.slot_of(key) == "pet.cat" and keys.slot_of("pet.cat") == "pet.cat"
    assert keys.in_slot(key, "pet.cat") and keys.in_slot("pet.cat", "pet.cat")
    assert not keys.in_slot("pet.cattle", "pet.cat") and not keys.in_slot("pet.cat~x", "pet")
    assert key.startswith(keys.slot_prefix("pet.cat"))


def test_episode_and_digest_keys() -> None:
    assert keys.episode_key("s1:0") == "episode.s1:0"
    assert keys.episode_keys(["a", "b"]) == ("episode.a", "episode.b")
    assert keys.is_digest(keys.digest_key("s1:0")) and not keys.is_digest(keys.episode_key("s1:0"))
    # a digest is an episode too (one key space), but never the turn of a message
    assert keys.digest_key("m1").startswith(keys.EPISODE_PREFIX) and keys.digest_key("m1") != keys.episode_key("m1")


def _sessions(write_eval: Any) -> list[tuple[str, list[Message]]]:
    """Every session of the write corpus, read by the write eval's own loader."""
    return [(f"{life.id}#{s}", [Message(role=t["role"], content=t["content"], id=f"m{s}.{i}", timestamp=at)
                                for i, t in enumerate(turns)])
            for life in write_eval.load_corpus() for s, (at, turns) in enumerate(life.sessions)]


@pytest.mark.parametrize("statements", [False, True], ids=["rules", "rules+statements"])
def test_every_key_the_rule_extractor_writes_on_the_write_corpus_has_a_family(statements: bool, write_eval: Any) -> None:
    sessions = _sessions(write_eval)
    assert len(sessions) > 100
    emitted: dict[str, str] = {}
    for sid, msgs in sessions:
        ctx = ExtractionContext(user_id="u", at=msgs[0].timestamp or datetime.now(), existing={})
        for c in RuleExtractor(statements=statements).extract(msgs, ctx):
            if c.kind != MemoryKind.EPISODE:
                emitted.setdefault(c.key, sid)
    assert len(emitted) > 50
    # a statement no rule keyed waits under a placeholder the write path replaces with its family's key
    # (tests/integration/test_stored_keys.py checks what is stored)
    orphans = {k: sid for k, sid in emitted.items() if family_of(k) is None and k != STATEMENT_KEY}
    assert not orphans, f"keys without a family (key: where): {orphans}"


def test_a_key_outside_every_family_is_caught() -> None:
    assert family_of("no_such_family.thing") is None and family_of("vehicle.civic.plate") is not None


@pytest.mark.parametrize(("key", "expected"), [
    ("passport.expiration", True), ("warranty.dyson.expiration", True), ("passport.expiration~1a2b3c4d", True),
    ("expiration", False), ("passport.expiration_note", False), ("passport.number", False),
])
def test_an_expiration_key_is_read_by_its_attribute_whatever_its_family(key: str, expected: bool) -> None:
    from goodmemory.keys import is_expiration

    assert is_expiration(key) is expected
