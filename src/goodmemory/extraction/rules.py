"""The offline, deterministic rule extractor.

This module owns turning first-person statements into :class:`Candidate`
memories without a model: identity and background, preferences, facts with
identifiers and dates, open loops and their closing, standing procedures, and
corrections. It is conservative by design (questions, hypotheticals and
reported speech yield nothing); the vocabulary lives in :mod:`._patterns`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..models import Candidate, MemoryKind, Message
from ..secrets import find_secrets
from ..taxonomy import content_words, humanize_key, normalize_key, slot_key, slug, task_key, word_overlap
from . import _patterns as P
from .base import ExtractionContext

__all__ = ["PATTERN_NAMES", "RuleExtractor"]

PATTERN_NAMES: tuple[str, ...] = (
    "name", "preferred_name", "age", "occupation", "employer", "home_city", "origin", "nationality",
    "languages", "relation", "relation_age", "expertise", "like_dislike", "prefer", "habit",
    "please_always_never", "communication_style", "reply_language", "work_style", "diet", "diet_avoid",
    "allergy", "accessibility", "account", "routing_number", "card_last4", "identifier_number",
    "booking_code", "vehicle", "plate_vin", "money", "income", "appointment", "deadline", "birth_date",
    "email", "phone", "address", "open_loop", "close_loop", "procedure", "correction", "switched_to",
    "qa_answer", "assistant_confirmed",
)

_PRON = re.compile(r"\b(?:i'm|i am|i've|i'll|i'd|i|me|my|mine|myself)\b", re.I)
_PRON_MAP = {"i'm": "they're", "i am": "they are", "i've": "they've", "i'll": "they'll", "i'd": "they'd",
             "i": "they", "me": "them", "my": "their", "mine": "theirs", "myself": "themselves"}
_SWAP = re.compile(r"\b(?:you're|you are|you've|you'll|you'd|yourself|yours|your|you|i'm|i am|i|me|my)\b", re.I)
_SWAP_MAP = {"you're": "I'm", "you are": "I am", "you've": "I've", "you'll": "I'll", "you'd": "I'd",
             "yourself": "myself", "yours": "mine", "your": "my", "you": "I", "i'm": "the assistant is",
             "i am": "the assistant is", "i": "the assistant", "me": "the assistant", "my": "the assistant's"}
_ASSIST_LEAD = re.compile(r"^(?:just to confirm|to confirm|let me confirm|so|got it|great|perfect|thank you|thanks|ok|okay|"
                          r"understood|alright|noted|i see)\b[,:.!]?\s*", re.I)
_ASSIST_TAIL = re.compile(r",?\s*(?:is that (?:right|correct)|correct|right|yes)\s*\??$", re.I)
_IRREGULAR = {"paid": "pay", "sent": "send", "done": "do", "did": "do", "made": "make", "bought": "buy", "got": "get",
              "gotten": "get", "written": "write", "wrote": "write", "taken": "take", "took": "take", "found": "find",
              "told": "tell", "heard": "hear", "left": "leave", "given": "give", "gone": "go", "seen": "see",
              "sold": "sell", "chosen": "choose", "set": "set", "put": "put", "read": "read", "applied": "apply"}
_FOOD = re.compile(r"\b(?:food|cuisine|restaurants?|dish(?:es)?|sushi|pizza|pasta|thai|italian|indian|mexican|chinese|"
                   r"japanese|spicy|seats?|aisle|window|hotels?|rooms?|flights?|airlines?|wine|beer)\b", re.I)
_CHANNEL = re.compile(r"\b(?P<v>email|e-mail|phone|text|sms|call|whatsapp|slack|telegram)\b", re.I)
_DAYPART = re.compile(r"\b(?P<v>mornings?|afternoons?|evenings?|nights?|weekends?)\b", re.I)
_SEAT = re.compile(r"\b(?P<v>aisle|window|middle|exit[- ]row)\b.*\bseats?\b|\bseats? (?:by|at) the (?P<v2>aisle|window)\b", re.I)
_DIET_NOT = re.compile(r"\b(?:i'?m|i am) (?:not|no longer) (?:a |an )?(?P<v>vegetarian|vegan|pescatarian|keto|gluten-free)\b", re.I)
_QA_ID = re.compile(r"(?<![\w@.])#?(?P<v>(?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{3,24})(?![\w@])")
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
_MENTION = re.compile(r"\b(?:(?:19|20)\d{2} |the |my |our )(?P<veh>(?-i:[A-Z][a-z]+(?: [A-Z0-9][\w\-]*){0,2}))")


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
    if not v or P.OBJ_REJECT.search(v) or len(v.split()) > max_words or not content_words(v):
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


class RuleExtractor:
    """Regex and string rules over user turns (and user-confirmed assistant turns)."""

    name = "rules"

    def extract(self, messages: Sequence[Message], ctx: ExtractionContext) -> list[Candidate]:
        run = _Run(ctx=ctx)
        for key in ctx.existing:
            if key.startswith("task."):
                run.tasks.setdefault(key, key[5:].replace("_", " "))
        msgs = list(messages)
        for i, msg in enumerate(msgs):
            if msg.role not in ("user", "assistant") or not msg.content:
                continue
            self._track_vehicles(msg.content, run)
            ts = msg.timestamp or ctx.at
            if msg.role == "user":
                src = _Src([msg.id or ""], ts, secrets=_secret_values(msg.content))
                before = len(run.out)
                self._text(msg.content, src, run)
                prev = msgs[i - 1] if i > 0 else None
                if len(run.out) == before and prev is not None and prev.role == "assistant":
                    self._qa(prev, msg, src, run)
                continue
            nxt = next((m for m in msgs[i + 1 :] if m.role in ("user", "assistant")), None)
            if nxt is None or nxt.role != "user" or not P.CONFIRMATIONS.match(nxt.content):
                self._issued(msg, ts, run)
                continue
            src = _Src([msg.id or "", nxt.id or ""], ts, role="assistant", confirmed=True,
                       secrets=_secret_values(msg.content))
            swapped = _SWAP.sub(lambda m: _swap_case(m.group(), _SWAP_MAP[m.group().lower()]), msg.content)
            self._text(swapped, src, run, assistant=True)
        return run.out

    def _issued(self, msg: Message, ts: Any, run: _Run) -> None:
        """Identifiers an assistant or agent issues ("your confirmation number is FS-447291") are facts
        of the user's world, not speculation: keep those (and only those) from unconfirmed turns."""
        if not any(ch.isdigit() for ch in msg.content):
            return
        src = _Src([msg.id or ""], ts, role="assistant", confirmed=False, secrets=_secret_values(msg.content))
        swapped = _SWAP.sub(lambda m: _swap_case(m.group(), _SWAP_MAP[m.group().lower()]), msg.content)
        scratch = _Run(ctx=run.ctx, vehicles=list(run.vehicles))
        self._text(swapped, src, scratch, assistant=True)
        for c in scratch.out:
            if (c.kind == MemoryKind.FACT and any(ch.isdigit() for ch in c.value) and c.closes is None
                    and not c.metadata.get("secret_kinds")):
                c.metadata["issued_by_assistant"] = True
                run.out.append(c)

    # ------------------------------------------------------------ plumbing
    def _track_vehicles(self, text: str, run: _Run) -> None:
        for m in P.R_OWN_VEHICLE.finditer(text):
            self._vehicle_slug(m.group("veh"), run)
        for m in _MENTION.finditer(text):
            if m.group("veh").split()[0].lower() in P.CAR_MAKES:
                self._vehicle_slug(m.group("veh"), run)

    def _vehicle_slug(self, name: str, run: _Run) -> str:
        s = slug(name)
        for known in run.vehicles:
            if known.startswith(s) or s.startswith(known):
                s = known if len(known) >= len(s) else s
                run.vehicles.remove(known)
                break
        run.vehicles.append(s)
        return s

    def _emit(self, run: _Run, src: _Src, fl: _Flags, kind: MemoryKind, key: str, value: str, text: str, *,
              conf: float = 0.85, importance: float = 0.5, keywords: str = "", transferable: bool | None = None,
              closes: str | None = None, metadata: dict[str, Any] | None = None, correction: bool = False) -> None:
        key = normalize_key(key)
        value = value.strip()
        if not value:
            return
        is_corr = fl.correction or correction
        c = min(conf, 0.6) if fl.hedged else conf
        if is_corr:
            c += 0.05
        if src.role == "assistant":
            c = min(c, 0.8)
        meta = dict(metadata or {})
        hits = sorted({k for s, k in src.secrets.items() if s in value or (len(value) >= 4 and value in s)})
        if hits:
            meta["secret_kinds"] = hits
        dup = run.index.get((key, value.lower()))
        if dup is not None:
            dup.message_ids.extend(i for i in src.ids if i not in dup.message_ids)
            return
        cand = Candidate(
            kind=kind, key=key, value=value, text=text, confidence=round(max(0.5, min(0.95, c)), 3),
            importance=importance, transferable=transferable, domain=run.ctx.domain, message_ids=list(src.ids),
            role=src.role, timestamp=src.ts, is_correction=is_corr, confirmed_by_user=src.confirmed,
            closes=closes, extractor=self.name, keywords=keywords, metadata=meta,
        )
        run.index[(key, value.lower())] = cand
        run.out.append(cand)
        run.last_key = key

    def _text(self, content: str, src: _Src, run: _Run, *, assistant: bool = False) -> None:
        msg_correction = bool(P.CORRECTION_ANY.search(content))
        for raw in P.SENTENCE_SPLIT.split(content):
            s = raw.strip()
            if assistant:
                s = _ASSIST_LEAD.sub("", s)
                s = _ASSIST_TAIL.sub("", s).rstrip("?")
            if len(s) < 4 or s.endswith("?") or len(s) > 400:
                continue
            fl = _Flags()
            for _ in range(3):
                before = s
                s = P.LEAD.sub("", s)
                m = P.CORRECTION_LEAD.match(s)
                if m:
                    fl.correction = True
                    s = s[m.end():]
                if P.HEDGE_LEAD.match(s):
                    fl.hedged = True
                    s = P.HEDGE_LEAD.sub("", s, count=1)
                if s == before:
                    break
            s = s.strip().rstrip(".!").strip()
            if not s or P.QUESTION_START.match(s) or P.HYPOTHETICAL.search(s) or P.REPORTED.search(s):
                continue
            fl.hedged = fl.hedged or bool(P.HEDGE_ANY.search(s))
            fl.negated_change = bool(P.NEGATED_CHANGE.search(s))
            fl.correction = fl.correction or (msg_correction and bool(P.CORRECTION_ANY.search(s)))
            n = len(run.out)
            _apply(self, s, src, run, fl)
            if len(run.out) == n and fl.correction:
                _bare_correction(self, s, src, run, fl)

    def _qa(self, question: Message, answer: Message, src: _Src, run: _Run) -> None:
        _qa_answer(self, question.content, answer.content, [question.id or "", answer.id or ""], src, run)


