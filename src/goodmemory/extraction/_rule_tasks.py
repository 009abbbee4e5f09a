"""Task, procedure and correction rules: open loops and their closing, standing instructions, bare
corrections ("it's 4417, not 4471") and short answers to the assistant's questions."""

from __future__ import annotations

import re
from typing import Any

from ..models import MemoryKind
from ..taxonomy import content_words, humanize_key, normalize_key, slot_key, task_key, word_overlap
from . import _patterns as P
from ._engine import Clause, Example, Flags, Rule, Src
from ._english import lemma, third
from ._fact_rules import expiry
from ._rule_profile import R_EMERGENCY_ANSWER, emergency_contact

__all__ = ["CORRECTION_RULE", "LOOP_RULES", "OPTION_RULE", "PROCEDURE_RULE", "QA_RULE", "REVERSE_RULE", "answer",
           "option_answer"]

K = MemoryKind
Match = re.Match[str]
_QA_ID = re.compile(r"(?<![\w@.])#?(?P<v>(?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{3,24})(?![\w@])")


def _open(c: Clause, m: Match | None) -> bool:
    assert m
    return _open_task(c, m.group("verb").lower(), m.group("v"))


# what the user says they will do or were asked to: "I'm supposed to ...", "I promised Ana I'd ...",
# "I told my boss I'd ...", "I'll call the bank tomorrow" (an errand verb; "I'll take the blue one" is a choice)
_R_COMMIT = re.compile(
    r"\bi(?:'m| am) supposed to (?P<v>.+)$"
    r"|\bi (?:promised|told) (?:(?:my |the |our )?[\w\-]+ )?(?:that )?i'?d (?P<v2>.+)$|\bi promised to (?P<v3>.+)$"
    r"|^i(?:'ll| will) (?P<v4>(?:call|email|ring|phone|text|send|book|pay|renew|submit|file|return|order|post|mail|"
    r"cancel|contact|write to|pick up|drop off) .+)$", re.I)


def _commitment(c: Clause, m: Match | None) -> bool:
    assert m
    if m.group("v"):
        return _open_task(c, "need to", m.group("v"))
    return _open_task(c, "need to", m.group("v2") or m.group("v3") or m.group("v4"), text_t="User said they would {0}.")


_TASK_ADVERB = re.compile(r"^(?:(?:probably|really|definitely|maybe|perhaps|honestly|seriously|just|also|actually)\s+)+",
                          re.I)
_NEVER_DONE = re.compile(r"\b(?:every|each) (?:day|morning|evening|night|week|weekday|month)\b|\b(?:on weekdays|daily)\b|"
                         r"\bfor a (?:second|sec|minute|moment|bit)\b", re.I)
_RESOLUTION = re.compile(r"^\w+(?: [\w']+){0,3} (?:more|less|better|healthier|earlier|regularly|often)$", re.I)


