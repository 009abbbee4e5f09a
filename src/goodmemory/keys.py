"""The encodings of memory keys (pure): one place says how a key is spelled and read back.

- ``episode.<message id>``: a raw turn kept as evidence, one per message;
- ``episode.digest.<first message id>``: a session digest, built from turns and not itself a turn;
- ``<slot key>~<8 characters of the record id>``: one value of a multi-valued attribute ("a second cat"),
  so several active records share the slot ``<slot key>`` without sharing a key;
- ``fact.note.<words>.<digest>``: the user's own words that no other family names (the ``note`` family);
- ``<thing>[.<issuer>].expiration``: the day a document, card or warranty runs out (its value an ISO day).

Which slot keys exist (``vehicle.*``, ``appointment.*``, ...) is the key-family registry's business
(``_key_families``); this module only knows how keys are put together.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["DIGEST_PREFIX", "EPISODE_PREFIX", "MULTI_SEP", "NOTE_PREFIX", "digest_key", "episode_key",
           "EXPIRATION", "episode_keys", "in_slot", "is_digest", "is_expiration", "multi_value_key", "slot_of",
           "slot_prefix"]

EPISODE_PREFIX = "episode."
DIGEST_PREFIX = EPISODE_PREFIX + "digest."
MULTI_SEP = "~"
NOTE_PREFIX = "fact.note."
EXPIRATION = "expiration"  # the last part of a key whose value is the day its thing runs out


def episode_key(message_id: str) -> str:
    """The key of the raw turn of one message."""
    return EPISODE_PREFIX + message_id


def episode_keys(message_ids: Iterable[str]) -> tuple[str, ...]:
    return tuple(episode_key(m) for m in message_ids)


def digest_key(first_message_id: str) -> str:
    """The key of the digest of a session that starts at ``first_message_id``."""
    return DIGEST_PREFIX + first_message_id


def is_digest(key: str) -> bool:
    return key.startswith(DIGEST_PREFIX)


def slot_of(key: str) -> str:
    """The slot a key fills: the key without its multi-value suffix (``pet.cat~1a2b3c4d`` -> ``pet.cat``)."""
    return key.split(MULTI_SEP, 1)[0]


def slot_prefix(slot: str) -> str:
    """What every multi-value key of ``slot`` starts with (a storage ``key_prefix``)."""
    return slot + MULTI_SEP


def in_slot(key: str, slot: str) -> bool:
    """Whether ``key`` is ``slot`` itself or one of its multi-value keys."""
    return key == slot or key.startswith(slot + MULTI_SEP)


def multi_value_key(slot: str, record_id: str) -> str:
    """The key of one more value of a multi-valued slot, unique by the record id."""
    return f"{slot}{MULTI_SEP}{record_id[:8]}"


def is_expiration(key: str) -> bool:
    """Whether ``key`` (or the slot of a multi-value key) names the day something runs out."""
    return slot_of(key).endswith("." + EXPIRATION)
