"""Pet rules: the animals a user has, with their names (several in one sentence too)."""

from __future__ import annotations

import re

from ..models import MemoryKind
from ..taxonomy import slot_key
from . import _patterns as P
from ._engine import Clause, Example, Rule
from ._english import article

__all__ = ["PET_RULE", "_ANIMALS", "named_after"]

K = MemoryKind
Match = re.Match[str]

_ANIMALS = (r"dog|cat|puppy|kitten|rabbit|bunny|hamster|guinea pig|parrot|budgie|canary|goldfish|fish|turtle|tortoise|"
            r"snake|lizard|gecko|ferret|horse|pony|labrador|retriever|poodle|spaniel|terrier|beagle|collie|dachshund|"
            r"husky|greyhound|whippet|corgi|tabby|kitty")
_R_PET = re.compile(
    r"\b(?:i|we|our (?:family|household)|(?:the|my|our) (?:kids|children|son|daughter|partner|wife|husband)) "
    r"(?:also |now |just |recently )?(?:have|has|got|adopted|rescued|brought home) "
    r"(?:a|an|another|a second|a new|a little|a young|an old) (?:[\w\-]+ )?(?P<animal>" + _ANIMALS + r")"
    r"(?:,? (?:named|called)|,? (?:and )?(?:they|we|i|he|she) (?:called|named) (?:it|him|her)|,) (?P<v>" + P.NAME + r")"
    r"(?=$|[\s,.!;])|"
    # "my hamster Mochi keeps chewing ...", "our old greyhound Pepper": the animal and its name (a dog or a cat so said
    # is a relation the relation rule reads)
    r"\b(?:my|our) (?:[\w\-]+ )?(?P<animal2>(?!(?:dog|cat)\b)(?:" + _ANIMALS + r")) (?P<v2>" + P.NAME + r")"
    r"(?=$|[\s,.!;])", re.I)
# a further pet of the same sentence: "... a spaniel called Biscuit and a cat called Pepper"
_R_AND_PET = re.compile(r",? (?:and |plus )?(?:a|an|another|a second) (?:[\w\-]+ )?(?P<animal>" + _ANIMALS + r")"
                        r",? (?:named|called) (?P<v>" + P.NAME + r")(?=$|[\s,.!;])", re.I)


# the name told in the next sentence: "We got a second cat! Her name is Yuzu", "... a puppy. He's called Biscuit"
_NAMED_AFTER = re.compile(
    r"(?P<head>\b(?:a|an|another|a second|a new|a little|a young|an old) (?:[\w\-]+ )?(?:" + _ANIMALS + r"))"
    r"(?P<rest>[^.!?\n]{0,60}?)\s*[.!]+\s+(?:(?:and\s+)?(?:her|his|its|their) name(?:'s| is)|(?:she|he|it)(?:'s| is) called|"
    r"we(?:'ve| have)? (?:named|called) (?:her|him|it)|"
    # the pet said again with its name: "We adopted a second dog!! a retired greyhound called Pepper"
    r"(?:an?|the) (?:[\w\-]+ ){0,3}?(?:" + _ANIMALS + r") (?:called|named))\s+(?P<v>(?-i:[A-Z])[a-z]+)\b", re.I)


def named_after(text: str) -> str:
    """``text`` with a pet's name told in the sentence after the pet joined to it ("a second cat called Yuzu")."""
    return _NAMED_AFTER.sub(lambda m: f"{m.group('head')} called {m.group('v')}{m.group('rest')}", text)


def _pet(c: Clause, m: Match | None) -> None:
    assert m
    found: list[re.Match[str]] = [m]
    while (more := _R_AND_PET.match(c.s, found[-1].end())) is not None:
        found.append(more)
    for hit in found:
        v, animal = hit.group("v") or hit.group("v2"), (hit.group("animal") or hit.group("animal2")).lower()
        if v.split()[0].lower() not in P.NOT_NAMES:
            c.emit(slot_key("fact", "pet", v), v, c.say(a=article(animal), animal=animal, v=v),
                   keywords=f"pet {animal} named {v}")


PET_RULE = Rule("pet", K.FACT, ("pet",), "User has {a} {animal} named {v}.", _pet, pattern=_R_PET, importance=0.6,
                examples=(
        Example("We adopted a greyhound named Pepper.", "fact.pet.pepper", "Pepper"),
        Example("I also have a cat called Miso.", "fact.pet.miso", "Miso"),
        Example("We have a spaniel called Biscuit and a cat called Pepper.", "fact.pet.pepper", "Pepper"),
        Example("My daughter got a hamster and she named it Biscuit.", "fact.pet.biscuit", "Biscuit"),
        Example("My hamster Mochi keeps chewing the bars at night.", "fact.pet.mochi", "Mochi"),
        Example("I have a cat allergy.")))
