"""Tastes told in idioms, and needs of the body that shape a recommendation.

``R_LIKE`` reads the plain verbs ("I love X", "I can't stand X"). People as often tell a taste in an idiom, with
themselves first ("I'm obsessed with X", "I can't get enough of X", "I keep well away from X") or the thing
first ("X is my happy place", "X drives me up the wall", "X is not for me", "X I just don't get"). A thing told
first must be a thing in general (a bare noun, a name, a pastime), not one of the day ("the printer", "this
weather", "my landlord"). A need of the body ("I have tinnitus", "I get claustrophobic in lifts") and a diet
said in passing ("I'm coeliac", "X gives me hives") shape recommendations the same way.
"""

from __future__ import annotations

import re

from ..models import MemoryKind
from ..taxonomy import slot_key
from ._engine import Clause, Example, Rule
from ._english import obj, third
from ._patterns import R_ALLERGY
from ._rule_diet import emit_allergy

__all__ = ["TASTE_RULES", "emit_taste", "taste_object"]

Match = re.Match[str]

_ADV = r"(?:(?:completely|totally|absolutely|utterly|really|truly|seriously|genuinely|honestly|so|very|pretty|super|" \
       r"quite|a bit|a little|kind of|kinda|sort of|lowkey|low-key|properly|just|basically|always|still|now|" \
       r"try to|tend to|generally|usually|do|been|getting|" \
       r"a huge|a big|a massive|a total|a real|a complete|a bit of|a|an|huge|big|massive|total|real|complete)\s+)*"
_FAN = r"(?:fan|fans|nerd|fanatic|geek|sucker|lover|devotee|buff|junkie|addict|enthusiast|freak)"
_LIKE_IDIOM = (r"obsessed with|addicted to|hooked on|crazy about|mad about|nuts about|passionate about|in love with|"
               r"besotted with|" + _FAN + r" (?:of|for)|(?:can'?t|cannot) get enough of|live for|(?:getting )?into")
_DIS_IDIOM = (r"(?:steer|steering) clear of|keep (?:well )?(?:away from|clear of|off)|stay (?:well )?(?:away from|clear of)|"
              r"(?:have|got) (?:no|zero) (?:patience|time|tolerance) for|(?:can'?t|cannot) (?:abide|stomach|tolerate)|"
              r"(?:never|don'?t|do not|won'?t) (?:go near|touch)|never touched|despise|abhor|"
              r"not (?:a |really a |much of a )?(?:big |huge )?(?:fan of|fond of|keen on|into|big on|one for)")
# the plain verbs R_LIKE reads after "I" alone, here after "we", "I try to", or no subject ("Love a good quiz")
_PLAIN = r"(?P<plike>love|adore|enjoy)|(?P<pdis>hate|dislike|detest|loathe|avoid|can'?t stand|cannot stand)"
# the user first: "I'm obsessed with X", "we're huge fans of X", "I can't get enough of X", "I keep away from X"
R_FOND = re.compile(
    r"(?<!would )(?<!'d )(?<!used to )(?:\b(?P<who>i|we)(?:'m|'re| am| are|'ve become| have become|'ve been| have been|"
    r"'ve always been| have always been|'ve got| have got|'ve| have| just| really| do)?\s+|^)" + _ADV +
    r"(?:(?P<like>" + _LIKE_IDIOM + r")|(?P<dis>" + _DIS_IDIOM + r")|" + _PLAIN + r")\s+(?P<v>.+)", re.I)
# "I find X relaxing", "I find X tedious"
R_FIND = re.compile(r"\b(?:i|we) (?:always |really |honestly |just )?find (?P<v>.+?) (?:(?:really|so|very|incredibly|"
                    r"super|pretty|quite|utterly|deeply|a bit|rather)\s+)*(?:(?P<like>relaxing|soothing|calming|"
                    r"fascinating|addictive|delightful|therapeutic|magical|irresistible)|(?P<dis>tedious|tiresome|"
                    r"boring|dull|annoying|irritating|overrated|exhausting|soulless|pretentious|unbearable|grating|"
                    r"off-putting|stressful|draining|gross|revolting|disgusting))\b", re.I)