def _open_task(c: Clause, verb: str, raw: str, text_t: str | None = None) -> bool:
    """An open task from what follows the verb of obligation: the chore, its due date and the text."""
    rest = raw.strip()
    rest = re.split(r"\s+(?:because|but|so that|since|although)\b|[,;]", rest)[0].strip(" .")
    when = P.resolve_when(rest, c.src.ts) if rest else None
    core = rest[: when.start].strip() if when else rest
    core = re.sub(r"\s+(?:by|before|on|until|next|this|at|in)$", "", core, flags=re.I).strip()
    core = re.sub(r"\s+yet$", "", core, flags=re.I)
    core = _TASK_ADVERB.sub("", core).strip()  # "I should probably exercise": the hedge is no part of the chore
    if _RESOLUTION.search(core):
        return False  # "I should exercise more", "I need to sleep better": a resolution with no point of done
    if _NEVER_DONE.search(rest):
        return False  # "I have to be at work by 8 every day" is a routine, "I need to vent for a second" the talk
    if "haven" in verb or "have not" in verb:
        head, _, tail = core.partition(" ")
        if head.lower() in P.HAVENT_STATES or P.R_SPAN.search(raw):
            core = ""  # "I haven't been around", "haven't read in years": no chore is pending
        else:
            core = f"{lemma(head)} {tail}".strip()
    if core.lower().split()[:1] == ["you"]:
        return False  # "I'm waiting for you to ...", "I need you to ...": the assistant's part, not the user's
    if "waiting" in verb:
        core, text_t = f"wait for {core}", "User is still waiting for {0}."
    elif "get back" in verb or "follow up" in verb:
        core = f"get back to the assistant about {core}" if core else "get back to the assistant"
        text_t = "User said they would {0}."
    elif "remind" in verb or "forget" in verb:
        text_t = "User asked to be reminded to {0}."
    elif text_t is None:
        text_t = c.say(v="{0}")
    core3 = re.sub(r"\byou\b", "the assistant", third(core), flags=re.I)  # "send you the photos": the assistant
    if not core or P.OPEN_REJECT.match(core) or not content_words(core) or len(core.split()) > 14 \
            or "you" in core.lower().split()[:1]:
        return False
    key = task_key(core)
    meta: dict[str, Any] = {"state": "open", "task": core3}
    if when:
        meta["date"] = when.day.isoformat()
    c.emit(key, "open", text_t.format(core3 + (f" by {when.phrase}" if when else "")),
           importance=0.8 if when else 0.7, metadata=meta, keywords=f"todo task open {core}")
    c.run.tasks[normalize_key(key)] = core
    c.run.opened.append(normalize_key(key))
    return True


def _unconditional(c: Clause, m: Match | None) -> bool:
    """ "If the boiler breaks I need to call the landlord" is a plan for a case, not a task."""
    return m is not None and not re.search(r"\b(?:if|unless|in case|whether)\b", c.s[: m.start()], re.I)


def _close(c: Clause, m: Match | None) -> None:
    assert m
    if not c.run.tasks:
        return
    obj = (m.group("v") or m.group("v2") or m.group("v3") or "").strip(" .")
    phrase = f"{lemma(m.group('verb') or '')} {obj}".strip() if m.group("verb") else obj
    best, score = None, 0.0
    for key, task in c.run.tasks.items():
        if key == task_key(phrase):
            best, score = key, 1.0
            break
        sc = word_overlap(obj, task)
        if sc > score:
            best, score = key, sc
    if best and score >= 0.5:
        c.emit(best, "closed", c.say(v=third(m.group(0).strip(" ."))), closes=best,
               metadata={"state": "closed", "task": c.run.tasks[best]}, keywords=f"done finished closed {obj}")


_NOT_DONE = re.compile(r"\b(?:not|never|still|yet|need|needs|have to|has to|got to|will|going to|should|must|tried to|"
                       r"forgot to|want to|plan to)\b|n't\b", re.I)


def _close_by_verb(c: Clause, m: Match | None) -> None:
    """A task closed by its own verb in the past ("I need to return the drill" ... "returned the drill
    this morning"), when the clause does not say it is still to do."""
    if not c.run.tasks or _NOT_DONE.search(c.s):
        return
    words = re.findall(r"[a-z']+", c.s.lower())
    for key, task in list(c.run.tasks.items()):
        verb, _, rest = task.lower().partition(" ")
        said = any(w != verb and lemma(w) == verb for w in words)
        pronoun = bool(re.search(r"\b(?:it|him|her|them|that|those)\b", c.s, re.I)) and c.run.opened[-1:] == [key]
        if said and rest and (word_overlap(c.s, rest) >= 0.5 or pronoun):
            c.emit(key, "closed", c.say(v=third(c.s.strip(" ."))), closes=key,
                   metadata={"state": "closed", "task": task}, keywords=f"done finished closed {rest}")
            return


_R_DONE_THAT = re.compile(
    r"^(?:i(?:'ve| have)? )?(?:already |just )?(?:did|done|sorted|handled|finished|took care of|taken care of) (?:that|it|this)\b"
    # "..., actually I just did", "Done, it's 140 cm": the bare verb, ending its clause
    r"|^(?:i(?:'ve| have)? )?(?:already |just )(?:did|done)(?=\W*$|\s*,)|^(?:all )?done(?=\W*$|\s*[,:;!])"
    r"|^(?:that'?s|it'?s|that is|it is|that was|it was) (?:already |all )?(?:done|sorted|handled|taken care of|booked|paid|sent)\b",
    re.I)


