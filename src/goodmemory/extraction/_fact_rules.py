"""Shared plumbing and the fact, task, procedure and correction rules of the rule extractor.

Split out of :mod:`.rules` to keep each module readable: this module owns the per-run state
(:class:`_Run`, :class:`_Src`, :class:`_Flags`), the small English helpers (third person,
lemmas, objects) and the rules for identifiers, accounts, vehicles, money, contact details,
dates, open loops and their closing, standing procedures, bare corrections and answers to
the assistant's questions. Identity and preference rules stay in :mod:`.rules`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from ..models import MemoryKind
from ..taxonomy import content_words, humanize_key, normalize_key, slot_key, task_key, word_overlap
from . import _patterns as P
from .base import ExtractionContext

if TYPE_CHECKING:
    from ..models import Candidate
    from .rules import RuleExtractor as _Emit

K = MemoryKind
_PRON = re.compile(r"\b(?:i'm|i am|i've|i'll|i'd|i|me|my|mine|myself)\b", re.I)
_PRON_MAP = {"i'm": "they're", "i am": "they are", "i've": "they've", "i'll": "they'll", "i'd": "they'd",
             "i": "they", "me": "them", "my": "their", "mine": "theirs", "myself": "themselves"}
_IRREGULAR = {"paid": "pay", "sent": "send", "done": "do", "did": "do", "made": "make", "bought": "buy", "got": "get",
              "gotten": "get", "written": "write", "wrote": "write", "taken": "take", "took": "take", "found": "find",
              "told": "tell", "heard": "hear", "left": "leave", "given": "give", "gone": "go", "seen": "see",
              "sold": "sell", "chosen": "choose", "set": "set", "put": "put", "read": "read", "applied": "apply"}
_QA_ID = re.compile(r"(?<![\w@.])#?(?P<v>(?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{3,24})(?![\w@])")
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")


def _third(text: str) -> str:
    return _PRON.sub(lambda m: _PRON_MAP[m.group().lower()], text)


def _conj(clause: str) -> str:
    """Third-person singular of the clause's first verb: ``check my bags`` -> ``checks their bags``."""
    head, _, rest = _third(clause).partition(" ")
    low = head.lower()
    special = {"be": "is", "have": "has", "do": "does", "go": "goes", "don't": "doesn't", "can't": "can't"}
    if low in special:
        head = special[low]
    elif low.endswith(("s", "sh", "ch", "x", "z", "o")):
        head += "es"
    elif len(low) > 2 and low.endswith("y") and low[-2] not in "aeiou":
        head = head[:-1] + "ies"
    elif low.isalpha():
        head += "s"
    return f"{head} {rest}".strip()


def _lemma(word: str) -> str:
    w = word.lower()
    if w in _IRREGULAR:
        return _IRREGULAR[w]
    if w.endswith("ied"):
        return w[:-3] + "y"
    if w.endswith("ed") and len(w) > 4:
        stem = w[:-2]
        if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "ls":
            return stem[:-1]
        if stem.endswith(("at", "ut", "iz", "ul", "ir", "v", "c", "ag", "as", "us", "ng")) or (len(stem) <= 3 and stem.endswith("il")):
            return stem + ("" if stem.endswith("ng") and not stem.endswith("ang") else "e")
        return stem
    return w


def _obj(text: str, max_words: int = 8) -> str | None:
    v = P.OBJ_STOP.sub("", text.strip()).strip()
    v = P.OBJ_TAIL.sub("", v).strip(" .,!")
    words = v.lower().split()
    if not v or P.OBJ_REJECT.search(v) or len(words) > max_words or not content_words(v):
        return None
    if (len(words) == 1 and words[0] in P.LIKE_JUNK) or words[-1] in P.DANGLING:  # "I love live", "I like the"
        return None
    return v


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


@dataclass
class _Flags:
    correction: bool = False
    hedged: bool = False
    negated_change: bool = False


@dataclass
class _Src:
    ids: list[str]
    ts: datetime
    role: str = "user"
    confirmed: bool = False
    secrets: dict[str, str] = field(default_factory=dict)