_THING = r"(?P<v>(?!(?:since|after|before|when|whenever|if|because|as|at|in|on|for|with|by|from|until|once|" \
         r"it|this|that|these|those|he|she|they|you|we|i|there|here|what|which|who|my|our|his|her|" \
         r"their|your|its|the|one|nothing|everything|something|anything|today|tonight|hate|love|like|adore|can'?t|don'?t|" \
         r"i'm|i've|also|and|but|so|not|big|huge)\b)(?:(?!\b(?:is|are|was|were)\b)[^,;:!?]){2,70}?)" \
         r"(?:,[^,;:!?]{1,60})?"
_IS = r"\s+(?:is|are|'s|'re)\s+(?:(?:basically|honestly|just|definitely|absolutely|really|so|totally|always|still|" \
      r"pretty much|kind of|sort of|simply)\s+)*"
# the thing first: "X is my happy place", "X is not for me", "X drives me up the wall", "X I just don't get"
R_FRONTED = re.compile(
    r"^" + _THING + r"(?:" + _IS +
    r"(?:(?P<like>my (?:(?:absolute|all-time|total|real|one|biggest|number one|whole|weekend|own)\s+)?(?:thing|jam|"
    r"happy place|idea of (?:heaven|bliss|fun|a good time|a perfect \w+)|religion|passion|obsession|weakness|"
    r"guilty pleasure|go-to|comfort \w+|favou?rite(?: \w+)?|life|personality|love)|life|the best thing ever)"
    r"|(?P<dis>(?:not|never) (?:really |at all )?(?:for me|my thing|my cup of tea|my scene|my style|my bag|my vibe)|"
    r"my idea of (?:hell|a nightmare|torture)|an? (?:no-go|no-no|dealbreaker|deal-breaker|non-starter|pet peeve|"
    r"bugbear)(?: for me)?|the worst|my (?:least favou?rite|pet hate)(?: \w+)?|"
    r"(?:off limits|off the table|off the menu|out of the question)(?: for me)?|the bane of my (?:life|existence)|"
    r"lost on me|wasted on me))"
    r"|\s+(?:isn'?t|aren'?t)\s+(?:really |at all )?(?P<dis2>for me|my thing|my cup of tea|my scene|my style|my bag|my vibe)"
    r"|\s+(?P<dis3>(?:drives?|drove) me (?:up the wall|mad|crazy|nuts|bananas|insane|round the bend|round the twist)|"
    r"(?:gives?|gave) me (?:a headache|headaches|the creeps|the ick|a migraine|migraines)|(?:does|do) nothing for me|"
    r"(?:just )?(?:doesn'?t|don'?t) (?:do it|do anything) for me|(?:bores?|annoys?|irritates?|infuriates?|exhausts?) me|"
    r"makes? me (?:\w+ )?(?:angry|furious|cringe|miserable|nervous|uneasy|queasy)|makes? me roll my eyes)"
    r"|\s+(?:(?:is|are) (?:what|the (?:only )?things? that) )?(?P<like2>keeps? me (?:sane|going|grounded)|never gets? old|"
    r"gets? me every (?:single )?time|(?:moves?|thrills?|delights?) me)"
    r"|\s+(?:i|we) (?:just |really |simply |honestly )?(?P<top>(?:don'?t|do not|can'?t|cannot) (?:get|stand|bear|abide|"
    r"stomach)|hate|love|adore|avoid|won'?t touch)(?=\s*(?:[,.;!]|$)))(?:\W|$)",
    re.I)
# "Nothing beats X", "you can't beat X", "there's nothing like X"
R_BEATS = re.compile(r"^(?:(?:honestly|seriously|for me),?\s+)?(?:(?:nothing|there'?s nothing|you can'?t|can'?t)\s+"
                     r"(?:beats?|quite beats|like|quite like|better than|compares to|beat)|nothing (?:relaxes|calms|"
                     r"cheers) me (?:up |down )?(?:like|more than))\s+(?P<v>.+)", re.I)
