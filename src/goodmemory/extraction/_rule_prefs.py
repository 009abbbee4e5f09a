"""Preference rules: how the user wants answers, diet and allergies, seats, accessibility, likes, habits."""

from __future__ import annotations

import re

from ..keys import EPISODE_PREFIX
from ..models import MemoryKind
from ..taxonomy import content_words, family_of, slot_key, slug, word_overlap
from . import _patterns as P
from ._engine import Clause, Example, Rule
from ._english import article, conj, obj, third
from ._rule_answers import ANSWER_RULES
from ._rule_diet import diet, diet_meat, emit_allergy
from ._rule_style import STYLE_RULE
from ._rule_taste import TASTE_RULES, emit_taste, taste_object

__all__ = ["PREFERENCE_RULES"]

K = MemoryKind
Match = re.Match[str]

_FOOD = re.compile(r"\b(?:food|cuisine|restaurants?|dish(?:es)?|sushi|pizza|pasta|thai|italian|indian|mexican|chinese|"
                   r"japanese|spicy|seats?|aisle|window|hotels?|rooms?|flights?|airlines?|wine|beer)\b", re.I)
_CHANNEL = re.compile(r"\b(?P<v>email|e-mail|phone|text|sms|call|whatsapp|slack|telegram)\b", re.I)
_DAYPART = re.compile(r"\b(?P<v>mornings?|afternoons?|evenings?|nights?|weekends?)\b", re.I)
_SEAT = re.compile(r"\b(?P<v>aisle|window|middle|exit[- ]row)\b.*\bseats?\b|\bseats? (?:by|at) the (?P<v2>aisle|window)\b", re.I)
_NEGATIVE_LIKES = ("hate", "dislike", "detest", "loathe", "avoid", "can't stand", "don't like", "don't enjoy", "can't bear",
                   "am not a fan of", "'m not a fan of")
_LIKE_VERB3 = {"am into": "is into", "'m into": "is into", "am a big fan of": "is a big fan of",
               "'m a big fan of": "is a big fan of", "am not a fan of": "is not a fan of",
               "'m not a fan of": "is not a fan of", "don't like": "doesn't like", "don't enjoy": "doesn't enjoy",
               "can't stand": "can't stand", "can't bear": "can't bear"}


def _transferable(c: Clause, text: str) -> bool | None:
    return False if c.run.ctx.domain and _FOOD.search(text) else None


# a way of answering named only to refuse it: "paragraphs rather than bullet points", "please don't use bullets",
# "the bullet lists get messy" (what the sentence asks for beside it is the preference)
_AWAY_BEFORE = re.compile(r"\b(?:rather than|instead of|not|no more|less|fewer|without|never|skip|drop|ditch|lose|get rid of|"
                          r"(?:stop|enough|done) with|no need for|(?:don'?t|do not|stop|no longer) "
                          r"(?:use|using|send|sending|give|giving|want|like|need))\s+(?:the |any |all |those |these |so many )?$",
                          re.I)
_AWAY_AFTER = re.compile(r"^\s*(?:\w+\s+)?(?:(?:lose|loses|hide|hides|bury|buries)\b|(?:get|gets|are|is|feel|feels|look|"
                         r"looks)\s+(?:too |so |really |a bit )?(?:messy|confusing|choppy|cluttered|annoying|bitty|terse|"
                         r"dense)\b)|^\s*(?:don'?t|do not|doesn'?t) (?:work|help)\b", re.I)


def _turned_away(s: str, m: Match) -> bool:
    return bool(_AWAY_BEFORE.search(s[: m.start()]) or _AWAY_AFTER.match(s[m.end():]))


def _communication(c: Clause, m: Match | None) -> None:
    for attr, label, pattern in P.COMM_RULES:
        hit = next((h for h in pattern.finditer(c.s) if not _turned_away(c.s, h)), None)
        if hit is not None:
            # the user's own words beside the label ("short answers" is how they said "concise answers")
            said = hit.group(0).lower()
            text = None if set(said.split()) <= set(label.lower().split()) else f"User prefers {label} ({said})."
            c.emit(f"preference.communication.{attr}", label, text,
                   keywords=f"communication style answers responses {attr}")


