"""A run-on sentence longer than a statement may be is read clause by clause (issue 17): chat strings news together
with "and" and commas ("... and honestly we've been living in Leeds for a month now and I still can't find the
kettle, ..."), and past 40 words the whole sentence was no statement, so the news was lost. The sentences are my own."""

from __future__ import annotations

from _memories import active_after, assert_replaced

_LONG = ("so the boxes are everywhere and the kids are going mad and honestly we've been living in Leeds for a month "
         "now and I still can't find the kettle, the dog hates the new garden and my partner keeps saying it will all "
         "feel normal by Christmas")


def test_the_news_in_a_long_run_on_sentence_is_kept() -> None:
    assert len(_LONG.split()) > 40
    assert_replaced(active_after("I live in Sheffield, near the Botanical Gardens. What's a good walk nearby?", _LONG),
                    "Leeds", "Sheffield")


def test_a_long_sentence_of_chatter_keeps_nothing_of_its_clauses() -> None:
    chatter = ("it was one of those days where the bus was late and the coffee machine broke and then the meeting ran "
               "over and by the time it finished the canteen had closed, the printer jammed twice and the lift was out "
               "so it was stairs all the way up")
    assert len(chatter.split()) > 40
    assert active_after(chatter) == []