_WHY = re.compile(r"\s*(?:,|;|\s-\s|\sand (?:the|my|our|his|her|their|it|they|he|she|we|i|there)\b|\s(?:since|because|cos|as|so|but|especially|even|though|although|whenever|when|"
                  r"if|unless|these days|lately|at the moment|at this point|anymore|any more|nowadays)\b).*$", re.I)
_OF_THE_DAY = re.compile(r"\b(?:today|tonight|this (?:morning|week|weekend|evening)|right now|at the moment)\b", re.I)
_NOT_NOW = re.compile(r"\b(?:used to|wouldn'?t say|would not say|don'?t think|not that|never was|was never)\b", re.I)


def emit_taste(c: Clause, o: str, negative: bool, *, avoids: bool = False, changed: bool = False, verb: str = "",
               transferable: bool | None = None) -> None:
    """One like or dislike of ``o`` under ``preference.like.<o>`` (R_LIKE's verbs and the idioms here); ``verb``:
    the user's own verb in the third person, said beside the value ("User can't stand X (dislikes X).")."""
    if changed:
        v = f"no longer likes {o}" if negative else f"likes {o}"
        text = f"User {v}." if negative else f"User now {v}."
    else:
        v = f"{'avoids' if avoids else 'dislikes' if negative else 'likes'} {o}"
        text = f"User {v}." if verb in ("", "likes", "dislikes") else f"User {verb} {o} ({v})."
    c.emit(slot_key("preference", "like", o), v, text, correction=changed, transferable=transferable,
           metadata={"object": o, "polarity": "dislike" if negative else "like"},
           keywords=f"{'dislikes hates avoid' if negative else 'likes loves enjoys favorite'} {o}")


_DETERMINED = re.compile(r"^(?:the|this|that|these|those|your|it|its)\b", re.I)


def taste_object(raw: str, fronted: bool = False) -> str | None:
    """The thing a taste is of: the words up to the reason or the next clause ("X, especially ...")."""
    cut = _WHY.sub("", raw.strip())
    words = cut.split()
    if fronted and words and words[0][1:].islower() and (
            not (len(words) > 1 and words[1][:1].isupper()) or words[0].lower().endswith("ing")):
        cut = cut[:1].lower() + cut[1:]  # the sentence's capital, not a name's ("Jazz", not "Studio Ghibli")
    if not cut:
        return None
    # "anything made by Apple", "anything with palm oil in it": a kind of thing, not "anything" (which obj refuses)
    head, _, rest = cut.partition(" ")
    if head.lower() in ("anything", "everything") and rest:
        o = obj(third(rest), max_words=11)
        return f"{head.lower()} {o}" if o else None
    return obj(third(cut), max_words=12)


def _fond(c: Clause, m: Match | None) -> bool:
    assert m
    if c.asks or _NOT_NOW.search(c.s[: m.start()]) or _OF_THE_DAY.search(m.group("v")):
        return False
    like = m.group("like") or ""
    # without "I" ("Love the new layout") or after "into" ("we're into the final week") a taste names a kind of thing
    if (m.group("who") is None or like.endswith("into")) and _DETERMINED.match(m.group("v")):
        return False
    o = taste_object(m.group("v"))
    if not o:
        return False
    verb = (m.group("dis") or m.group("pdis") or "").lower()
    emit_taste(c, o, bool(verb), avoids=bool(re.match(r"steer|keep|stay|never|don|do not|won|avoid", verb)))
    return True


def _find(c: Clause, m: Match | None) -> bool:
    assert m
    if c.asks or _DETERMINED.match(m.group("v")):
        return False
    o = taste_object(m.group("v"))
    if not o:
        return False
    emit_taste(c, o, bool(m.group("dis")))
    return True