@dataclass
class _Run:
    ctx: ExtractionContext
    out: list[Candidate] = field(default_factory=list)
    index: dict[tuple[str, str], Candidate] = field(default_factory=dict)
    vehicles: list[str] = field(default_factory=list)
    tasks: dict[str, str] = field(default_factory=dict)
    last_key: str | None = None
    issuer: tuple[str, str] | None = None  # the card issuer the conversation last named (short, full)
    silent: list[tuple[str, bool]] = field(default_factory=list)  # (sentence or clause, is clause) no rule matched
    clause: str = ""  # the clause the rules are reading
    known: frozenset[str] = frozenset()  # naming words of the user's current memories


_TYPE_NORM = {"ref": "reference", "pnr": "booking", "record locator": "booking", "reservation": "booking",
              "member": "membership", "frequent flier": "frequent_flyer", "licence": "license", "rx": "prescription"}


def _clean_id(v: str) -> str:
    return v.lstrip("#").strip(" .-")


def _facts(ex: _Emit, s: str, src: _Src, run: _Run, fl: _Flags) -> None:
    m = P.R_ACCOUNT.search(s)
    if m:
        inst, typ, v = (m.group("inst") or "").strip(), (m.group("type") or "").lower(), _clean_id(m.group("v"))
        if inst.lower() in ("my", "the", "our"):
            inst = ""
        key = slot_key("account", inst or None, typ or ("number" if not inst else None))
        label = " ".join(x for x in (inst, typ) if x)
        ex._emit(run, src, fl, K.FACT, key, v, f"User's {label + ' ' if label else ''}account number is {v}.",
                 conf=0.9, importance=0.8, keywords=f"account number bank {label}")
    m = P.R_ROUTING.search(s)
    if m:
        ex._emit(run, src, fl, K.FACT, "account.routing", m.group("v"), f"User's bank routing number is {m.group('v')}.",
                 conf=0.9, importance=0.7, keywords="routing number bank aba")
    m = P.R_CARD_LAST4.search(s)
    if m and (m.group("card") or m.group("brand")):
        brand = (m.group("brand") or "").strip()
        ex._emit(run, src, fl, K.FACT, slot_key("card", brand or "card", "last4"), m.group("v"),
                 f"User's {brand + ' ' if brand else ''}card ends in {m.group('v')}.", conf=0.9, importance=0.7,
                 keywords=f"card credit debit ending last four {brand}")
    got_ident = False
    for m in P.R_IDENT.finditer(s):
        typ = m.group("type").lower()
        if typ == "account" or (typ in ("license", "licence", "registration") and "plate" in m.group(0).lower()):
            continue
        typ = _TYPE_NORM.get(typ, typ)
        qual = " ".join(w for w in m.group("qual").split() if w.lower() not in ("new", "current", "old", "a", "an"))
        v = _clean_id(m.group("v"))
        if len(re.sub(r"\W", "", v)) < 4:
            continue
        got_ident = True
        label = f"{qual} {m.group('type')}".strip()
        ex._emit(run, src, fl, K.FACT, slot_key(typ, qual or None, "number"), v, f"User's {label} number is {v}.",
                 conf=0.9, importance=0.75, keywords=f"{label} number id reference")
    if not got_ident:
        m = P.R_PNR.search(s) or P.R_IDENT_SHORT.search(s)
        if m and len(re.sub(r"\W", "", m.group("v"))) >= 4:
            typ = _TYPE_NORM.get(m.group("type").lower(), m.group("type").lower())
            v = _clean_id(m.group("v"))
            ex._emit(run, src, fl, K.FACT, slot_key(typ, "number"), v, f"User's {m.group('type')} number is {v}.",
                     conf=0.85, importance=0.7, keywords=f"{typ} number code reference")
    m = P.R_PLATE.search(s) or P.R_PLATE_ON.search(s)
    veh = m.group("veh") if m else None
    if m and veh and veh.split()[0].lower() in ("my", "the", "our", "your", "license", "licence"):
        m, veh = None, None
    m = m or P.R_PLATE_BARE.search(s)
    if m:
        attr = "vin" if m.group("attr").lower() == "vin" else "plate"
        v = re.sub(r"(?:\s+[A-Za-z])+$", "", m.group("v")).strip()
        ok = bool(P.VIN.fullmatch(v)) if attr == "vin" else (re.search(r"\d", v) and 4 <= len(v.replace(" ", "")) <= 10)
        if ok:
            name = veh or (run.vehicles[-1].replace("_", " ").title() if run.vehicles else "")
            vslug = ex._vehicle_slug(name, run) if name else "car"
            label = "plate" if attr == "plate" else "VIN"
            ex._emit(run, src, fl, K.FACT, slot_key("vehicle", vslug, attr), v, f"User's {name + ' ' if name else ''}{label} is {v}.",
                     conf=0.9, importance=0.75, keywords=f"{'plate license registration tag' if attr == 'plate' else 'vin vehicle identification number'} car vehicle {name}")
    m = P.R_OWN_VEHICLE.search(s)
    if m:
        name = m.group("veh")
        full = f"{m.group('year')} {name}"
        if name.split()[0].lower() in P.CAR_MAKES:
            ex._emit(run, src, fl, K.FACT, slot_key("vehicle", ex._vehicle_slug(name, run)), full, f"User owns a {full}.",
                     importance=0.65, keywords=f"car vehicle owns drives {name}")
        else:  # "an old 2018 MacBook Pro" is a thing the user owns, not a car
            ex._emit(run, src, fl, K.FACT, slot_key("possession", name), full, f"User owns a {full}.",
                     importance=0.55, keywords=f"owns has device item {name}")
    _choice(ex, s, src, run, fl)
    m = P.R_MONEY.search(s)
    if m:
        what, v = m.group("what").lower(), m.group("v").strip()
        ex._emit(run, src, fl, K.FACT, slot_key("finance", what), v, f"User's {what} is {v}.", importance=0.6,
                 conf=0.8 if re.search(r"\b(?:about|around|roughly|approximately)\b", m.group(0), re.I) else 0.85,
                 keywords=f"money amount {what}")
    m = P.R_EARN.search(s)
    if m:
        v = m.group("v").strip()
        ex._emit(run, src, fl, K.FACT, "finance.income", v, f"User earns {v}.", conf=0.8, importance=0.55,
                 keywords="income salary earns makes money")
    m = P.R_EMAIL.search(s)
    if m:
        typ = (m.group("type") or "").strip().lower()
        ex._emit(run, src, fl, K.FACT, slot_key("contact", "email", typ or None), m.group("v"),
                 f"User's {typ + ' ' if typ else ''}email address is {m.group('v')}.", conf=0.9, importance=0.7,
                 keywords="email e-mail address contact")
    m = P.R_PHONE.search(s)
    if m and 7 <= sum(c.isdigit() for c in m.group("v")) <= 15:
        typ = (m.group("type") or next((w for w in ("cell", "mobile") if w in m.group(0).lower()), "")).lower()
        ex._emit(run, src, fl, K.FACT, slot_key("contact", "phone", typ or None), m.group("v").strip(),
                 f"User's {typ + ' ' if typ else ''}phone number is {m.group('v').strip()}.", conf=0.9, importance=0.7,
                 keywords="phone number mobile cell contact call")
    m = P.R_ADDRESS.search(s)
    if m:
        typ = (m.group("type") or "").strip().lower()
        v = m.group("v").strip(" ,.")
        home = typ in ("", "home", "new")
        key = "profile.address" if home else slot_key("contact", "address", typ)
        ex._emit(run, src, fl, K.FACT, key, v, f"User's {'home' if home else typ} address is {v}.", conf=0.9,
                 importance=0.7, correction="moved" in m.group(0).lower() or typ == "new", keywords="address lives street home")
    m = P.R_BIRTH.search(s)
    if m:
        when = P.resolve_when(m.group("rest"), src.ts, future=False)
        if when and _YEAR.search(m.group("rest")):
            ex._emit(run, src, fl, K.PROFILE, "profile.birth_date", when.day.isoformat(),
                     f"User was born on {when.day.isoformat()}.", importance=0.6, metadata={"date": when.day.isoformat()},
                     keywords="birthday born date of birth age")
        elif when:
            v = when.day.strftime("%B %d").replace(" 0", " ")
            ex._emit(run, src, fl, K.PROFILE, "profile.birthday", v, f"User's birthday is {v}.", importance=0.55,
                     keywords="birthday born")
    expiry_rule(ex, s, src, run, fl)
    m = P.R_EVENT.search(s)
    if m:
        when = P.resolve_when(m.group("rest"), src.ts)
        what = " ".join(w for w in m.group("what").split() if w.lower() not in ("next", "upcoming", "new", "big", "the"))
        noun = {"appt": "appointment", "check-up": "checkup"}.get(m.group("noun").lower(), m.group("noun").lower())
        if when:
            dest = re.search(r"\bto (?-i:([A-Z][\w\-]+(?: [A-Z][\w\-]+)?))", m.group("rest"))
            if noun in ("flight", "trip", "vacation", "holiday"):
                key = slot_key("travel", noun, dest.group(1) if dest else what or None)
            else:
                key = slot_key("appointment", what or noun) if noun == "appointment" else slot_key("appointment", f"{what} {noun}")
            label = f"{what} {noun}".strip() + (f" to {dest.group(1)}" if dest else "")
            moved = bool(re.search(r"\b(?:moved|rescheduled|changed|pushed|postponed)\b", m.group("rest"), re.I))
            ex._emit(run, src, fl, K.FACT, key, when.day.isoformat(), f"User has {_article(label)} {label} on {when.phrase}.",
                     importance=0.75, correction=moved, metadata={"date": when.day.isoformat(), "time": when.time},
                     keywords=f"{label} appointment schedule date when {s[when.start:when.end]}")
    m = P.R_DEADLINE.search(s)
    if m:
        what = re.sub(r"^(?:the|my|our)\s+", "", (m.group("what") or m.group("what2")).strip(), flags=re.I)
        what = " ".join(what.split()[-4:])
        when = P.resolve_when(m.group("rest") or m.group("rest2") or "", src.ts)
        if when and content_words(what):
            ex._emit(run, src, fl, K.FACT, slot_key("deadline", what), when.day.isoformat(), f"User's {what} is due on {when.phrase}.",
                     importance=0.8, metadata={"date": when.day.isoformat(), "time": when.time},
                     keywords=f"deadline due {what} {s[when.start:when.end]}")
    m = P.R_SWITCHED.search(s)
    if m and m.group("old"):
        old = m.group("old").strip().lower()
        for key, val in run.ctx.existing.items():
            if val.lower() == old:
                v = m.group("v")
                ex._emit(run, src, fl, K.FACT, key, v, f"User's {humanize_key(key)} is now {v} (switched from {m.group('old').strip()}).",
                         importance=0.7, correction=True, keywords=f"switched changed {old}")
                break


