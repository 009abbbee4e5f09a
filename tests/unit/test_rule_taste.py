"""Tastes told in idioms: what the user loves, can't stand or keeps away from, and needs of the body that shape
a recommendation ("I'm obsessed with X", "X drives me up the wall", "X is not for me", "I keep well away from X",
"I have tinnitus"). Every sentence here is written for this module; none is from an evaluation set."""

from __future__ import annotations

import pytest
from _extracting import keyed


def _prefs(*turns: str) -> dict[str, str]:
    return keyed(*turns, prefix="preference.")


LIKES = [
    ("I'm completely obsessed with sourdough baking, my starter has a name.", "sourdough baking"),
    ("Honestly I can't get enough of Korean thrillers.", "korean thrillers"),
    ("We're huge fans of board games, Friday is game night.", "board games"),
    ("I've become a bit of a fanatic for single-origin coffee.", "single-origin coffee"),
    ("I'm a total sucker for second-hand bookshops.", "second-hand bookshops"),
    ("I'm hooked on cryptic crosswords lately.", "cryptic crosswords"),
    ("Cold-water swimming is my happy place.", "cold-water swimming"),
    ("Long walks on the coast path are my idea of a perfect Sunday.", "long walks on the coast path"),
    ("Birdwatching is basically my religion at this point.", "birdwatching"),
    ("Nothing beats a proper Sunday roast with all the trimmings.", "a proper sunday roast with all the trimmings"),
    ("Allotment gardening keeps me sane, I'm down there most evenings.", "allotment gardening"),
    ("Italian opera is my guilty pleasure.", "italian opera"),
    # chat drops the "I"; "we" is the household's taste
    ("Big fan of sea shanties, the louder the better.", "sea shanties"),
    ("Love a good pub quiz on a Tuesday.", "a good pub quiz on a tuesday"),
    ("We adore hosting dinner parties.", "hosting dinner parties"),
    ("Lately I've been really into pottery.", "pottery"),
    ("I find long train journeys really relaxing.", "long train journeys"),
    ("Rock climbing is my whole life.", "rock climbing"),
    ("Vintage synths are my weekend obsession.", "vintage synths"),
]

DISLIKES = [
    ("Musicals drive me up the wall, all that singing.", "musicals"),
    ("Camping is not for me, I need a proper bed.", "camping"),
    ("Escape rooms aren't really my thing.", "escape rooms"),
    ("Stand-up comedy does nothing for me.", "stand-up comedy"),
    ("Strong perfume gives me a headache.", "strong perfume"),
    ("Crowded beaches are my idea of hell.", "crowded beaches"),
    ("Opera I just don't get.", "opera"),
    ("I steer clear of chain restaurants whenever I can.", "chain restaurants"),
    ("We keep well away from theme parks, the queues are awful.", "theme parks"),
    ("I have no patience for long voicemails.", "long voicemails"),
    ("I never go near fast food these days.", "fast food"),
    ("Loud bars are a no-go for me.", "loud bars"),
    ("Not a fan of cruises, too many people on one boat.", "cruises"),
    ("I'm not fond of spicy curries.", "spicy curries"),
    ("We avoid motorways at rush hour.", "motorways at rush hour"),
    ("I try to avoid anything with palm oil in it.", "anything with palm oil in it"),
    ("I find reality shows tedious.", "reality shows"),
    ("Golf just doesn't do it for me.", "golf"),
    ("Clowns make me nervous.", "clowns"),
    ("Red meat is off the menu since my operation.", "red meat"),
    ("I've never touched cigarettes.", "cigarettes"),
]


@pytest.mark.parametrize(("turn", "thing"), LIKES)
def test_an_idiom_of_liking_is_a_like(turn: str, thing: str) -> None:
    prefs = _prefs(turn)
    assert any(k.startswith("preference.like.") and v.lower() == f"likes {thing}" for k, v in prefs.items()), prefs


@pytest.mark.parametrize(("turn", "thing"), DISLIKES)
def test_an_idiom_of_disliking_or_keeping_away_is_a_dislike(turn: str, thing: str) -> None:
    prefs = _prefs(turn)
    assert any(k.startswith("preference.like.") and v.lower() in (f"dislikes {thing}", f"avoids {thing}")
               for k, v in prefs.items()), prefs


@pytest.mark.parametrize("turn", [
    "It drives me up the wall when the train is late.",  # no thing: a moment's annoyance
    "This weather is not for me.",  # the day's weather, no taste
    "My landlord drives me up the wall.",  # a person of the user's life, not a taste
    "The new printer gives me a headache every morning.",  # one thing of the day
    "That hotel is my idea of a nightmare.",  # the one named before: no standing taste
    "I wouldn't say I'm obsessed with football.",  # denied
    "I used to be obsessed with chess.",  # no longer
    "Nothing beats it.",  # no thing named
    "Is camping really not for me?",  # a question asserts nothing
    "My sister is obsessed with horses.",  # someone else's taste
    "Love the new layout, thanks!",  # what the user thinks of the assistant's work
    "I find it hard to sleep.",  # no taste
    "I find the instructions confusing.",  # the thing of the talk
    "We avoid it when we can.",  # no thing named
])
def test_no_taste_without_a_standing_thing_of_the_users(turn: str) -> None:
    prefs = _prefs(turn)
    assert not any(k.startswith("preference.like.") for k in prefs), prefs


NEEDS = [
    ("I have tinnitus, so I can't do loud gigs.", "preference.accessibility.hearing"),
    ("I'm partially sighted and need large print.", "preference.accessibility.vision"),
    ("I'm red-green colour blind.", "preference.accessibility.vision"),
    ("My eyesight isn't great anymore.", "preference.accessibility.vision"),
    ("I have a stammer, so I'd rather not use the phone.", "preference.accessibility.speech"),
    ("I get claustrophobic in lifts.", "preference.accessibility.anxiety"),
    ("I have bad knees, stairs are hard work.", "preference.accessibility.mobility"),
    ("I have asthma, smoke sets me off.", "preference.accessibility.breathing"),
]


@pytest.mark.parametrize(("turn", "key"), NEEDS)
def test_a_need_of_the_body_is_an_accessibility_need(turn: str, key: str) -> None:
    assert key in _prefs(turn), _prefs(turn)


@pytest.mark.parametrize("turn", [
    "My dad has tinnitus.",  # another person's
    "Do you have asthma?",  # the assistant's question (said by the user: still a question)
    "I had asthma as a kid but grew out of it.",  # over
])
def test_no_need_that_is_not_the_users_now(turn: str) -> None:
    assert not any(k.startswith("preference.accessibility.") for k in _prefs(turn)), _prefs(turn)


@pytest.mark.parametrize(("turn", "key"), [
    ("I'm coeliac, bread is out for me.", "preference.diet.allergy.gluten"),
    ("Shellfish gives me hives.", "preference.diet.allergy.shellfish"),
    ("Dairy doesn't agree with me at all.", "preference.diet.intolerance.dairy"),
    ("I'm eating low-carb during the week.", "preference.diet.type"),
])
def test_a_diet_said_in_passing_is_a_diet(turn: str, key: str) -> None:
    assert key in _prefs(turn), _prefs(turn)
