"""A change asked of the assistant ("can you swap my email to X", "could you update my address to Y please") is the
user's new value (issue 17): said as a request, the rules read it as an instruction to the assistant, so the new
value was never kept and the old one stayed current. The values kept are in test_news_then_question's one table; here,
what they replace."""

from __future__ import annotations

import pytest

from _memories import active_after


def test_a_change_asked_of_the_assistant_replaces_the_old_value() -> None:
    values = active_after("my email is jo.burke@yahoo.co.uk, can you use it for the booking?",
                          "hi again, can you change my email to jo@burkeplumbing.com, I never check the yahoo one")
    assert any("jo@burkeplumbing.com" in v for v in values)
    assert not any("jo.burke@yahoo.co.uk" in v for v in values)


@pytest.mark.parametrize("text", ["can you change the font to something bigger",
                                  "could you swap the order to put the summary first"])
def test_a_change_of_no_attribute_of_the_users_keeps_nothing_of_theirs(text: str) -> None:
    values = active_after(text)
    assert not any("font" in v or "summary" in v for v in values if "prefer" not in v.lower())


def test_a_change_asked_in_reply_to_the_assistant_is_kept() -> None:
    values = active_after(["A: Thanks for calling, can I confirm the email on file?", "sure, it's kb.ward@outlook.com"],
                          ["A: Anything else I can help with today?",
                           "yes can you change my email to kate@wardandco.uk, I'm closing the outlook one"])
    assert any("kate@wardandco.uk" in v for v in values)
    assert not any("kb.ward@outlook.com" in v for v in values)