def _swap_case(original: str, repl: str) -> str:
    return repl[0].upper() + repl[1:] if original[:1].isupper() and repl[:1].islower() else repl


def _secret_values(text: str) -> dict[str, str]:
    return {text[s.start : s.end]: s.kind for s in find_secrets(text)}


# ------------------------------------------------------------------ the rules
K = MemoryKind
_Emit = RuleExtractor


def _apply(ex: _Emit, s: str, src: _Src, run: _Run, fl: _Flags) -> None:
    low = s.lower()
    has_i = bool(re.search(r"\b(?:i|i'm|i've|my|me|i'd)\b", low)) or low.startswith(("please", "when", "whenever", "every", "each", "from now", "going forward", "keep", "be ", "no ", "use", "avoid", "explain", "reply", "respond", "answer", "always", "never", "don't", "do not", "the ", "our "))
    if not has_i:
        return
    _profile(ex, s, src, run, fl)
    before = len(run.out)
    _preferences(ex, s, src, run, fl)
    _facts(ex, s, src, run, fl)
    if len(run.out) == before or re.search(r"\b(?:need|have|got|remind|haven'?t|waiting|get back|follow up|must|should)\b", low):
        _open_loops(ex, s, src, run, fl)
    _procedure(ex, s, src, run, fl)