def _close_pronoun(c: Clause, m: Match | None) -> None:
    """ "I already did that" right after a task was opened in the same call closes that task (and only
    one: with several opened, "that" is ambiguous)."""
    opened = [k for k in c.run.opened if k in c.run.tasks]
    if len(opened) == 1 and not _NOT_DONE.search(c.s):
        key = opened[0]
        c.emit(key, "closed", c.say(v=third(c.s.strip(" ."))), closes=key,
               metadata={"state": "closed", "task": c.run.tasks[key]}, keywords="done finished closed")


_TRAIL = r"(?:for|on|at|in|this|that|then|today|tonight|with|again)"
_OPTIONS = re.compile(r"(?:^|\b(?:prefer|rather|like|want|usually|normally|take|choose)\b[^?]*?\s)(?:an? |the )?"
                      rf"(?P<a>[\w\-]+(?: [\w\-]+)?),? or (?:an? |the )?(?P<b>[\w\-]+(?: (?!{_TRAIL}\b)[\w\-]+)?)"
                      # what the options are for may trail them ("Window or aisle for the Lyon flight?")
                      rf"(?:\s+{_TRAIL}\b[^?,]*)?\s*\?$", re.I)
# an interjection and the options said back ("Hmm, tea or coffee... tea") come before the pick
_THINKING = re.compile(r"^(?:(?:oh|hmm+|um+|uh+|well|let me think|let'?s see|good question)\b[\s,.!]*)+", re.I)
# a clause that adds to the pick rather than explaining it ("Aisle, and I also need a taxi booked")
_ADDS = re.compile(r"\b(?:also|too|as well|and then|another thing)\b", re.I)
_SEATS = frozenset({"window", "aisle", "middle"})


def option_answer(c: Clause, question: str, reply: str, ids: list[str]) -> None:
    """The user picks one of two options the assistant offered in a question about preference ("Window or
    aisle?" - "Aisle, please"): the pick is a preference, the other option is not."""
    last = ([q for q in P.SENTENCE_SPLIT.split(question.strip()) if q.strip()][-1:] or [question])[0].strip()
    m = _OPTIONS.search(last)
    if not m or (m.start() == 0 and len(last[:m.end("b")].split()) > 6):
        return
    opts = (m.group("a"), m.group("b"))
    low = _THINKING.sub("", reply.strip().lower())
    a, b = (re.escape(o.lower()) for o in opts)
    said_back = re.match(rf"(?:{a},?\s+or\s+{b}|{b},?\s+or\s+{a})[\s.,!?\u2026]*", low)
    low = re.sub(r"^(?:definitely|probably|the|an?)\s+", "", low[said_back.end():] if said_back else low)
    pick = next((o for o in opts if re.match(re.escape(o.lower()) + r"\b", low)), None)
    if pick is None:
        return
    other = opts[1] if pick == opts[0] else opts[0]
    qc = Clause(reply, Src(ids, c.src.ts, secrets=c.src.secrets), c.run, Flags(), rule=OPTION_RULE)
    if pick.lower() in _SEATS and other.lower() in _SEATS:
        qc.emit("preference.seat", pick.lower(), f"User prefers {'an' if pick[0] in 'aA' else 'a'} {pick.lower()} seat.",
                transferable=False, keywords=f"seat {pick} flight travel prefers")
    else:
        key = slot_key("preference", "choice", "_vs_".join(sorted(o.lower().replace(" ", "_") for o in opts)))
        qc.emit(key, pick, qc.say(v=pick, other=other), keywords=f"prefers preference {pick} {other}")
    _drop_reasons(c, reply, pick, ids)


