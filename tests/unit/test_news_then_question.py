"""The news a user tells beside a question or a request of theirs is kept (issue 17): the whole turn had been read as
a question or an instruction, and the new value was never kept. One table, by the form chat puts them in; each group
failed on the commit before the one that added it. This file's own sentences.

- news, then a question after a dash, an emoji or a comma, whatever the question's first word;
- news, then a request running to the end of the turn, question mark or not;
- a request, then the news after a comma;
- news said without the "I'm"/"I've"/"my" chat drops, or in chat's own spelling ("im paying");
- a value beside a request about it ("... - remind me the day before", "Put X as my work number"), or with a hedge on
  why it is told (", in case it helps ...");
- a change of the user's own value asked of the assistant ("can you update my address to Y please").
"""

from __future__ import annotations

import pytest
from _extracting import assert_kept
from _extracting import values as _values


@pytest.mark.parametrize(("text", "word"), [
    # a question after a dash
    ("I've also signed up to help at the animal shelter on Sundays — what should I wear?", "animal shelter"),
    ("Started a Thursday pottery class - any tips for a beginner?", "pottery"),
    ("We adopted a second greyhound last week – how do I introduce them?", "greyhound"),
    # ... after an emoji, or a request in the same sentence
    ("Started a pottery course on Tuesdays too 🏺 any tips for centring clay?", "pottery"),
    ("Our running club meets at Pollok Park on Sundays, give me a few warm-up ideas?", "Pollok Park"),
    # ... a question of its own after a comma, whatever its first word
    ("the gym put the fee up to £52 from June, we're on a contract, is that even legal?", "£52"),
    ("Moved to Harrogate last month, do I need to re-register with a GP?", "Harrogate"),
    ("I'm with Vodafone on a two year contract, what's a decent case for the Pixel?", "Vodafone"),
    ("we just got a rescue whippet called Olive, whats the best harness for a skinny dog?", "Olive"),
    ("My broadband is with Plusnet now, which router settings should I change?", "Plusnet"),
    ("I teach year 5 at a primary in Leeds, how is the new phonics scheme different?", "year 5"),
    # ... a request to the end of the turn, commas and no question mark
    ("Priya goes to Sunflower nursery on thursdays and fridays, can you help me plan easy lunches for those days, "
     "she's fussy", "Sunflower"),
    ("we got a new puppy called Bramble, could you suggest some names for her toys, something silly", "Bramble"),
    # a request, then the news
    ("can you help me plan easy lunches, we've moved to Didsbury since the spring", "Didsbury"),
    ("could you draft a note to the school, Ellie's at Brookfield Primary now", "Brookfield Primary"),
    # chat drops the "I'm" of "I'm living in ..." as it drops the "my" of "new number ..."; and its own spelling
    ("living in Norwich, any decent bakeries near the market?", "Norwich"),
    ("been on lisinopril 10mg since march, is grapefruit ok with it?", "lisinopril"),
    ("working nights at the Royal Infirmary, any good ways to fix my sleep?", "Royal Infirmary"),
    ("based in Cardiff now, where's good for a Sunday roast?", "Cardiff"),
    ("my broadband deal ends in march, im paying £41 a month for 500Mb. is that steep?", "£41"),
    ("Switched to Halden in the end, £212, policy no. HA-440192. Do I cancel the old one?", "HA-440192"),
    # a value beside a request about it, or with a hedge on why it is told
    ("The vet is on the 3rd at 10:15 - remind me the day before", "10:15"),
    ("Parents' evening is Thursday at 6.30pm — can you block out my calendar?", "6.30pm"),
    ("Put 07700 900456 as my work number, please.", "07700 900456"),
    ("Use jo.marsh@posteo.de as my contact on the application.", "jo.marsh@posteo.de"),
    ("My shoe size is 43, in case it helps with the gift list you're making me.", "43"),
    ("My blood type is O negative, if that's ever relevant for the forms you help me fill in.", "O negative"),
    # a change of the user's own value asked of the assistant
    ("yeah could you change my email to mo.hassan@fastmail.com, the old one's full of spam", "mo.hassan@fastmail.com"),
    ("can you update my address to 12 Kestrel Way, Bath BA2 5PL please", "Kestrel Way"),
    ("ok can you swap my mobile number to 07700 900 318 from today", "07700 900 318"),
])
def test_the_news_beside_a_question_or_request_is_kept(text: str, word: str) -> None:
    assert_kept(text, word)


@pytest.mark.parametrize("text", [
    "What should I wear to a wedding - is a suit too much?",
    "Is it worth it - how long does the course take?",
    "Not sure about this one, what's the capital of Peru?",
    "Quick question, how do magnets work?",
    "What should I cook tonight, give me a few ideas?",
    "Is it ok to run every day, should I rest?",
    "Put it as my top priority, please.",
    "Put that down as my excuse.",
])
def test_a_question_or_request_with_no_news_keeps_nothing(text: str) -> None:
    assert _values(text) == []