def _fronted(c: Clause, m: Match | None) -> bool:
    assert m
    if c.asks:
        return False
    o = taste_object(m.group("v"), fronted=True)
    if not o or _OF_THE_DAY.search(m.group("v")):
        return False
    top = (m.group("top") or "").lower()
    negative = bool(m.group("dis") or m.group("dis2") or m.group("dis3")) or (
        bool(top) and not top.startswith(("love", "adore")))
    emit_taste(c, o, negative, avoids=top.startswith(("avoid", "won")))
    return True


def _beats(c: Clause, m: Match | None) -> bool:
    assert m
    o = taste_object(m.group("v"))
    if not o or c.asks:
        return False
    emit_taste(c, o, False)
    return True


# -- needs of the body: what a venue, a device or a way of talking must allow for
_HAVE = r"(?:'ve got|'ve|have got|have|got|suffer from|live with)\s+"
_BE = r"(?:'m|am)\s+"
_NEEDS = (
    ("hearing", _HAVE + r"(?:tinnitus|hearing loss|a hearing impairment|cochlear implants?)"),
    ("vision", _BE + r"(?:partially sighted|(?:red[- ]green |partially )?colou?r[- ]?blind|long[- ]sighted|"
                     r"short[- ]sighted)|" + _HAVE + r"(?:low vision|macular degeneration|cataracts|glaucoma)"),
    ("speech", _HAVE + r"a (?:stammer|stutter|speech impediment)|(?:stammer|stutter)\b"),
    ("anxiety", r"(?:get\s+|" + _BE + r")(?:(?:a bit|very|quite|really|so)\s+)?(?:claustrophobic|agoraphobic|"
                r"(?:anxious|panicky|overwhelmed) in (?:big |large |busy )?crowds)|" + _HAVE +
                r"(?:social anxiety|agoraphobia|claustrophobia|a fear of (?:heights|flying|crowds))"),
    ("mobility", _HAVE + r"(?:(?:bad|dodgy|weak) (?:knees|hips)|a (?:bad|dodgy) (?:back|hip|knee)|arthritis)|"
                 r"walk with a (?:stick|cane|frame)"),
    ("breathing", _HAVE + r"(?:asthma|copd|a lung condition)|" + _BE + r"asthmatic"),
    ("sensory", _HAVE + r"(?:migraines|epilepsy)|" + _BE + r"autistic"),
)
R_NEEDS = re.compile(r"\bi\b\s*(?:(?:also|really|still|now|actually|do)\s+)?(?:" + "|".join(
    f"(?P<{name}>{pat})" for name, pat in _NEEDS) + r")\b"
    r"|(?P<vision2>\bmy eyesight (?:isn'?t|is not|'s not) (?:what it (?:was|used to be)|(?:that |very |so )?(?:good|great))"
    r"|\bmy eyes (?:aren'?t|are not) (?:what they were|(?:that |very |so )?(?:good|great)))"
    r"|(?P<mobility2>\bmy hands? (?:shakes?|trembles?)\b)", re.I)
_THIRD_HEAD = [(re.compile(r"^(?:'ve got|'ve|have got|have|got)\s+", re.I), "has "), (re.compile(r"^(?:'m|am)\s+", re.I), "is "),
               (re.compile(r"^(get|suffer|live|walk|stammer|stutter)\b", re.I), r"\1s")]


def _need(c: Clause, m: Match | None) -> bool:
    assert m
    if c.asks or re.search(r"\b(?:as a (?:kid|child)|grew out of|used to)\b", c.s, re.I):
        return False
    group = next(g for g, v in m.groupdict().items() if v)
    said = m.group(group).strip()
    if group.endswith("2"):
        phrase = third(said)
        text = f"User says {phrase}."
    else:
        phrase = said
        for pat, repl in _THIRD_HEAD:
            phrase = pat.sub(repl, phrase, count=1)
        text = f"User {phrase}."
    attr = group.rstrip("2")
    c.emit(f"preference.accessibility.{attr}", phrase, text, keywords=f"accessibility needs {attr}")
    return True