_DOC_FAMILY = {"driver's license": "license", "drivers license": "license", "driver's licence": "license",
               "licence": "license", "id card": "id", "extended warranty": "warranty"}


def expiry_rule(ex: _Emit, s: str, src: _Src, run: _Run, fl: _Flags) -> None:
    """Also runs on sentences with no "I"/"my": "Apple warranty until March 15th, 2025." """
    m = P.R_EXPIRY.search(s)
    if m:
        when = P.resolve_when(m.group("rest"), src.ts)
        if when and when.start <= 3:
            _expiry(ex, run, src, fl, m.group("what"), (m.group("who") or "").strip(), when.day,
                    m.group("rest")[when.start:when.end])


def _expiry(ex: _Emit, run: _Run, src: _Src, fl: _Flags, what: str, who: str, day: date, said: str) -> None:
    """``<family>[.<issuer>].expiration`` = ISO date; the text spells the date out ("February 18, 2025")."""
    family = _DOC_FAMILY.get(what.lower(), what.lower())
    who = "" if who.lower() in ("my", "the", "our", "your", "new", "current", "old") else who
    label = f"{who} {what.lower()}".strip()
    spelled = f"{day.strftime('%B')} {day.day}, {day.year}"
    ex._emit(run, src, fl, K.FACT, slot_key(family, who or None, "expiration"), day.isoformat(),
             f"User's {label} is valid until {spelled} (expires {day.isoformat()}).", conf=0.85, importance=0.75,
             metadata={"date": day.isoformat()},
             keywords=f"{label} expires expiration expiry valid until renew renewal {said}")


