"""How the user wants answers, told in everyday words: no jargon, straight to the point, examples, numbered steps,
pros and cons, visuals, a tone ("talk to me like a colleague", "be gentle with me", "don't lecture me"), a number
of options, the level ("skip the basics") and sources.

``COMM_RULES`` reads the set phrases ("keep it short", "bullet points", "no jargon"); these are the other ways
people say the same. Each is a way of answering under ``preference.communication.<what>``, kept with the user's
own words beside it. A question, or a clause about someone else's wishes ("my manager wants the pros and cons"),
asks for no standing way of answering.
"""

from __future__ import annotations

import re

from ..models import MemoryKind
from ._engine import Clause, Example, Rule

__all__ = ["STYLE_RULE"]

Match = re.Match[str]

_N = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "a single": "1"}
_NUM = r"(?:one|two|three|four|five|a single|\d)"
_OPTIONS = r"(?:options|choices|suggestions|ideas|recommendations|picks)"
# (what, the value, pattern): the value may name a group of the match ({n}, {who}, {adj})
_STYLES: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple((what, value, re.compile(pat, re.I)) for what, value, pat in (
    ("jargon", "plain language without jargon",
     r"\b(?:no|skip (?:the|all the)|without|avoid|cut (?:out )?the|spare me the|less)\s+(?:\w+\s+)?(?:jargon|buzzwords|"
     r"fancy words|big words)\b|\b(?:simple|plain|basic|everyday|easy) (?:english|words|language|terms)\b|"
     r"\bexplain (?:it |things |everything )?(?:like|as if) (?:i'?m|to) (?:a |an |my |your )?(?:five|5|child|kid|"
     r"beginner|grandad|grandma|granny|layman|novice)\b"),
    ("length", "concise answers",
     r"(?<!went )(?<!got )(?<!came )\b(?:straight to the point(?! of)|get to the point(?! of)|short and sweet|"
     r"no (?:long |lengthy )?(?:intros?|preambles?|waffle|fluff)|skip the (?:intro|preamble|small talk|waffle|fluff)|"
     r"(?:i )?don'?t need an essay)\b"),
    ("examples", "concrete examples",
     r"\b(?:give me|show me|include|use|i need|i want|i like|i love|with)\s+(?:(?:an?|some|lots of|plenty of|a few|"
     r"one or two|concrete|real|worked|practical|real-world|specific)\s+)*examples?\b(?! of (?:my|your|the)\b)|"
     r"\b(?:an example or two|concrete examples?|worked examples?),? (?:please|help|are how|is how|that'?s how)\b|"
     r"^(?:concrete |worked |real )?examples?,? please\b"),
    ("format", "numbered step-by-step instructions",
     r"\b(?:numbered (?:steps|lists?|instructions)|step[- ]by[- ]step(?: numbered)? (?:steps|instructions|guides?)|"
     r"one step at a time|go step by step)\b"),
    ("format", "pros and cons laid out",
     r"\b(?:lay out|laid out|see|spell out|always (?:give|show|list)|give me|show me)\b[^.?!]{0,30}?"
     r"\b(?:pros and cons|trade-?offs|advantages and disadvantages)\b|"
     r"\b(?:pros and cons|trade-?offs) (?:laid out|side by side|please)\b"),
    ("format", "visuals and diagrams",
     r"\b(?:diagrams?|visual (?:aids?|analogies|explanations)|visuals|sketches)\b[^.?!]{0,30}?\b(?:help me|work "
     r"(?:better|best) for me|please)\b|\b(?:give|show) me (?:a )?(?:diagrams?|visual analogies|visuals)\b|"
     r"\bi'?m a visual (?:person|learner|thinker)\b"),
    ("tone", "talk to them like a {who}",
     r"\b(?:talk|speak|write|chat) to me (?:like|as) (?:a |an |my )?(?P<who>mate|friend|colleague|peer|regular "
     r"(?:guy|person)|grown-up|adult|equal|normal person|expert)\b"),
    ("tone", "{adj} tone",
     r"\bbe (?:more |really |very |extra )?(?P<adj>gentle|encouraging|patient|kind|blunt|direct|frank|supportive) "
     r"with me\b"),
    ("tone", "no lecturing",
     r"\b(?:don'?t|do not|no need to) (?:lecture|preach|moralise|moralize|nag)(?: (?:at|to))? me\b|"
     r"\bno (?:lectures|lecturing|preaching|moralising|moralizing|sermons)\b"),
    ("options", "at most {n} options",
     r"\b(?P<n>" + _NUM + r")\s+" + _OPTIONS + r"\s+(?:max(?:imum)?|tops|at most)\b|"
     r"\b(?:no more than|at most|max(?:imum)?(?: of)?) (?P<n2>" + _NUM + r") " + _OPTIONS + r"\b"),
    ("level", "expert level, skip the basics",
     r"\b(?:skip|leave out|spare me|no need for|don'?t need) the basics\b|\bgo straight to the (?:maths?|details|"
     r"technical details|code)\b|\b(?:treat me like|assume i'?m) an? (?:expert|professional)\b"),
    ("sources", "cited sources",
     r"\b(?:cite|link|give|include|show)(?: me)? (?:your |the )?(?:sources|references|peer-reviewed (?:papers|studies)|"
     r"papers)\b|\bwith (?:sources|references)\b"),
))
# the wishes of someone else, or a story, not a way of answering the user
_OTHERS = re.compile(r"^(?:my|his|her|their|the|our) (?:\w+ )?(?:manager|boss|teacher|wife|husband|partner|friend|"
                     r"colleague|client|team|sister|brother|mum|dad|mother|father|son|daughter|kids?)\b|"
                     r"^(?:he|she|they)\b", re.I)