def _profile(ex: _Emit, s: str, src: _Src, run: _Run, fl: _Flags) -> None:
    m = P.R_NAME.search(s) or P.R_IM_NAME.match(s)
    if m and m.group("v").split()[0].lower() not in P.NOT_NAMES and m.group("v").split()[-1].lower() not in P.OCCUPATIONS:
        v = m.group("v")
        ex._emit(run, src, fl, K.PROFILE, "profile.name", v, f"User's name is {v}.", conf=0.9, importance=0.8,
                 keywords=f"name called {m.group(0)}")
    m = P.R_CALL_ME.search(s)
    if m and m.group("v").split()[0].lower() not in P.NOT_NAMES:
        v = m.group("v")
        ex._emit(run, src, fl, K.PROFILE, "profile.preferred_name", v, f"User prefers to be called {v}.", conf=0.9,
                 importance=0.8, keywords="name nickname call me")
    m = P.R_AGE.search(s)
    if m and 0 < int(m.group("v")) <= 120:
        ex._emit(run, src, fl, K.PROFILE, "profile.age", m.group("v"), f"User is {m.group('v')} years old.",
                 importance=0.5, keywords="age years old")
    occupation = None
    m = P.R_RETIRED.match(s)
    if m:
        occupation = m.group("v").lower()
        ex._emit(run, src, fl, K.PROFILE, "profile.occupation", occupation, f"User is {occupation}.", importance=0.7,
                 keywords="job occupation work")
    for m in P.R_OCCUPATION.finditer(s):
        v = re.sub(r"^(?:an?|the) ", "", m.group("v").strip(), flags=re.I).strip()
        words = v.lower().split()
        if occupation or not words or len(words) > 5 or words[-1] in P._NOT_OCCUPATION_TAIL:
            continue
        head = words[-1]
        if head in P.OCCUPATIONS or re.search(r"(?:ist|eer|ician|ologist|grapher)$", head):
            if words[0] in ("not", "no", "looking", "trying", "going", "calling", "also"):
                continue
            occupation = v
            ex._emit(run, src, fl, K.PROFILE, "profile.occupation", v, f"User works as {_article(v)} {v}.",
                     importance=0.7, keywords=f"job occupation profession work {head}")
    m = P.R_EMPLOYER.search(s) or P.R_AS_AT.search(s)
    if m and m.group("v").split()[0].lower() not in P.NOT_NAMES:
        v = m.group("v").rstrip(".")
        ex._emit(run, src, fl, K.PROFILE, "profile.employer", v, f"User works at {v}.", importance=0.7,
                 keywords="employer company job works at")
    m = P.R_HOME.search(s)
    if m and m.group("v").split()[0].lower() not in P.NOT_NAMES:
        v, moved = m.group("v").rstrip("."), "moved" in m.group("verb").lower() or "relocated" in m.group("verb").lower()
        text = f"User moved to {v}; their home city is now {v}." if moved else f"User's home city is {v}."
        ex._emit(run, src, fl, K.PROFILE, "profile.home_city", v, text, importance=0.75, correction=moved,
                 keywords="lives home city location based town")
    m = P.R_FROM.match(s)
    if m:
        ex._emit(run, src, fl, K.PROFILE, "profile.origin", m.group("v"), f"User is originally from {m.group('v')}.",
                 importance=0.6, keywords="from origin hometown country")
    m = P.R_NATIONALITY_IS.search(s) or P.R_NATIONALITY.search(s)
    if m and m.group("v").lower() in P.NATIONALITIES:
        v = m.group("v").capitalize()
        ex._emit(run, src, fl, K.PROFILE, "profile.nationality", v, f"User is {v}.", importance=0.6,
                 keywords="nationality citizen country")
    m = P.R_LANG.search(s)
    if m:
        native = m.group("native") or ("native" in m.group(0).lower() or "mother" in m.group(0).lower())
        items = [w for w in re.split(r",? and |, ", m.group("v") or (m.group("native") or "")) if w.lower() in P.LANGUAGES]
        if items:
            v = ", ".join(w.capitalize() for w in items)
            if native:
                ex._emit(run, src, fl, K.PROFILE, "profile.native_language", v, f"User's native language is {v}.",
                         importance=0.6, keywords="language native mother tongue speaks")
            else:
                ex._emit(run, src, fl, K.PROFILE, "profile.languages", v, f"User speaks {v}.", importance=0.6,
                         keywords="languages speaks fluent")
    for m in P.R_REL_NAME.finditer(s):
        rel, v = m.group("rel").lower(), m.group("v")
        if rel not in P.RELATIONS or v.split()[0].lower() in P.NOT_NAMES:
            continue
        key = f"relation.{rel}" if rel in P.UNIQUE_RELATIONS else f"relation.{rel}.{slug(v)}"
        ex._emit(run, src, fl, K.PROFILE, key, v, f"User's {rel} is {v}.", importance=0.65,
                 keywords=f"{rel} family relation {m.group(0)}")
    m = P.R_REL_AGE.search(s)
    if m and m.group("rel").lower() in P.RELATIONS:
        rel = m.group("rel").lower()
        ex._emit(run, src, fl, K.PROFILE, f"relation.{rel}.age", m.group("v"), f"User's {rel} is {m.group('v')} years old.",
                 importance=0.55, keywords=f"{rel} age years old family")
    m = P.R_EXPERT.search(s)
    if m:
        if m.group("v"):
            lvl, area = m.group("lvl").lower(), m.group("v")
            text = f"User is {_article(lvl)} {lvl} in {area}."
        elif m.group("v2"):
            lvl, area = f"{m.group('n')} years of experience", m.group("v2")
            text = f"User has {lvl} in {area}."
        else:
            phrase = m.group(0).lower()
            lvl = "new" if "new to" in phrase else ("proficient" if "proficient" in phrase else "experienced")
            area = m.group("v3")
            text = f"User is new to {area}." if lvl == "new" else f"User is {lvl} in {area}."
        if area.lower() not in P.LANGUAGES and content_words(area):
            ex._emit(run, src, fl, K.PROFILE, slot_key("profile", "expertise", area), lvl, text, importance=0.7,
                     keywords=f"expertise experience skill {area}")


