"""Context blocks that GoodMemory rendered are stripped from incoming messages; an unclosed
<memory-context> (a user quoting the tag, a truncated paste) must not swallow the rest of the message."""

from __future__ import annotations

from goodmemory._write import strip_injected
from goodmemory.context import CLOSE, OPEN, PREAMBLE


def test_a_rendered_block_is_stripped() -> None:
    block = f'{OPEN}\n{PREAMBLE}\n## About the user\n- [abc123 profile 2025-01-01] "User lives in Lisbon."\n{CLOSE}'
    assert strip_injected(f"{block}\nWhat should I pack?") == "What should I pack?"


def test_an_unclosed_tag_keeps_the_rest_of_the_message() -> None:
    text = f"My logs show a stray {OPEN} tag. Also, I moved to Porto last week."
    out = strip_injected(text)
    assert "I moved to Porto last week." in out and OPEN not in out


def test_a_truncated_rendered_block_is_stripped_but_what_follows_it_is_kept() -> None:
    text = (f'{OPEN}\n{PREAMBLE}\n## About the user\n- [abc123 profile 2025-01-01] "User lives in Lisbon."\n'
            "I also adopted a cat named Miso.")
    out = strip_injected(text)
    assert out == "I also adopted a cat named Miso."
