"""How the user wants answers, told in everyday words ("No technical jargon, please", "Straight to the point",
"Give me concrete examples", "Talk to me like a colleague"). Every sentence here is written for this module; none is
from an evaluation set."""

from __future__ import annotations

import pytest
from _extracting import keyed


def _styles(*turns: str) -> dict[str, str]:
    return keyed(*turns, prefix="preference.communication.")


@pytest.mark.parametrize(("turn", "attr", "word"), [
    ("No technical jargon, please, I'm not an engineer.", "jargon", "jargon"),
    ("Please skip the jargon when you explain money stuff to me.", "jargon", "jargon"),
    ("Use simple English please, I'm still learning.", "jargon", "plain"),
    ("Straight to the point please, no long intros.", "length", "concise"),
    ("Short and sweet, please, I read these on the bus.", "length", "concise"),
    ("Give me concrete examples, abstract explanations lose me.", "examples", "examples"),
    ("Show me a worked example whenever you explain a formula.", "examples", "example"),
    ("Numbered steps please, or I lose my place.", "format", "step"),
    ("I like the pros and cons laid out before I decide anything.", "format", "pros and cons"),
    ("Diagrams help me far more than paragraphs, I'm a visual learner.", "format", "visual"),
    ("Talk to me like a colleague, not a customer.", "tone", "colleague"),
    ("Be gentle with me, I'm nervous about all this.", "tone", "gentle"),
    ("Don't lecture me about sugar, just answer the question.", "tone", "lectur"),
    ("Three options max, please, more than that and I freeze.", "options", "3"),
    ("You can skip the basics with me, I've been a nurse for twenty years.", "level", "basics"),
    ("Always cite your sources, I like to check things.", "sources", "sources"),
    ("Please explain one step at a time, I get lost easily.", "format", "step"),
])
def test_a_way_of_answering_told_in_everyday_words_is_a_communication_preference(turn: str, attr: str,
                                                                                 word: str) -> None:
    styles = _styles(turn)
    assert any(k.startswith(f"preference.communication.{attr}") and word in v.lower() for k, v in styles.items()), \
        styles


def test_replies_in_a_language_named_in_two_words() -> None:
    styles = _styles("Please write to me in Brazilian Portuguese, it's easier for me.")
    assert styles.get("preference.communication.language") == "Brazilian Portuguese", styles


@pytest.mark.parametrize("turn", [
    "The examples in the book were confusing.",  # about a book, not the answers
    "My manager wants the pros and cons by Friday.",  # someone else's request
    "I gave a talk on jargon in medicine last week.",  # a thing the user did
    "Can you give me an example?",  # a question asks once
    "Show me an example first, I'll adjust it.",  # one example, asked once
    "Explain compound interest in simple words.",  # one answer asked for
    "explain like im 5: what is an index fund",  # the same
    "We went straight to the point of the meeting.",  # a story
])
def test_no_style_from_talk_about_other_things(turn: str) -> None:
    assert not _styles(turn), _styles(turn)