def _drop_reasons(c: Clause, reply: str, pick: str, ids: list[str]) -> None:
    """"Window, I like to sleep against the wall": what follows the pick in its own sentence says why it was
    picked, and is no like of its own (a like in a sentence of its own stays)."""
    first = P.SENTENCE_SPLIT.split(reply.strip())[0]
    thought = _THINKING.match(first)
    first = first[thought.end():] if thought else first
    said_back = re.match(r"[^.?!\u2026]*?\bor\b[^.?!\u2026,]*[.\u2026]+\s*", first)
    first = first[said_back.end():] if said_back else first
    at = first.lower().find(pick.lower())
    tail = first[at + len(pick):].lower() if at >= 0 else ""
    if tail.lstrip()[:1] not in (",", "-", "\u2013", ":"):
        return
    run = c.run
    # a like or a task read from the why ("Aisle, I need to stretch my legs") is no memory of its own
    for cand in [x for x in run.out if (x.kind is K.PREFERENCE and x.metadata.get("rule") == "like"
                                        or x.kind is K.OPEN_LOOP and not _ADDS.search(str(x.metadata.get("said", ""))))
                 and set(x.message_ids) <= set(ids) and str(x.metadata.get("said", "")).lower() in tail]:
        run.out.remove(cand)
        run.index.pop((cand.key, cand.value.lower()), None)


def _procedure(c: Clause, m: Match | None) -> None:
    assert m
    cond, act = m.group("cond"), (m.group("act") or m.group("act2") or "").strip(" .")
    if cond and not (re.search(r"\byou\b", cond, re.I) or P.IMPERATIVE.match(act)):
        return
    if not cond and not P.IMPERATIVE.match(act) and not re.search(r"\byou\b", act, re.I):
        return
    if re.match(r"i\b", act, re.I):
        return
    basis = cond or act
    text = f"User's standing instruction: when {cond}, {act}." if cond else f"User's standing instruction: {act}."
    c.emit(slot_key("procedure", " ".join(content_words(basis)[:5]) or basis), act, text, transferable=True,
           keywords=f"procedure rule instruction always {basis}")


# "skip the comments in code": a standing instruction turned off, by the thing it named
_R_REVERSE = re.compile(
    r"\b(?:skip|drop|leave out|stop (?:adding|using|including|giving me)|no more|(?:don'?t|do not) (?:add|use|include|give me))"
    r" (?:the |any |all |those |these )?(?P<v>[a-z][a-z\- ]{2,30}?)(?=$|[,.;!]| (?:in|from|for|when|on|please|now|anymore)\b)",
    re.I)


def _reverse(c: Clause, m: Match | None) -> None:
    """A standing instruction the user takes back ("skip the comments in code" after "when you write code, add
    lots of comments") replaces that instruction: same key, the user's new words as its value."""
    assert m
    what = set(content_words(m.group("v")))
    said = re.split(r"\s*[,;.!]\s*", c.s[m.start():], maxsplit=1)[0].strip()
    if not what or not said:
        return
    for key, val in c.run.ctx.existing.items():
        if key.startswith(("procedure.", "preference.instruction.")) and what & set(content_words(val)):
            kind = K.PROCEDURE if key.startswith("procedure.") else K.PREFERENCE
            c.emit(key, said, c.say(v=said), kind=kind, correction=True, keywords=f"procedure instruction {val} {said}")
            return


def _shape(v: str) -> str:
    if "@" in v:
        return "email"
    if re.fullmatch(r"\d+", v):
        return "int"
    if re.search(r"\d", v):
        return "id"
    return "word" if v[:1].isupper() else "text"