def _allergy(c: Clause, m: Match | None) -> None:
    assert m
    thing = (m.group("v") or m.group("v2") or m.group("v3") or m.group("v4")).strip()
    emit_allergy(c, thing, "intolerance" if m.group("v3") else "coeliac" if m.group("v4") else "allergy")


def _seat(c: Clause, m: Match | None) -> bool:
    assert m
    v = m.group("seat").lower().replace("-", " ")
    c.emit("preference.seat", v, c.say(a=article(v), v=v), transferable=False, keywords=f"seat {v} flight travel prefers")
    return True


def _diet_avoid(c: Clause, m: Match | None) -> None:
    m = P.diet_avoid(c.s)
    if not (m and content_words(m.group("v"))):
        return
    thing = m.group("v").strip()
    eats = "drinks" if re.search(r"\bdrink", c.s, re.I) else "eats"  # "I don't drink soda anymore"
    if c.fl.negated_change:
        v, text = f"no longer {eats} {thing}", f"User no longer {eats} {thing}."
    else:
        v, text = f"avoids {thing}", f"User doesn't {eats[:-1]} {thing} (avoids {thing})."
    c.emit(f"preference.diet.avoid.{slug(thing)}", v, text, correction=c.fl.negated_change,
           keywords=f"diet food avoid {thing}")


def _access(c: Clause, m: Match | None) -> None:
    assert m
    group = next(g for g in ("mob", "hear", "vis", "read") if m.group(g))
    phrase = re.sub(r"^(?:i'?m|i am)\b", "is", m.group(group), flags=re.I)
    phrase = re.sub(r"^i (\w+)", lambda w: conj(w.group(1)), phrase, flags=re.I)
    attr = {"mob": "mobility", "hear": "hearing", "vis": "vision", "read": "reading"}[group]
    c.emit(f"preference.accessibility.{attr}", phrase, keywords=f"accessibility {attr} needs")


def _workstyle(c: Clause, m: Match | None) -> None:
    assert m
    v = obj(m.group("v")) if m.group("v") else m.group("v2")
    if v:
        text = f"User works best {v}." if m.group("v") else f"User is {article(v)} {v}."
        c.emit("preference.work.best_time", v, text, keywords="work style productive schedule focus")


# "I wouldn't say I love running", "not that I enjoy it": a like under a denied saying or thinking is not asserted
_DENIED = re.compile(r"\b(?:(?:wouldn'?t|would not|don'?t|do not|can'?t|cannot) (?:say|think|claim|pretend)|not that)\b", re.I)


def _like(c: Clause, m: Match | None) -> None:
    assert m
    if _DENIED.search(c.s[:m.start()]):
        return
    o = taste_object(m.group("v"))
    verb = m.group("verb").lower().replace("cannot", "can't").replace("do not", "don't")
    if not o or (verb == "like" and re.match(r"to (?:know|ask|see|get|book|make|order|open|change|cancel)\b", o)):
        return
    negative = verb in _NEGATIVE_LIKES or "aversion" in verb or "not keen" in verb
    verb3 = _LIKE_VERB3.get(verb) or (verb.replace("'m ", "is ").replace("am ", "is ").replace("have ", "has ")
                                      if " " in verb else conj(verb))
    emit_taste(c, o, negative, changed=c.fl.negated_change, verb=verb3, transferable=_transferable(c, o))


# "I'll happily eat almost any curry", "I'll listen to just about any jazz": a taste, told as what the user would take
_R_ANY = re.compile(r"\bi'?ll (?:happily |gladly |quite happily |always )?(?P<act>eat|listen to|watch|read|drink|play) "
                    r"(?:almost |nearly |pretty much |just about )any (?P<v>[a-z][\w\- ]*?)"
                    r"(?=\s*$|\s*[,.;!]| (?:as long as|but|except|if|unless|so long as)\b)", re.I)


