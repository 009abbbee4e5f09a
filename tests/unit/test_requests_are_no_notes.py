"""What the user asks of an answer is no memory of theirs (issue 17: junk notes), in my own sentences: "Redo my
CV summary please", "Love it, maybe mention the parking", "Need a quick lentil recipe", "Leaving gift ideas under
£30", "Around two hundred words would be ideal", "That tone is just right", "Nah that's it ta" had each become a note.
Facts said beside them, answers to the assistant's questions, and a request that names a value ("gift ideas under
£30": kept, as the value may be the user's) stay."""

from __future__ import annotations

import pytest

from goodmemory.extraction._statements import statement_candidate


def _kept(sentence: str, question: str | None = None) -> bool:
    return statement_candidate(sentence, question=question, message_ids=["m"], timestamp=None, domain=None,
                               correction=False, secret=False) is not None


@pytest.mark.parametrize("sentence", [
    "Redo my CV summary please",
    "Love it, maybe mention the parking on the 3rd",
    "Good idea, write the message to the parents",
    "Need a quick lentil recipe for four",
    "Leaving gift ideas for a colleague",
    "Around two hundred words would be ideal",
    "That tone is just right",
    "Nah that's it ta",
    "Second person, short and warm, please",
    "I'd like a menu for a birthday lunch for ten",
])
def test_a_request_or_feedback_is_no_statement(sentence: str) -> None:
    assert not _kept(sentence)


@pytest.mark.parametrize(("sentence", "question"), [
    ("I volunteer at the food bank on Saturdays", None),
    ("My ideas board is full of garden plans", None),
    ("We've been in Leeds since March", None),
    ("Spanish, please.", "Which language do you want the summaries in?"),
])
def test_a_fact_or_an_answer_stays(sentence: str, question: str | None) -> None:
    assert _kept(sentence, question)