def _bare_correction(c: Clause, m: Match | None) -> None:
    assert m
    run = c.run
    v, old = m.group("v").strip(), (m.group("old") or "").strip()
    if not content_words(v):
        return  # "Still not sure it worked": a correction names its new value, an adverb names none
    pool = {**run.ctx.existing, **{x.key: x.value for x in run.out}}
    key = None
    if old:
        key = next((k for k, val in pool.items() if val.lower() == old.lower()), None)
        if key is None:
            key = next((k for k, val in pool.items() if re.search(rf"\b{re.escape(old)}\b", val, re.I)), None)
            if key is not None:
                # a new value with its own number takes the old one's along ("the Barclaycard ending 8830, not the
                # Amex" in "the Amex ending 4417"): replaced alone, the old number stayed beside the new one
                span = rf"\b{re.escape(old)}\b" + (r"(?:\s+[a-z]+){0,2}?\s+\d[\d\-]*" if re.search(r"\d", v) else "")
                if not re.search(span, pool[key], re.I):
                    span = rf"\b{re.escape(old)}\b"
                v = re.sub(span, v, pool[key], count=1, flags=re.I)
    elif run.last_key and _shape(pool.get(run.last_key, "")) == _shape(v):
        key = run.last_key
    else:
        same = [k for k, val in run.ctx.existing.items() if _shape(val) == _shape(v) and not k.startswith("task.")]
        key = same[0] if len(same) == 1 else None
    if key is None or pool.get(key, "").lower() == v.lower():
        return
    kind = next((x.kind for x in run.out if x.key == key), K.FACT if not key.startswith(("profile.", "relation.")) else K.PROFILE)
    c.emit(key, v, c.say(what=humanize_key(key), v=v), kind=kind, correction=True,
           keywords=f"correction corrected {humanize_key(key)}")


_Q_ADDRESS = re.compile(r"\b(?:home |street |postal |mailing |delivery |billing )?address\b", re.I)
_Q_BIRTH = re.compile(r"\b(?:date of birth|birth ?date|dob|when were you born|birthday)\b", re.I)
_ADDRESS_ANSWER = re.compile(r"^(?:it'?s |sure,? |yes,? )?" + P.ADDRESS + r"$")


def _answer_profile(c: Clause, question: str, reply: str, ids: list[str]) -> bool:
    """A street address or a date of birth given as the answer to the assistant's question for it."""
    qc = Clause(reply, Src(ids, c.src.ts, secrets=c.src.secrets), c.run, Flags(), rule=c.rule)
    text = reply.strip().rstrip(".!")
    if _Q_ADDRESS.search(question) and not re.search(r"\be-?mail\b", question, re.I):
        m = _ADDRESS_ANSWER.match(text)
        if m:
            v = m.group("v").strip(" ,.")
            qc.emit("profile.address", v, f"User's home address is {v}.", kind=K.FACT, keywords="address street home")
            return True
    if _Q_BIRTH.search(question):
        when = P.resolve_when(text, c.src.ts, future=False)
        if when and re.search(r"\b(?:19|20)\d{2}\b", text) and len(text[: when.start].split()) <= 3:
            day = when.day.isoformat()
            qc.emit("profile.birth_date", day, f"User was born on {day}.", kind=K.PROFILE, metadata={"date": day},
                    keywords="birthday born date of birth age")
            return True
        if when and re.search(r"\d", text) and len(text.split()) <= 5 and len(text[: when.start].split()) <= 3:
            v = when.day.strftime("%B %d").replace(" 0", " ")
            qc.emit("profile.birthday", v, f"User's birthday is {v}.", kind=K.PROFILE, keywords="birthday born")
            return True
    age = re.fullmatch(r"(?:i'?m |i am )?(\d{1,3})(?: years old| now)?", text, re.I)
    if age and 0 < int(age[1]) <= 120 and re.search(r"\bhow old are you\b|\byour age\b", question, re.I):
        qc.emit("profile.age", age[1], f"User is {age[1]} years old.", kind=K.PROFILE, keywords="age years old")
        return True
    return False


def emergency_answer(c: Clause, question: str, reply: str, ids: list[str]) -> bool:
    """The reply to the assistant's question for the user's emergency contact ("Put down my partner X")."""
    last_q = ([q for q in P.SENTENCE_SPLIT.split(question) if q.strip()][-1:] or [question])[0]
    m = R_EMERGENCY_ANSWER.match(reply.strip()) if re.search(r"\bemergency\b", last_q, re.I) else None
    if m is None or len(reply.split()) > 14:
        return False
    return emergency_contact(
        Clause(reply, Src(ids, c.src.ts, secrets=c.src.secrets), c.run, Flags(), rule=c.rule), m["rel"], m["v"])