def _pref_transferable(run: _Run, text: str) -> bool | None:
    return False if run.ctx.domain and _FOOD.search(text) else None


def _preferences(ex: _Emit, s: str, src: _Src, run: _Run, fl: _Flags) -> None:
    n0 = len(run.out)
    if P.COMM_TRIGGER.search(s):
        for attr, label, pattern in P.COMM_RULES:
            if pattern.search(s):
                ex._emit(run, src, fl, K.PREFERENCE, f"preference.communication.{attr}", label, f"User prefers {label}.",
                         importance=0.75, keywords=f"communication style answers responses {attr}")
    m = P.R_REPLY_LANG.search(s)
    if m and m.group("v").lower() in P.LANGUAGES:
        v = m.group("v")
        ex._emit(run, src, fl, K.PREFERENCE, "preference.communication.language", v, f"User prefers replies in {v}.",
                 importance=0.8, keywords="language reply respond")
    m = P.R_ALLERGY.search(s)
    if m:
        thing = (m.group("v") or m.group("v2") or m.group("v3") or m.group("v4")).strip()
        if m.group("v3"):
            ex._emit(run, src, fl, K.PREFERENCE, f"preference.diet.intolerance.{slug(thing)}", thing,
                     f"User is {thing} intolerant.", conf=0.9, importance=0.9, keywords="diet intolerance allergy food")
        elif m.group("v4"):
            ex._emit(run, src, fl, K.PREFERENCE, "preference.diet.allergy.gluten", thing,
                     f"User has {thing} disease and must avoid gluten.", conf=0.9, importance=0.95,
                     keywords="diet allergy gluten celiac coeliac food")
        else:
            ex._emit(run, src, fl, K.PREFERENCE, f"preference.diet.allergy.{slug(thing)}", thing, f"User is allergic to {thing}.",
                     conf=0.9, importance=0.95, keywords=f"allergy allergic diet food health {thing}")
    m = _DIET_NOT.search(s)
    if m and fl.negated_change:
        v = f"no longer {m.group('v').lower()}"
        ex._emit(run, src, fl, K.PREFERENCE, "preference.diet.type", v, f"User is {v}.", importance=0.8, correction=True,
                 keywords="diet food eats")
    elif (m := P.R_DIET.search(s)) and not re.search(r"\bnot\b", s, re.I):
        v = m.group("v").lower().replace(" ", "-")
        ex._emit(run, src, fl, K.PREFERENCE, "preference.diet.type", v, f"User follows a {v} diet.", importance=0.85,
                 keywords="diet food eats meals")
    m = P.R_DIET_AVOID.search(s)
    if m and content_words(m.group("v")):
        thing = m.group("v").strip()
        if fl.negated_change:
            v, text = f"no longer eats {thing}", f"User no longer eats {thing}."
        else:
            v, text = f"avoids {thing}", f"User doesn't eat {thing} (avoids {thing})."
        ex._emit(run, src, fl, K.PREFERENCE, f"preference.diet.avoid.{slug(thing)}", v, text, importance=0.8,
                 correction=fl.negated_change, keywords=f"diet food avoid {thing}")
    m = P.R_ACCESS.search(s)
    if m:
        group = next(g for g in ("mob", "hear", "vis", "read") if m.group(g))
        phrase = re.sub(r"^(?:i'?m|i am)\b", "is", m.group(group), flags=re.I)
        phrase = re.sub(r"^i (\w+)", lambda w: _conj(w.group(1)), phrase, flags=re.I)
        attr = {"mob": "mobility", "hear": "hearing", "vis": "vision", "read": "reading"}[group]
        ex._emit(run, src, fl, K.PREFERENCE, f"preference.accessibility.{attr}", phrase, f"User {phrase}.", conf=0.9,
                 importance=0.9, keywords=f"accessibility {attr} needs")
    m = P.R_WORKSTYLE.search(s)
    if m:
        v = _obj(m.group("v")) if m.group("v") else m.group("v2")
        if v:
            text = f"User works best {v}." if m.group("v") else f"User is {_article(v)} {v}."
            ex._emit(run, src, fl, K.PREFERENCE, "preference.work.best_time", v, text, importance=0.6,
                     keywords="work style productive schedule focus")
    comm_hit = len(run.out) > n0
    m = P.R_LIKE.search(s)
    if m:
        obj = _obj(_third(m.group("v")))
        verb = m.group("verb").lower().replace("cannot", "can't").replace("do not", "don't")
        if obj and not (verb == "like" and re.match(r"to (?:know|ask|see|get|book|make|order|open|change|cancel)\b", obj)):
            negative = verb in ("hate", "dislike", "detest", "loathe", "can't stand", "don't like", "don't enjoy",
                                "can't bear", "am not a fan of", "'m not a fan of")
            verb3 = {"am into": "is into", "'m into": "is into", "am a big fan of": "is a big fan of",
                     "'m a big fan of": "is a big fan of", "am not a fan of": "is not a fan of",
                     "'m not a fan of": "is not a fan of", "don't like": "doesn't like", "don't enjoy": "doesn't enjoy",
                     "can't stand": "can't stand", "can't bear": "can't bear"}.get(verb) or _conj(verb)
            if fl.negated_change:
                v = f"no longer likes {obj}" if negative else f"likes {obj}"
                text = f"User {v}." if negative else f"User now {v}."
            else:
                v = f"{'dislikes' if negative else 'likes'} {obj}"
                text = f"User {v}." if verb3 in ("likes", "dislikes") else f"User {verb3} {obj} ({v})."
            ex._emit(run, src, fl, K.PREFERENCE, slot_key("preference", "like", obj), v, text, importance=0.55,
                     transferable=_pref_transferable(run, obj), correction=fl.negated_change,
                     metadata={"object": obj, "polarity": "dislike" if negative else "like"},
                     keywords=f"{'dislikes hates avoid' if negative else 'likes loves enjoys favorite'} {obj}")
    m = P.R_PREFER.search(s)
    if m and not comm_hit:
        v, alt = _obj(_third(m.group("v"))), _obj(m.group("alt") or "") if m.group("alt") else None
        if v:
            seat, chan, part = _SEAT.search(v), _CHANNEL.search(v), _DAYPART.search(v)
            trans = _pref_transferable(run, v)
            if seat:
                key, val = "preference.seat", (seat.group("v") or seat.group("v2")).lower()
                trans = False if run.ctx.domain else None
            elif chan:
                key, val = "preference.communication.channel", chan.group("v").lower()
            elif part:
                key, val = "preference.schedule.time_of_day", part.group("v").lower()
            elif alt:
                key, val = slot_key("preference", "choice", "_vs_".join(sorted((slug(v), slug(alt))))), v
            else:
                key, val = slot_key("preference", "prefer", v), v
            text = f"User prefers {v} over {alt}." if alt else f"User prefers {v}."
            ex._emit(run, src, fl, K.PREFERENCE, key, val, text, importance=0.65, transferable=trans,
                     keywords=f"prefers preference {v} {alt or ''}".strip())
    if len(run.out) > n0:
        return
    m = P.R_PLEASE.match(s)
    if m:
        act = _obj(_third(m.group("v")), max_words=10)
        neg = m.group("neg").lower()
        specific = re.search(r"\b(?:the|this|that|these|those|it)\b", act or "") and not re.search(r"\b(?:ever|again|anymore)\b", s, re.I)
        if act and not specific:
            never = "never" in neg or "don" in neg or "not" in neg
            v = f"{'never' if never else 'always'} {act}"
            ex._emit(run, src, fl, K.PREFERENCE, slot_key("preference", "instruction", " ".join(content_words(act)[:5])),
                     v, f"User asks the assistant to {v}.", conf=0.8, importance=0.7, keywords=f"instruction rule {act}")
            return
    m = P.R_HABIT.search(s)
    if m and not re.match(r"(?:have to|need|wanted|thought|wonder|forget to ask|get confused)", m.group("v"), re.I):
        act = _obj(m.group("v"), max_words=10)
        if act:
            adv, act3 = m.group("adv").lower(), _conj(act)
            ex._emit(run, src, fl, K.PREFERENCE, slot_key("preference", "habit", " ".join(content_words(act)[:5])),
                     f"{adv} {act3}", f"User {adv} {act3}.", conf=0.75, importance=0.55,
                     transferable=_pref_transferable(run, act), keywords=f"habit routine {adv} {act}")


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
    if m:
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
        ex._emit(run, src, fl, K.FACT, slot_key("vehicle", ex._vehicle_slug(name, run)), full, f"User owns a {full}.",
                 importance=0.65, keywords=f"car vehicle owns drives {name}")
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
        obj = (m.group("v") or m.group("v2") or "").strip(" .")
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