_BOUGHT_VERBS = frozenset({"bought", "buy", "buying", "purchased", "purchase", "ordered"})


def _choice(ex: _Emit, s: str, src: _Src, run: _Run, fl: _Flags) -> None:
    """A named product the user chose or bought: "Let's go with the Gold Card", "I bought the Dyson V15"."""
    m = P.R_CHOICE.search(s) or P.R_BOUGHT.search(s)
    if not m:
        return
    name, tail = m.group("x"), (m.group("tail") or "").strip()
    if name.split()[0].lower() in P.CAR_MAKES:
        return  # vehicles have their own rules
    bought = m.group("verb").lower() in _BOUGHT_VERBS
    family = "card" if (tail.lower().endswith("card") or name.lower().endswith("card")) else "purchase"
    also = ""
    if family == "card" and run.issuer and not P.R_ISSUER.search(name):
        # "Let's go with the Gold Card" while talking to American Express is the Amex Gold Card
        name = f"{run.issuer[0]} {name}"
        also = f" ({run.issuer[1]})" if run.issuer[1] != run.issuer[0] else ""
    what = f"{name} {tail}".strip()
    ex._emit(run, src, fl, K.FACT, slot_key(family, name), name,
             f"User {'bought' if bought else 'chose'} the {what}{also}.", conf=0.8, importance=0.6,
             keywords=f"{'bought purchased owns' if bought else 'chose picked selected has'} {family} {what}")