def answer(c: Clause, question: str, reply: str, ids: list[str]) -> None:
    """A short reply to the assistant's question for an identifier, contact detail, name or expiry date."""
    if len(reply.split()) > 14 or reply.strip().endswith("?"):
        return
    src = c.src
    last_q = [q for q in P.SENTENCE_SPLIT.split(question) if q.strip()][-1:] or [question]
    if emergency_answer(c, last_q[0], reply, ids):
        return
    if _answer_profile(c, last_q[0], reply, ids):
        return
    for pattern, key, label in P.QA_SLOTS:
        if not pattern.search(last_q[0]):
            continue
        value = None
        qc = Clause(reply, Src(ids, src.ts, secrets=src.secrets), c.run, Flags(), rule=c.rule)
        if key == "contact.email":
            m = P.EMAIL.search(reply)
            value = m.group() if m else None
        elif key == "contact.phone":
            m = P.PHONE.search(reply)
            value = m.group().strip() if m else None
        elif key == "profile.name":
            m = re.search(r"(?:it'?s|i'?m|name is|^)\s*(" + P.NAME + r")\s*[.!]?$", reply.strip(), re.I)
            value = m.group(1) if m and m.group(1).split()[0].lower() not in P.NOT_NAMES else None
        elif key == "vin":
            m = P.VIN.search(reply)
            value = m.group() if m else None
        elif key == "expiry":
            doc = re.search(r"\b(?:(?-i:(?P<who>[A-Z][\w&'-]+)) )?(?P<what>" + P.EXPIRY_DOCS + r")\b", last_q[0], re.I)
            when = P.resolve_when(reply, src.ts)
            if doc and when and len(reply[: when.start].split()) <= 2:
                who = doc.group("who") or ""
                who = "" if who.lower() in ("passport", "your", "the", "my") or who.lower() == doc.group("what").lower() else who
                expiry(qc, doc.group("what"), who, when.day, reply[when.start:when.end])
            return
        else:
            m = _QA_ID.search(reply)
            value = m.group("v") if m else None
        if not value or P.resolve_when(value, src.ts) is not None and key not in ("vin",) and not re.search(r"[A-Z]", value):
            return
        if key in ("vin", "plate"):
            vslug = c.run.vehicles[-1] if c.run.vehicles else "car"
            key = slot_key("vehicle", vslug, key)
            label = f"{vslug.replace('_', ' ').title()} {label}" if c.run.vehicles else label
        qc.emit(key, value, qc.say(label=label, v=value), kind=K.PROFILE if key == "profile.name" else K.FACT,
                keywords=f"{label} answer")
        return


