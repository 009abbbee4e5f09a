"""Session digests and the density prior: specifics count, greetings and vocatives do not."""

from __future__ import annotations

import pytest

from goodmemory.digest import build_digest, density

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    "text",
    [
        "Hey Melanie!",
        "Thanks, Caroline!",
        "Caroline: Hey Melanie! How are you?",
        "Wow, Jon, that sounds great!",
        "Yeah Gina, totally agree.",
        "Sounds good, see you then!",
    ],
)
def test_greetings_and_vocatives_are_not_specific(text: str) -> None:
    assert density(text) < 0.2


@pytest.mark.parametrize(
    "text",
    [
        "My confirmation number is PAC-778K4M for the flight on May 3.",
        "The claim number is CLM-2024-894327 and Patricia Wong is the adjuster.",
        "Caroline: I went to the LGBTQ support group in Boston on Tuesday.",
    ],
)
def test_identifiers_names_and_dates_are_specific(text: str) -> None:
    assert density(text) >= 0.4


def _turns(lines: list[str]) -> list[tuple[str, str, str]]:
    return [(f"m{i}", "user", t) for i, t in enumerate(lines)]


def test_chit_chat_session_gets_no_digest() -> None:
    chat = [
        "Caroline: Hey Melanie! Good to see you!",
        "Melanie: Hey Caroline! Thanks, Caroline!",
        "Caroline: Wow, Mel, that's awesome!",
        "Melanie: Yeah Caroline, totally!",
        "Caroline: Thanks, Mel! You're the best.",
        "Melanie: Aww, thanks Caroline!",
        "Caroline: Bye Melanie, talk soon!",
        "Melanie: See you, Caroline!",
        "Caroline: Take care, Mel!",
    ]
    assert build_digest(_turns(chat)) == []


def test_digest_keeps_the_specific_sentences_and_cites_them() -> None:
    session = [
        "Hi there, thanks!",
        "Sure thing, Anna!",
        "My flight confirmation number is PAC-778K4M on Delta.",
        "Great, sounds good.",
        "The adjuster Patricia Wong will call within 24-48 hours about claim CLM-2024-894327.",
        "Okay, thanks!",
        "Hey Sam, cool!",
        "Perfect, see you.",
    ]
    lines = build_digest(_turns(session))
    assert [ln.message_id for ln in lines] == ["m2", "m4"]
    assert all(len(ln.sentence.split()) >= 6 for ln in lines)


def test_excerpt_drops_social_filler_sentences_and_marks_the_cut() -> None:
    from goodmemory.digest import excerpt

    text = "Jon: Sorry to hear that! Wow! I'm starting a dance studio 'cause I'm passionate about dancing."
    assert excerpt(text) == "Jon: … I'm starting a dance studio 'cause I'm passionate about dancing."
    assert excerpt("user: Thanks, that's great! My seat is 12C.") == "user: … My seat is 12C."


@pytest.mark.parametrize(
    "text",
    [
        "Thanks, Caroline!",  # nothing but filler: kept whole
        "I love hiking in the Alps. It is my favourite thing to do.",  # nothing to cut
        "assistant: Your confirmation number is PAC-778K4M.",
        "Sure, my account number is 4429853327.",  # filler opener, but it carries the fact
    ],
)
def test_excerpt_keeps_turns_without_filler_or_with_nothing_else(text: str) -> None:
    from goodmemory.digest import excerpt

    assert excerpt(text) == text