def _any_taste(c: Clause, m: Match | None) -> None:
    assert m
    o = m.group("v").strip()
    c.emit(slot_key("preference", "like", o), f"likes {o}", f"User {m.group('act').lower()}s almost any {o} (likes {o})."
           .replace("listen tos", "listens to"), metadata={"object": o, "polarity": "like"},
           keywords=f"likes loves enjoys favorite {o}")


# "Message me instead of phoning", "Email works better for me", "the easiest way to contact me is Signal"
_R_CHANNEL = re.compile(
    r"^(?:please |just )?(?P<v>text|email|e-mail|message|whatsapp) me\b(?! at\b)(?=.*\b(?:rather than|instead|not|only)\b|\W*$)"
    r"|\b(?P<v2>texts?|emails?|e-mails?|phone calls?|calls|whatsapp|sms)(?: messages?)? (?:works?|is|are) (?:much )?"
    r"(?:better|best|easier|easiest) for me\b"
    r"|\bbest way to (?:reach|contact|get hold of) me is (?:by |via |on |over )?(?P<v3>text|email|e-mail|phone|whatsapp|sms)\b",
    re.I)
_CHANNEL_NAME = {"texts": "text", "message": "text", "sms": "text", "e-mail": "email", "emails": "email", "e-mails": "email",
                 "phone calls": "call", "phone call": "call", "calls": "call", "phone": "call"}


def _channel(c: Clause, m: Match | None) -> None:
    assert m
    v = (m.group("v") or m.group("v2") or m.group("v3")).lower()
    v = _CHANNEL_NAME.get(v, v)
    c.emit("preference.communication.channel", v, keywords=f"channel contact reach {v}")


# "my usual tea is an oolong", "my favourite band is Low", "my go-to snack is almonds"
_R_USUAL = re.compile(r"\bmy (?P<how>usual|regular|go-to|favou?rite|standard) (?P<what>[a-z][a-z\- ]{1,25}?) (?:is|are) "
                      r"(?:now |still |always )?(?:an? |the )?(?P<v>[^,;.!?]{2,40}?)(?=$|[,;.!?]| (?:but|because|and)\b)", re.I)


def _usual(c: Clause, m: Match | None) -> None:
    assert m
    what, v = m.group("what").lower(), obj(m.group("v"))
    if v:
        how = "favourite" if m.group("how").lower().startswith("favo") else m.group("how").lower()
        c.emit(slot_key("preference", "prefer", what), v, c.say(how=how, what=what, v=v),
               transferable=_transferable(c, f"{what} {v}"), keywords=f"prefers {how} {what} {v}")


# "I've switched to rooibos, the oolong kept me awake": the new value, and the old one named in passing
_R_MOVED_ON = re.compile(
    r"\bi(?:'ve| have)? (?:now |since |recently |just )?(?:moved on to|switched to|changed to|gone over to|gone back to|"
    r"started (?:drinking|using|eating|going to|playing)|now (?:drink|use|eat|prefer|go to|play))\s+(?P<v>[^,;.!?]{2,40}?)"
    r"(?=$|[,;.!?]| (?:but|because|since|and|instead|now|as|so)\b)", re.I)


def _moved_on(c: Clause, m: Match | None) -> None:
    """The new value goes on the key of the user's active memory whose value the sentence names as the old one."""
    assert m
    v = obj(m.group("v"))
    sentence = c.run.sentence or c.s
    rest = (sentence[: sentence.find(m.group(0))] + " " + sentence[sentence.find(m.group(0)) + len(m.group(0)):]) \
        if m.group(0) in sentence else c.s[m.end():]
    if not v:
        return
    best, score = None, 0.0
    for key, val in c.run.ctx.existing.items():
        fam = family_of(key)
        if fam is None or key.startswith(("task.", EPISODE_PREFIX)) or val.lower() == v.lower():
            continue
        sc = word_overlap(re.sub(r"^(?:likes|dislikes|avoids|usually|always)\s+", "", val), rest)
        if sc > score:
            best, score = (key, fam.kind), sc
    if best and score >= 0.99:
        key, kind = best
        c.emit(key, v, c.say(v=v, old=c.run.ctx.existing[key]), kind=kind, correction=True,
               keywords=f"switched changed moved on {v}")


