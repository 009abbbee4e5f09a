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


# -- focus: long turns cut to the sentences the question is about --------------------------------
LONG = ("Tim: It's been going well! Last week I talked to my friend about a fan convention. "
        "We went to a place in London a few years ago and it felt like walking into a movie. "
        "The tour guide knew every film location by heart. "
        "My sister adopted a puppy in March and it chews everything. "
        "I also started learning the guitar, which is hard on the fingers.")


def test_focus_keeps_the_sentences_sharing_a_word_with_the_question_and_their_neighbours() -> None:
    from goodmemory.digest import focus

    assert focus(LONG, ("places", "london", "visited")) == (
        "Tim: … Last week I talked to my friend about a fan convention. "
        "We went to a place in London a few years ago and it felt like walking into a movie. "
        "The tour guide knew every film location by heart. …")
    # a prefix stem: "guitars" finds "guitar"; the cut before it is marked once
    assert focus(LONG, ("guitars",)) == (
        "Tim: … My sister adopted a puppy in March and it chews everything. "
        "I also started learning the guitar, which is hard on the fingers.")


@pytest.mark.parametrize(("text", "words"), [
    (LONG, ("submarine",)),  # nothing shared: it matched by meaning, so it stays whole
    (LONG, ()),  # no content words in the question
    ("Tim: Went to London. Loved it.", ("london",)),  # short turns are not cut
    ("Tim: " + "word " * 30 + "London and more words without any sentence break", ("london",)),  # one sentence
    ("Tim: I love it. London is great and old. It is big and full of people to meet every day, "
     "and the food is good.", ("london",)),  # every sentence is a match or a neighbour
])
def test_focus_leaves_a_turn_whole(text: str, words: tuple[str, ...]) -> None:
    from goodmemory.digest import focus

    assert focus(text, words) == text


def test_titles_and_initials_do_not_end_a_sentence() -> None:
    from goodmemory.digest import _SENT, focus

    assert _SENT.split("We have Dr. Robert Chen. J. K. Rowling wrote it. Done!") == [
        "We have Dr. Robert Chen.", "J. K. Rowling wrote it.", "Done!"]
    turn = ("assistant: Parking is free on weekdays. The cafeteria serves soup until noon. Good to know. "
            "We have Dr. Robert Chen or Dr. Lisa Wang available, and scheduling either is easy.")
    cut = focus(turn, ("scheduled", "doctor", "seeing"))
    assert cut == "assistant: … Good to know. We have Dr. Robert Chen or Dr. Lisa Wang available, and scheduling either is easy."


def test_a_digest_record_names_the_turn_of_each_line_and_reads_back() -> None:
    from datetime import UTC, datetime

    from goodmemory.digest import DigestLine, digest_lines, digest_record

    at = datetime(2024, 5, 1, tzinfo=UTC)
    lines = [DigestLine("s:3", "user", "My flight LX10 leaves at 9:40 on May 3.", 1.0),
             DigestLine("s:3", "user", "The hotel is the Ibis at 12 Rue Kléber.", 1.0),
             DigestLine("s:7", "assistant", "Booking ref QX7P2 is confirmed.", 1.0)]
    r = digest_record(lines, first_message_id="s:0", user_id="u", agent_id=None, domain=None, session_id="s",
                      at=at, now=at, volatility=0.5)
    assert r.key == "episode.digest.s:0" and r.source.message_ids == ["s:3", "s:7"]
    assert r.text == ("Session digest (2024-05-01): My flight LX10 leaves at 9:40 on May 3. | "
                      "The hotel is the Ibis at 12 Rue Kléber. | Booking ref QX7P2 is confirmed.")
    parsed = digest_lines(r)
    assert parsed == ("Session digest (2024-05-01): ", [(line.message_id, line.sentence) for line in lines])
    # a digest written before line ids were kept, or whose text no longer matches them, cannot be split
    assert digest_lines(r.model_copy(update={"metadata": {"digest": True}})) is None
    assert digest_lines(r.model_copy(update={"text": r.text + " | one more"})) is None