LOOP_RULES: tuple[Rule, ...] = (
    Rule("open_loop", K.OPEN_LOOP, ("task",), "User needs to {v}.", _open, pattern=P.R_OPEN, confidence=0.8,
         importance=0.7, stop=True, guards=(_unconditional,), examples=(
             Example("If the boiler breaks again I need to call the landlord."),
             Example("I need to repaint the garden fence.", "task.repaint_garden_fence", "open"),
             Example("Remind me to water the ferns on Sunday.", "task.water_ferns", "open"),
             Example("I'm waiting for the glazier to call back.", "task.wait_glazier_call_back", "open"),
             Example("I'm waiting for you to finish the list."),
             Example("I need to know the opening hours."),
             Example("I should probably sleep more."),
             Example("I should really descale the kettle.", "task.descale_kettle", "open"))),
    Rule("close_loop", K.OPEN_LOOP, ("task",), "User reports the task is done: {v}.", _close, pattern=P.R_CLOSE,
         confidence=0.8, importance=0.5, examples=(
             Example("I finally sent the tax forms.", "task.send_tax_forms", "closed",
                     before=("I need to send the tax forms.",)),
             Example("I finally repainted the kitchen.", before=("I need to renew my library card.",)))),
    Rule("close_pronoun", K.OPEN_LOOP, ("task",), "User reports the task is done: {v}.", _close_pronoun,
         pattern=_R_DONE_THAT, anchored=True, confidence=0.75, importance=0.5, quiet=True, examples=(
             Example("Already did that, thanks.", "task.defrost_freezer", "closed",
                     before=("I need to defrost the freezer.", "A: Want a reminder for the freezer?")),
             Example("Done, it took ten minutes.", "task.descale_kettle", "closed", before=("I need to descale the kettle.",)),
             Example("I just did the dishes.", before=("I need to descale the kettle.",)),
             Example("That's done.", before=("I need to defrost the freezer.", "I have to oil the bike chain.")))),
    Rule("close_by_verb", K.OPEN_LOOP, ("task",), "User reports the task is done: {v}.", lambda c, m: _close_by_verb(c, m),
         confidence=0.75, importance=0.5, quiet=True, examples=(
             Example("Repainted the garden fence this morning.", "task.repaint_garden_fence", "closed",
                     before=("I have to repaint the garden fence.",)),
             Example("No need, I already measured the hallway.", "task.measure_hallway", "closed",
                     before=("I need to measure the hallway.", "A: Should I remind you?")),
             Example("Emailed her an hour ago.", "task.email_accountant_receipts", "closed",
                     before=("I have to email the accountant the receipts.",)),
             Example("I still haven't measured the hallway.", before=("I need to measure the hallway.",)))),
    Rule("commitment", K.OPEN_LOOP, ("task",), "User needs to {v}.", _commitment, pattern=_R_COMMIT, confidence=0.75,
         importance=0.7, guards=(_unconditional,), examples=(
             Example("I'm supposed to send the minutes to the committee.", "task.send_minutes_committee", "open"),
             Example("I promised my aunt I'd fix her gate.", "task.fix_gate", "open"),
             Example("I'll ring the garage tomorrow.", "task.ring_garage", "open"),
             Example("I'll take the blue one."),
             Example("If it rains I'll call the ferry office."))),
)
PROCEDURE_RULE = Rule(
    "procedure", K.PROCEDURE, ("procedure",), "User's standing instruction: {v}.", _procedure, pattern=P.R_PROC,
    anchored=True, importance=0.8, examples=(
        Example("Whenever you draft an invoice, add the VAT number.", "procedure.draft_invoice",
                "add the VAT number"),
        Example("When I get home, I usually cook.")))
REVERSE_RULE = Rule(
    "reverse_instruction", K.PROCEDURE, ("procedure", "instruction"), "User's standing instruction is now: {v}.",
    _reverse, pattern=_R_REVERSE, importance=0.8, examples=(
        Example("Actually, drop the emoji from the summaries, please.", "procedure.send_summaries",
                "drop the emoji from the summaries",
                existing={"procedure.send_summaries": "add an emoji to each summary"}),
        Example("Skip the small talk, please.", existing={"procedure.send_summaries": "add an emoji to each summary"})))
CORRECTION_RULE = Rule(
    "correction", K.FACT, ("*",), "User's {what} is {v} (corrected).", _bare_correction, pattern=P.R_BARE_CORRECTION,
    anchored=True, confidence=0.9, importance=0.7, examples=(
        Example("Sorry, it's 7719, not 7791.", "card.visa.last4", "7719", existing={"card.visa.last4": "7791"}),
        Example("Sorry, it's raining.", existing={"card.visa.last4": "7791"})))
OPTION_RULE = Rule(
    "option_answer", K.PREFERENCE, ("prefer",), "User prefers {v} over {other}.", lambda c, m: None, confidence=0.8,
    importance=0.65, examples=(
        Example("Aisle, my knees need the room.", "preference.seat", "aisle", before=("A: Window or aisle?",)),
        Example("Tea, always.", "preference.choice.coffee_vs_tea", "tea", before=("A: Would you like coffee or tea?",)),
        Example("Neither, thanks.", before=("A: Would you like coffee or tea?",))))
QA_RULE = Rule(
    "qa_answer", K.FACT, ("*",), "User's {label} is {v}.", lambda c, m: None, confidence=0.75, importance=0.7, examples=(
        Example("It's PLX-88213.", "policy.number", "PLX-88213", before=("A: What's your policy number?",)),
        Example("14 Quarry Lane, Hexham.", "profile.address", "14 Quarry Lane, Hexham",
                before=("A: And your home address?",)),
        Example("It's 21 June 1984.", "profile.birth_date", "1984-06-21", before=("A: What's your date of birth?",)),
        Example("Next week works.", before=("A: What's your date of birth?",)),
        Example("Not sure, sorry.", before=("A: What's your policy number?",))))