def _prefer(c: Clause, m: Match | None) -> None:
    assert m
    v, alt = obj(third(m.group("v"))), obj(m.group("alt") or "") if m.group("alt") else None
    if v and v.lower() == "not" and m.group("alt"):
        # "I'd prefer not to talk about my health": the "to" is the infinitive's, not "X to Y"
        v, alt = obj(third(f"not to {m.group('alt')}"), max_words=10), None
    if not v:
        return
    seat, chan, part = _SEAT.search(v), _CHANNEL.search(v), _DAYPART.search(v)
    trans = _transferable(c, v)
    if seat:
        key, val = "preference.seat", (seat.group("v") or seat.group("v2")).lower().replace("-", " ")
        trans = False
    elif chan:
        key, val = "preference.communication.channel", chan.group("v").lower()
    elif part:
        key, val = "preference.schedule.time_of_day", part.group("v").lower()
    elif alt:
        key, val = slot_key("preference", "choice", "_vs_".join(sorted((slug(v), slug(alt))))), v
    else:
        key, val = slot_key("preference", "prefer", v), v
    text = f"User prefers {v} over {alt}." if alt else f"User prefers {v}."
    c.emit(key, val, text, transferable=trans, keywords=f"prefers preference {v} {alt or ''}".strip())


# "give me punk any day", "I'll take the train over flying every time": a standing pick, said as an idiom
_R_ANY_DAY = re.compile(r"\b(?:give me|i'?ll take|i'?d take|i'?ll pick|i'?d pick|i'?ll choose)\s+(?P<v>[a-z][\w\- ]{1,30}?)"
                        r"(?:\s+(?:over|instead of)\s+(?P<alt>[a-z][\w\- ]{1,30}?))?\s+(?:any day|every time|any time|anytime)"
                        r"(?:\s+(?:over|instead of)\s+(?P<alt2>[a-z][\w\- ]{1,30}?))?(?=$|[,.;!])", re.I)


def _any_day(c: Clause, m: Match | None) -> None:
    assert m
    v, alt = obj(third(m.group("v"))), m.group("alt") or m.group("alt2")
    if v:
        alt = obj(alt) if alt else None
        key = slot_key("preference", "choice", "_vs_".join(sorted((slug(v), slug(alt))))) if alt else \
            slot_key("preference", "prefer", v)
        c.emit(key, v, f"User prefers {v} over {alt}." if alt else f"User prefers {v}.", transferable=_transferable(c, v),
               keywords=f"prefers preference favourite {v} {alt or ''}".strip())


# "I'd rather not share my address", "I'd rather you didn't use my first name", "I'd sooner walk than drive":
# a preference, never a value of the thing it names (the address, the name)
_R_RATHER = re.compile(r"\bi(?:'d| would) (?:much )?(?:rather|sooner) (?P<v>[a-z].+?)(?:\s+(?:than|over|instead of)\s+(?P<alt>.+))?$",
                       re.I)
_TAKE = re.compile(r"^(?:have|get|take|use|go with|drink|eat|do)\s+(?:an? |the )?", re.I)