def _open_loops(ex: _Emit, s: str, src: _Src, run: _Run, fl: _Flags) -> None:
    m = P.R_OPEN.search(s)
    if m:
        verb, rest = m.group("verb").lower(), m.group("v").strip()
        rest = re.split(r"\s+(?:because|but|so that|since|although)\b|[,;]", rest)[0].strip(" .")
        when = P.resolve_when(rest, src.ts) if rest else None
        core = rest[: when.start].strip() if when else rest
        core = re.sub(r"\s+(?:by|before|on|until|next|this|at|in)$", "", core, flags=re.I).strip()
        core = re.sub(r"\s+yet$", "", core, flags=re.I)
        if "haven" in verb or "have not" in verb:
            head, _, tail = core.partition(" ")
            if head.lower() in P.HAVENT_STATES or P.R_SPAN.search(m.group("v")):
                core = ""  # "I haven't been around", "haven't read in years": no chore is pending
            else:
                core = f"{_lemma(head)} {tail}".strip()
        if "waiting" in verb:
            core, text_t = f"wait for {core}", "User is still waiting for {0}."
        elif "get back" in verb or "follow up" in verb:
            core = f"get back to the assistant about {core}" if core else "get back to the assistant"
            text_t = "User said they would {0}."
        elif "remind" in verb or "forget" in verb:
            text_t = "User asked to be reminded to {0}."
        else:
            text_t = "User needs to {0}."
        core3 = _third(core)
        if core and not P.OPEN_REJECT.match(core) and content_words(core) and len(core.split()) <= 14 and "you" not in core.lower().split()[:1]:
            key = task_key(core)
            due = f" by {when.phrase}" if when else ""
            meta: dict[str, Any] = {"state": "open", "task": core3}
            if when:
                meta["date"] = when.day.isoformat()
            ex._emit(run, src, fl, K.OPEN_LOOP, key, "open", text_t.format(core3 + due).replace(".", "", 0),
                     conf=0.8, importance=0.8 if when else 0.7, metadata=meta, keywords=f"todo task open {core}")
            run.tasks[normalize_key(key)] = core
            return
    m = P.R_CLOSE.search(s)
    if m and run.tasks:
        obj = (m.group("v") or m.group("v2") or m.group("v3") or "").strip(" .")
        phrase = f"{_lemma(m.group('verb') or '')} {obj}".strip() if m.group("verb") else obj
        best, score = None, 0.0
        for key, task in run.tasks.items():
            if key == task_key(phrase):
                best, score = key, 1.0
                break
            sc = word_overlap(obj, task)
            if sc > score:
                best, score = key, sc
        if best and score >= 0.5:
            done = _third(m.group(0).strip(" ."))
            ex._emit(run, src, fl, K.OPEN_LOOP, best, "closed", f"User reports the task is done: {done}.", conf=0.8,
                     importance=0.5, closes=best, metadata={"state": "closed", "task": run.tasks[best]},
                     keywords=f"done finished closed {obj}")


def _procedure(ex: _Emit, s: str, src: _Src, run: _Run, fl: _Flags) -> None:
    m = P.R_PROC.match(s)
    if not m:
        return
    cond, act = m.group("cond"), (m.group("act") or m.group("act2") or "").strip(" .")
    if cond and not (re.search(r"\byou\b", cond, re.I) or P.IMPERATIVE.match(act)):
        return
    if not cond and not P.IMPERATIVE.match(act) and not re.search(r"\byou\b", act, re.I):
        return
    if re.match(r"i\b", act, re.I):
        return
    basis = cond or act
    key = slot_key("procedure", " ".join(content_words(basis)[:5]) or basis)
    text = f"User's standing instruction: when {cond}, {act}." if cond else f"User's standing instruction: {act}."
    ex._emit(run, src, fl, K.PROCEDURE, key, act, text, importance=0.8, transferable=True,
             keywords=f"procedure rule instruction always {basis}")