# -- a diet said in passing
R_DIET_SAID = re.compile(
    r"\b(?:i'?m|i am) (?P<coeliac>c(?:o)?eliac)\b"
    r"|^(?P<allergen>[a-z][a-z\- ]{2,25}?) (?:gives|give) me (?:hives|a rash|an allergic reaction)\b"
    r"|^(?P<intol>[a-z][a-z\- ]{2,25}?) (?:doesn'?t|does not|don'?t|do not) agree with me\b"
    r"|\b(?:i'?m|i am) (?:eating|trying to eat|going|doing|on) (?P<regime>low[- ]carb|keto|paleo|low[- ]fat|"
    r"low[- ](?:sodium|salt|sugar)|whole30|intermittent fasting)\b", re.I)


def _diet_said(c: Clause, m: Match | None) -> bool:
    assert m
    if c.asks or re.search(r"\b(?:not|no longer|used to)\b", c.s[: m.start()] or "", re.I):
        return False
    if (m.group("allergen") or m.group("intol")) and R_ALLERGY.search(c.run.sentence):
        return False  # "Dairy doesn't agree with me, I'm lactose intolerant": the allergy rule names it exactly
    if m.group("coeliac"):
        emit_allergy(c, m.group("coeliac").lower(), "coeliac")
    elif m.group("allergen") and obj(m.group("allergen")):
        emit_allergy(c, m.group("allergen").lower())
    elif m.group("intol") and obj(m.group("intol")):
        emit_allergy(c, m.group("intol").lower(), "intolerance")
    elif m.group("regime"):
        v = m.group("regime").lower().replace(" ", "-")
        c.emit("preference.diet.type", v, f"User eats {v}.", keywords="diet food eats meals")
    else:
        return False
    return True


PREF = MemoryKind.PREFERENCE
TASTE_RULES: tuple[Rule, ...] = (
    Rule("taste_idiom", PREF, ("like",), "User likes {v}.", _fond, pattern=R_FOND, importance=0.55, quiet=True,
         examples=(Example("I'm a total sucker for old maps.", "preference.like.old_maps", "likes old maps"),
                   Example("We steer clear of chain hotels.", "preference.like.chain_hotels", "avoids chain hotels"),
                   Example("I used to be obsessed with chess."))),
    Rule("taste_fronted", PREF, ("like",), "User likes {v}.", _fronted, pattern=R_FRONTED, importance=0.55, quiet=True,
         examples=(Example("Night markets are my happy place.", "preference.like.night_markets", "likes night markets"),
                   Example("Karaoke is not for me.", "preference.like.karaoke", "dislikes karaoke"),
                   Example("The lift drives me mad."))),
    Rule("taste_find", PREF, ("like",), "User likes {v}.", _find, pattern=R_FIND, importance=0.55, quiet=True,
         examples=(Example("I find bird song soothing.", "preference.like.bird_song", "likes bird song"),
                   Example("I find it hard to focus."))),
    Rule("taste_beats", PREF, ("like",), "User likes {v}.", _beats, pattern=R_BEATS, importance=0.55, quiet=True,
         examples=(Example("Nothing beats a bacon roll.", "preference.like.a_bacon_roll", "likes a bacon roll"),
                   Example("Nothing beats it."))),
    Rule("need", PREF, ("accessibility",), "User {v}.", _need, pattern=R_NEEDS, importance=0.7, examples=(
        Example("I have tinnitus, so no loud bars.", "preference.accessibility.hearing", "has tinnitus"),
        Example("My brother has tinnitus."))),
    Rule("diet_said", PREF, ("diet", "allergy"), "User eats {v}.", _diet_said, pattern=R_DIET_SAID, importance=0.8,
         examples=(Example("I'm coeliac.", "preference.diet.allergy.gluten", "coeliac"),
                   Example("I'm not coeliac."))),
)