def _rather(c: Clause, m: Match | None) -> None:
    assert m
    raw = re.sub(r"^you (?:didn'?t|did not|don'?t|do not|wouldn'?t|would not) ", "you not ", m.group("v"), flags=re.I)
    if re.match(r"(?:you )?not (?:say|tell|answer|comment|share|discuss|talk about it|go into it)\W*$", raw, re.I):
        return  # "I'd rather not say": a refusal, no preference
    if raw.lower().startswith("you "):
        act = obj(third(raw[4:]), max_words=10)
        if act:
            c.emit(slot_key("preference", "instruction", act), f"the assistant {act}", f"User would rather the assistant "
                   f"{act.replace('not ', 'did not ', 1) if act.startswith('not ') else act}.", transferable=True,
                   keywords=f"prefers instruction rather {act}")
        return
    v = obj(third(raw), max_words=10)
    if not v:
        return
    alt = obj(third(m.group("alt"))) if m.group("alt") else None
    if alt:
        pick, other = _TAKE.sub("", v), _TAKE.sub("", alt)
        c.emit(slot_key("preference", "choice", "_vs_".join(sorted((slug(pick), slug(other))))), pick,
               f"User would rather {v} than {alt}.", transferable=_transferable(c, v),
               keywords=f"prefers preference rather {pick} {other}")
    else:
        c.emit(slot_key("preference", "prefer", v), v, f"User would rather {v}.", transferable=_transferable(c, v),
               keywords=f"prefers preference rather {v}")


# what an instruction asks the assistant to do: a verb of serving the user, or an act that names the user; "Always
# happy to help", "Never been there", "Never give up" are talk, not instructions (LoCoMo's chat between friends gave
# 23 such "User asks the assistant to always up for something sweet.")
_SERVING = re.compile(r"^(?:suggest|recommend|use|reply|respond|answer|write|send|book|schedule|call|text|email|include|"
                      r"add|mention|show|list|put|assume|round|convert|quote|cite|ask|remind|offer|pick|choose|order|"
                      r"format|spell|translate|explain|bring up|check|double-check|cc|copy|share|tell|give me|leave)\b", re.I)
_NAMES_USER = re.compile(r"\b(?:me|my|mine|us|our|i)\b", re.I)


def _please(c: Clause, m: Match | None) -> bool:
    assert m
    if not (_SERVING.match(m.group("v")) or _NAMES_USER.search(m.group("v"))):
        return False
    act = obj(third(m.group("v")), max_words=10)
    neg = m.group("neg").lower()
    specific = re.search(r"\b(?:the|this|that|these|those|it)\b", act or "") and not re.search(
        r"\b(?:ever|again|anymore)\b", c.s, re.I)
    if not act or specific:
        return False
    v = f"{'never' if 'never' in neg or 'don' in neg or 'not' in neg else 'always'} {act}"
    c.emit(slot_key("preference", "instruction", " ".join(content_words(act)[:5])), v,
           keywords=f"instruction rule {act}")
    return True


def _habit(c: Clause, m: Match | None) -> None:
    assert m
    # the verb is what follows the adverbs: "I never really liked opera" is past, no habit ("never reallies liked")
    said = re.sub(r"^(?:(?:really|actually|ever|even|just|still|quite|truly|honestly)\s+)+", "", m.group("v"), flags=re.I)
    if not said or re.match(r"(?:have to|need|wanted|thought|wonder|forget to ask|get confused)", said, re.I) \
            or P.past_tense(said.split()[0]) or P.EMAIL.search(said):
        return  # "I only use x@y.com these days": an address in use is the email, read by its shape
    act = obj(said, max_words=10)
    if act:
        adv, act3 = m.group("adv").lower(), conj(act)
        c.emit(slot_key("preference", "habit", " ".join(content_words(act)[:5])), f"{adv} {act3}",
               transferable=_transferable(c, act), keywords=f"habit routine {adv} {act}")