def _shape(v: str) -> str:
    if "@" in v:
        return "email"
    if re.fullmatch(r"\d+", v):
        return "int"
    if re.search(r"\d", v):
        return "id"
    return "word" if v[:1].isupper() else "text"


def _bare_correction(ex: _Emit, s: str, src: _Src, run: _Run, fl: _Flags) -> None:
    m = P.R_BARE_CORRECTION.match(s)
    if not m:
        return
    v, old = m.group("v").strip(), (m.group("old") or "").strip()
    pool = {**run.ctx.existing, **{c.key: c.value for c in run.out}}
    key = None
    if old:
        key = next((k for k, val in pool.items() if val.lower() == old.lower()), None)
        if key is None:
            key = next((k for k, val in pool.items() if re.search(rf"\b{re.escape(old)}\b", val, re.I)), None)
            if key is not None:
                v = re.sub(rf"\b{re.escape(old)}\b", v, pool[key], flags=re.I)
    elif run.last_key and _shape(pool.get(run.last_key, "")) == _shape(v):
        key = run.last_key
    else:
        same = [k for k, val in run.ctx.existing.items() if _shape(val) == _shape(v) and not k.startswith("task.")]
        key = same[0] if len(same) == 1 else None
    if key is None or pool.get(key, "").lower() == v.lower():
        return
    kind = next((c.kind for c in run.out if c.key == key), K.FACT if not key.startswith(("profile.", "relation.")) else K.PROFILE)
    ex._emit(run, src, fl, kind, key, v, f"User's {humanize_key(key)} is {v} (corrected).", conf=0.9, importance=0.7,
             correction=True, keywords=f"correction corrected {humanize_key(key)}")


def _qa_answer(ex: _Emit, question: str, answer: str, ids: list[str], src: _Src, run: _Run) -> None:
    if len(answer.split()) > 14 or answer.strip().endswith("?"):
        return
    last_q = [q for q in P.SENTENCE_SPLIT.split(question) if q.strip()][-1:] or [question]
    for pattern, key, label in P.QA_SLOTS:
        if not pattern.search(last_q[0]):
            continue
        value = None
        if key == "contact.email":
            m = P.EMAIL.search(answer)
            value = m.group() if m else None
        elif key == "contact.phone":
            m = P.PHONE.search(answer)
            value = m.group().strip() if m else None
        elif key == "profile.name":
            m = re.search(r"(?:it'?s|i'?m|name is|^)\s*(" + P.NAME + r")\s*[.!]?$", answer.strip(), re.I)
            value = m.group(1) if m and m.group(1).split()[0].lower() not in P.NOT_NAMES else None
        elif key == "vin":
            m = P.VIN.search(answer)
            value = m.group() if m else None
        elif key == "expiry":
            doc = re.search(r"\b(?:(?-i:(?P<who>[A-Z][\w&'-]+)) )?(?P<what>" + P.EXPIRY_DOCS + r")\b", last_q[0], re.I)
            when = P.resolve_when(answer, src.ts)
            if doc and when and len(answer[: when.start].split()) <= 2:
                who = doc.group("who") or ""
                who = "" if who.lower() in ("passport", "your", "the", "my") or who.lower() == doc.group("what").lower() else who
                _expiry(ex, run, _Src(ids, src.ts, secrets=src.secrets), _Flags(), doc.group("what"), who, when.day,
                        answer[when.start:when.end])
            return
        else:
            m = _QA_ID.search(answer)
            value = m.group("v") if m else None
        if not value or P.resolve_when(value, src.ts) is not None and key not in ("vin",) and not re.search(r"[A-Z]", value):
            return
        if key in ("vin", "plate"):
            vslug = run.vehicles[-1] if run.vehicles else "car"
            key = slot_key("vehicle", vslug, key)
            label = f"{vslug.replace('_', ' ').title()} {label}" if run.vehicles else label
        qsrc = _Src(ids, src.ts, secrets=src.secrets)
        ex._emit(run, qsrc, _Flags(), K.PROFILE if key == "profile.name" else K.FACT, key, value,
                 f"User's {label} is {value}.", conf=0.75, importance=0.7, keywords=f"{label} answer")
        return
