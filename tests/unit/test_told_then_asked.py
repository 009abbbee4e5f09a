"""A sentence that tells something and then asks for help in the same breath keeps what it told (issue 17): "My bins
go out on wednesdays now, tell me a good way to remember" was no statement at all, its request ("tell me", "help me",
"I need some ideas") read as the whole sentence's. The sentences are my own."""

from __future__ import annotations

import pytest

from goodmemory.extraction._statements import statement_candidate


def _value(sentence: str) -> str | None:
    c = statement_candidate(sentence, question=None, message_ids=["m"], timestamp=None, domain=None,
                            correction=False, secret=False)
    return None if c is None else c.value


@pytest.mark.parametrize(("sentence", "told"), [
    ("Our boy's at nursery on tuesdays and thursdays now, help me plan packed lunches for those days",
     "Our boy's at nursery on tuesdays and thursdays now"),
    ("We get our veg box from Riverford every friday these days, I need some ideas for using up kale",
     "We get our veg box from Riverford every friday these days"),
    ("My bins go out on wednesdays now, tell me a good way to remember", "My bins go out on wednesdays now"),
    ("The allotment is plot 14 at Hillside now, I'm looking for a cheap shed", "The allotment is plot 14 at Hillside now"),
    ("Thursday nights are choir for me, I'm trying to get the alto part right",
     "Thursday nights are choir for me"),
    ("My sister is staying with us all of June and I want to plan some day trips",
     "My sister is staying with us all of June"),
])
def test_what_the_sentence_told_before_its_request_is_the_statement(sentence: str, told: str) -> None:
    assert _value(sentence) == told


@pytest.mark.parametrize("sentence", [
    "Could you help me plan packed lunches for the week",
    "Quick one, can you tell me a good way to remember bin day",
    "Thanks, help me write the card now",
])
def test_a_request_alone_is_still_no_statement(sentence: str) -> None:
    assert _value(sentence) is None