# "Show me an example first": one example, asked once; examples asked for in general, or whenever, are a way of answering
_STANDING_EXAMPLE = re.compile(r"\bexamples\b|\b(?:whenever|always|every time|each time|with me|for me|or two|"
                               r"that'?s how|is how)\b", re.I)


# "Explain AHT vs FCR in simple words", "explain like I'm 5: what is a SEP IRA": one answer asked for, not a way of
# answering (said of things in general it is: "explain things like you would to your grandad")
# ("Please explain one step at a time, I am slow with these things" names no one thing: a way of answering)
_ONE_ANSWER = re.compile(r"^(?:please |can you |could you |pls )?(?:explain|describe|tell me|summari[sz]e|translate|"
                         r"define|write|draft|rewrite)\b(?! (?:things|everything|stuff|it all|it to me|to me|me|one step|"
                         r"step by step|slowly|simply|clearly|like|as if|in simple|in plain)\b)|:\s*(?:what|how|why|which)\b",
                         re.I)


def _style(c: Clause, m: Match | None) -> bool:
    if c.asks or _OTHERS.match(c.s) or _ONE_ANSWER.search(c.s):
        return False
    hit = False
    for what, value, pattern in _STYLES:
        found = pattern.search(c.s)
        if found is None or (what == "examples" and not _STANDING_EXAMPLE.search(c.s)):
            continue
        groups = {k: v for k, v in found.groupdict().items() if v}
        n = groups.get("n") or groups.get("n2")
        v = value.format(n=_N.get(n.lower(), n) if n else "", who=groups.get("who", "").lower(),
                         adj=groups.get("adj", "").lower())
        said = found.group(0).strip().lower()
        c.emit(f"preference.communication.{what}", v, f"User prefers {v} ({said}).",
               keywords=f"communication style answers responses {what}")
        hit = True
    return hit


STYLE_RULE = Rule("answer_style", MemoryKind.PREFERENCE, ("communication",), "User prefers {v}.", _style,
                  importance=0.75, quiet=True, examples=(
                      Example("Straight to the point, please.", "preference.communication.length", "concise answers"),
                      Example("We got straight to the point of the meeting.")))