PREFERENCE_RULES: tuple[Rule, ...] = (
    Rule("communication_style", K.PREFERENCE, ("communication",), "User prefers {v}.", _communication,
         pattern=P.COMM_TRIGGER, importance=0.75, examples=(
             Example("Please keep your answers short.", "preference.communication.length", "concise answers"),
             Example("Use bullet points when you list options.", "preference.communication.format", "bullet points"),
             Example("I'd rather see the numbers in a table.", "preference.communication.format", "tables"),
             Example("Write summaries for me in full paragraphs.", "preference.communication.format", "prose paragraphs"),
             Example("I wrote my thesis in full paragraphs."),
             Example("I keep my receipts in a shoebox."))),
    STYLE_RULE,
    *ANSWER_RULES,
    Rule("allergy", K.PREFERENCE, ("allergy",), "User is allergic to {v}.", _allergy, pattern=P.R_ALLERGY,
         confidence=0.9, importance=0.95, examples=(
             Example("I'm allergic to sesame.", "preference.diet.allergy.sesame", "sesame"),
             Example("I'm lactose intolerant.", "preference.diet.intolerance.lactose", "lactose"),
             Example("My cousin is allergic to cats."))),
    Rule("seat", K.PREFERENCE, ("prefer",), "User prefers {a} {v} seat.", _seat, pattern=P.R_SEAT_PREF, importance=0.65,
         guards=(lambda c, m: m is not None and not re.search(r"\b(?:not|never|don'?t|hate|avoid)\b", c.s[: m.end()], re.I),),
         stop=True, examples=(
             Example("I always book a window seat on night flights.", "preference.seat", "window"),
             Example("After the knee operation I need an aisle seat.", "preference.seat", "aisle"),
             Example("I never take an aisle seat."))),
    Rule("diet_meat", K.PREFERENCE, ("diet",), "User doesn't eat meat.", diet_meat, importance=0.85, stop=True,
         examples=(
             Example("I gave up meat in January.", "preference.diet.type", "no meat"),
             Example("I'm eating meat again.", "preference.diet.type", "eats meat"),
             Example("I don't eat fish."))),
    Rule("diet", K.PREFERENCE, ("diet", "diet_avoid"), "User follows a {v} diet.", diet, importance=0.85, examples=(
        Example("I'm vegan these days.", "preference.diet.type", "vegan"),
        Example("I'm no longer vegetarian.", "preference.diet.type", "no longer vegetarian"),
        Example("I'm not vegan anymore, I eat eggs and yoghurt again.", "preference.diet.type", "eats eggs and yoghurt"),
        Example("I strictly follow a keto diet.", "preference.diet.type", "keto"),
        Example("I'm on a low-sodium diet.", "preference.diet.avoid.sodium", "low-sodium"),
        Example("I'm not vegan."))),
    Rule("diet_avoid", K.PREFERENCE, ("diet_avoid",), "User avoids {v}.", _diet_avoid, importance=0.8, examples=(
        Example("I don't eat mushrooms.", "preference.diet.avoid.mushrooms", "avoids mushrooms"),
        Example("I don't drink coffee anymore.", "preference.diet.avoid.coffee", "no longer drinks coffee"),
        Example("I can't have visitors this week."))),
    Rule("accessibility", K.PREFERENCE, ("accessibility",), "User {v}.", _access, pattern=P.R_ACCESS, confidence=0.9,
         importance=0.9, examples=(
             Example("I use a wheelchair.", "preference.accessibility.mobility", "uses a wheelchair"),
             Example("My uncle is deaf."))),
    Rule("work_style", K.PREFERENCE, ("prefer",), "User works best {v}.", _workstyle, pattern=P.R_WORKSTYLE,
         importance=0.6, examples=(
             Example("I'm a night owl.", "preference.work.best_time", "night owl"),
             Example("My team works best remotely."))),
    Rule("like", K.PREFERENCE, ("like",), "User likes {v}.", _like, pattern=P.R_LIKE, importance=0.55, examples=(
        Example("I love sea kayaking.", "preference.like.sea_kayaking", "likes sea kayaking"),
        Example("I wouldn't say I enjoy gardening, but the roses need me."),
        Example("I can't stand loud restaurants.", "preference.like.loud_restaurants", "dislikes loud restaurants"),
        Example("I strongly dislike cold showers.", "preference.like.cold_showers", "dislikes cold showers"),
        Example("I have a deep aversion to horror films.", "preference.like.horror_films", "dislikes horror films"),
        Example("I avoid motorways when I can.", "preference.like.motorways", "dislikes motorways"),
        Example("I'm fond of old maps.", "preference.like.old_maps", "likes old maps"),
        Example("I'd love to know the price."))),
    Rule("any_taste", K.PREFERENCE, ("like",), "User likes {v}.", _any_taste, pattern=_R_ANY, importance=0.5,
         examples=(Example("I'll eat almost any soup.", "preference.like.soup", "likes soup"),
                   Example("I'll eat the soup later."))),
    *TASTE_RULES,
    Rule("channel", K.PREFERENCE, ("communication",), "User prefers to be contacted by {v}.", _channel,
         pattern=_R_CHANNEL, importance=0.7, examples=(
             Example("Email me rather than ringing, my phone is often off.", "preference.communication.channel", "email"),
             Example("WhatsApp works best for me.", "preference.communication.channel", "whatsapp"),
             Example("Email me the form at home."))),
    Rule("usual", K.PREFERENCE, ("prefer",), "User's {how} {what} is {v}.", _usual, pattern=_R_USUAL, importance=0.6,
         examples=(
             Example("My usual order is a chai latte.", "preference.prefer.order", "chai latte"),
             Example("My favourite author is Ursula Le Guin.", "preference.prefer.author", "Ursula Le Guin"),
             Example("My usual is fine."))),
    Rule("moved_on", K.PREFERENCE, ("*",), "User now has {v} (instead of {old}).", _moved_on, pattern=_R_MOVED_ON,
         importance=0.65, examples=(
             Example("I've switched to green tea, black tea keeps me up.", "preference.prefer.drink", "green tea",
                     existing={"preference.prefer.drink": "black tea"}),
             Example("I've switched to green tea.", existing={"preference.prefer.drink": "black tea"}))),
    Rule("prefer", K.PREFERENCE, ("prefer", "communication"), "User prefers {v}.", _prefer, pattern=P.R_PREFER,
         importance=0.65, guards=(lambda c, m: not [f for f in c.fired if f != "like"],), examples=(
             Example("I prefer oat milk.", "preference.prefer.oat_milk", "oat milk"),
             Example("I'd prefer a text message.", "preference.communication.channel", "text"),
             Example("I'd prefer not to discuss my salary.", "preference.prefer.not_to_discuss_their_salary",
                     "not to discuss their salary"),
             Example("I prefer it."))),
    Rule("rather", K.PREFERENCE, ("prefer", "instruction"), "User would rather {v}.", _rather, pattern=_R_RATHER,
         importance=0.65, quiet=True, examples=(
             Example("I'd rather not share my salary.", "preference.prefer.not_share_their_salary",
                     "not share their salary"),
             Example("I'd rather you didn't call me Bob.", "preference.instruction.not_call_them_bob",
                     "the assistant not call them Bob"),
             Example("I'd sooner cycle than drive.", "preference.choice.cycle_vs_drive", "cycle"),
             Example("I'd rather not say."))),
    Rule("any_day", K.PREFERENCE, ("prefer",), "User prefers {v}.", _any_day, pattern=_R_ANY_DAY, importance=0.6,
         examples=(
             Example("Give me paperbacks any day.", "preference.prefer.paperbacks", "paperbacks"),
             Example("I'll take the train over flying every time.", "preference.choice.flying_vs_the_train", "the train"),
             Example("Give me a minute."))),
    Rule("please_always_never", K.PREFERENCE, ("instruction",), "User asks the assistant to {v}.", _please,
         pattern=P.R_PLEASE, anchored=True, confidence=0.8, importance=0.7, quiet=True, stop=True, examples=(
             Example("Never suggest recipes with coriander.", "preference.instruction.suggest_recipes_coriander",
                     "never suggest recipes with coriander"),
             Example("Never mind the delay."), Example("Always happy to help a friend out."),
             Example("Never been to a rodeo before."))),
    Rule("habit", K.PREFERENCE, ("habit",), "User {v}.", _habit, pattern=P.R_HABIT, confidence=0.75, importance=0.55,
         quiet=True, examples=(
             Example("I usually cycle to work.", "preference.habit.cycle_work", "usually cycles to work"),
             Example("I always catch the 6:15 ferry.", "preference.habit.catch_6_15_ferry", "always catches the 6:15 ferry"),
             Example("I never thought about it."))),
)
