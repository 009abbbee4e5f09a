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
from typing import Any

from ..models import Candidate, MemoryKind, Message
from ..secrets import find_secrets
from ..taxonomy import content_words, family_of, normalize_key, slot_key, slug
from . import _patterns as P
from ._fact_rules import (
    _article,
    _bare_correction,
    _conj,
    _facts,
    _Flags,
    _obj,
    _open_loops,
    _procedure,
    _qa_answer,
    _Run,
    _Src,
    _third,
    expiry_rule,
)
from ._statements import known_names, statement_candidate
from .base import ExtractionContext

__all__ = ["PATTERN_NAMES", "RuleExtractor"]

PATTERN_NAMES: tuple[str, ...] = (
    "name", "preferred_name", "age", "occupation", "employer", "home_city", "origin", "nationality",
    "languages", "relation", "relation_age", "expertise", "like_dislike", "prefer", "habit",
    "please_always_never", "communication_style", "reply_language", "work_style", "diet", "diet_avoid",
    "allergy", "accessibility", "account", "routing_number", "card_last4", "identifier_number",
    "booking_code", "vehicle", "plate_vin", "money", "income", "appointment", "deadline", "birth_date",
    "email", "phone", "address", "open_loop", "close_loop", "procedure", "correction", "switched_to",
    "qa_answer", "assistant_confirmed", "new_job", "occupation_as", "occupation_at", "seat", "diet_meat",
    "diet_retire_likes", "expiry",
)

_SWAP = re.compile(r"\b(?:you're|you are|you've|you'll|you'd|yourself|yours|your|you|i'm|i am|i|me|my)\b", re.I)
_SWAP_MAP = {"you're": "I'm", "you are": "I am", "you've": "I've", "you'll": "I'll", "you'd": "I'd",
             "yourself": "myself", "yours": "mine", "your": "my", "you": "I", "i'm": "the assistant is",
             "i am": "the assistant is", "i": "the assistant", "me": "the assistant", "my": "the assistant's"}
_ASSIST_LEAD = re.compile(r"^(?:just to confirm|to confirm|let me confirm|so|got it|great|perfect|thank you|thanks|ok|okay|"
                          r"understood|alright|noted|i see)\b[,:.!]?\s*", re.I)
_ASSIST_TAIL = re.compile(r",?\s*(?:is that (?:right|correct)|correct|right|yes)\s*\??$", re.I)
_FOOD = re.compile(r"\b(?:food|cuisine|restaurants?|dish(?:es)?|sushi|pizza|pasta|thai|italian|indian|mexican|chinese|"
                   r"japanese|spicy|seats?|aisle|window|hotels?|rooms?|flights?|airlines?|wine|beer)\b", re.I)
_CHANNEL = re.compile(r"\b(?P<v>email|e-mail|phone|text|sms|call|whatsapp|slack|telegram)\b", re.I)
_DAYPART = re.compile(r"\b(?P<v>mornings?|afternoons?|evenings?|nights?|weekends?)\b", re.I)
_SEAT = re.compile(r"\b(?P<v>aisle|window|middle|exit[- ]row)\b.*\bseats?\b|\bseats? (?:by|at) the (?P<v2>aisle|window)\b", re.I)
_DIET_NOT = re.compile(r"\b(?:i'?m|i am) (?:not|no longer) (?:a |an )?(?P<v>vegetarian|vegan|pescatarian|keto|gluten-free)\b", re.I)
_MENTION = re.compile(r"\b(?:(?:19|20)\d{2} |the |my |our )(?P<veh>(?-i:[A-Z][a-z]+(?: [A-Z0-9][\w\-]*){0,2}))")




class RuleExtractor:
    """Regex and string rules over user turns (and user-confirmed assistant turns)."""

    name = "rules"

    def __init__(self, *, statements: bool = True) -> None:
        # statements: keep the user's own words for sentences no rule matched (the write path gives them a family)
        self.statements = statements

    def extract(self, messages: Sequence[Message], ctx: ExtractionContext) -> list[Candidate]:
        run = _Run(ctx=ctx)
        run.known = known_names(v for k, v in ctx.existing.items() if not k.startswith(("task.", "episode.")))
        for key in ctx.existing:
            if key.startswith("task."):
                run.tasks.setdefault(key, key[5:].replace("_", " "))
        msgs = list(messages)
        for i, msg in enumerate(msgs):
            if msg.role not in ("user", "assistant") or not msg.content:
                continue
            self._track_vehicles(msg.content, run)
            issuers = P.R_ISSUER.findall(msg.content)
            if issuers:
                run.issuer = P.CARD_ISSUERS[issuers[-1].lower()]
            ts = msg.timestamp or ctx.at
            if msg.role == "user":
                src = _Src([msg.id or ""], ts, secrets=_secret_values(msg.content))
                before = len(run.out)
                run.silent = []
                self._text(msg.content, src, run)
                silent = run.silent
                prev = msgs[i - 1] if i > 0 else None
                if len(run.out) == before and prev is not None and prev.role == "assistant":
                    self._qa(prev, msg, src, run)
                if self.statements:
                    self._statements(msg, prev if len(run.out) == before else None, silent, ts, run)
                nxt = next((m for m in msgs[i + 1 :] if m.role in ("user", "assistant")), None)
                said = _check_statement(msg.content) if len(run.out) == before else None
                if said and nxt is not None and nxt.role == "assistant" and P.CONFIRMATIONS.match(nxt.content):
                    # "So my appointment is on the 12th?" - "Yes, that's right.": the user stated it as a check
                    self._text(said, _Src([msg.id or "", nxt.id or ""], ts, secrets=src.secrets), run)
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

    def _statements(self, msg: Message, prev: Message | None, silent: list[tuple[str, bool]], ts: Any,
                    run: _Run) -> None:
        """The user's own words for what no rule matched: the whole reply when it answers the assistant's
        question, else each first-person sentence that produced nothing (see :mod:`._statements`).
        A turn of a named speaker (a transcript between people) is skipped: its "I" is that speaker, and
        "The user said" would give their words to the user."""
        if msg.name:
            return
        question = None
        if prev is not None and prev.role == "assistant" and prev.content.strip().endswith("?"):
            question = [q for q in P.SENTENCE_SPLIT.split(prev.content.strip()) if q.strip()][-1].strip()
        pieces = [(msg.content.strip(), False)] if question else silent
        ids = [prev.id or "", msg.id or ""] if question and prev is not None else [msg.id or ""]
        for piece, clause in pieces:
            c = statement_candidate(piece, question=question, message_ids=ids, timestamp=ts, domain=run.ctx.domain,
                                    correction=bool(P.CORRECTION_ANY.search(piece)),
                                    secret=bool(_secret_values(piece)), known=run.known, clause=clause)
            if c is not None and (c.key, c.value.lower()) not in run.index:
                run.index[(c.key, c.value.lower())] = c
                run.out.append(c)

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
        fam = family_of(key)
        if fam is not None:  # every key belongs to a registry family (tests/unit/test_key_families.py)
            meta["family"] = fam.name
        if run.clause:
            meta.setdefault("said", run.clause)  # the clause the rule read: what "same attribute" compares
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
            hedged = fl.hedged or bool(P.HEDGE_ANY.search(s))
            n_sentence = len(run.out)
            # each clause of "I'm 34 and I live in Amsterdam" / "..., I like ..." is considered on its own;
            # hedging and a leading correction cover the whole sentence, the rest is per clause
            for clause in P.CLAUSE_SPLIT.split(s):
                c = P.LEAD.sub("", clause.strip()).strip(" ,")
                if len(c) < 4:
                    continue
                cfl = _Flags(correction=fl.correction, hedged=hedged)
                cfl.negated_change = bool(P.NEGATED_CHANGE.search(c))
                cfl.correction = cfl.correction or (msg_correction and bool(P.CORRECTION_ANY.search(c)))
                n = len(run.out)
                run.clause = c
                _apply(self, c, src, run, cfl)
                if len(run.out) == n and (cfl.correction or P.R_NOT_TAIL.search(c)):
                    _bare_correction(self, c, src, run, cfl)
                if len(run.out) == n and len(run.out) > n_sentence and not assistant and not hedged:
                    run.silent.append((c, True))  # a clause the rules passed over in a sentence they read
            if len(run.out) == n_sentence and not assistant and not hedged:
                run.silent.append((raw.strip(), False))

    def _qa(self, question: Message, answer: Message, src: _Src, run: _Run) -> None:
        _qa_answer(self, question.content, answer.content, [question.id or "", answer.id or ""], src, run)


_CHECK_LEAD = re.compile(r"^(?:(?:and|so|then|ok|okay|just to (?:check|confirm|be sure)|to confirm)\b[,\s]*)+", re.I)


def _check_statement(content: str) -> str | None:
    """The statement inside a check question ("So my appointment is on the 12th?" -> "my appointment is on
    the 12th"); None for a real question ("Is my appointment on the 12th?") or no question at all."""
    text = content.strip()
    if not text.endswith("?"):
        return None
    last = [s for s in P.SENTENCE_SPLIT.split(text) if s.strip()][-1].strip()
    stmt = _CHECK_LEAD.sub("", last).rstrip("?").strip()
    if not stmt or P.QUESTION_START.match(stmt) or "?" in stmt:
        return None
    return stmt


def _swap_case(original: str, repl: str) -> str:
    return repl[0].upper() + repl[1:] if original[:1].isupper() and repl[:1].islower() else repl


def _secret_values(text: str) -> dict[str, str]:
    return {text[s.start : s.end]: s.kind for s in find_secrets(text)}


# ------------------------------------------------------------------ the rules
K = MemoryKind
_Emit = RuleExtractor


_HAS_I = re.compile(r"\b(?:i|i'm|i've|my|me|i'd)\b")
_LOOP_HINT = re.compile(r"\b(?:need|have|got|remind|haven'?t|waiting|get back|follow up|must|should)\b")


def _apply(ex: _Emit, s: str, src: _Src, run: _Run, fl: _Flags) -> None:
    low = s.lower()
    has_i = bool(_HAS_I.search(low)) or low.startswith(("please", "let's ", "lets ", "when", "whenever", "every", "each", "from now", "going forward", "keep", "be ", "no ", "you can ", "you could ", "use", "avoid", "explain", "reply", "respond", "answer", "always", "never", "don't", "do not", "the ", "our "))
    if not has_i:
        expiry_rule(ex, s, src, run, fl)
        return
    _profile(ex, s, src, run, fl)
    before = len(run.out)
    _preferences(ex, s, src, run, fl)
    _facts(ex, s, src, run, fl)
    if len(run.out) == before or _LOOP_HINT.search(low):
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
    occ_at = None
    for m in (*P.R_OCCUPATION.finditer(s), *P.R_AS_OCC.finditer(s)):
        # "I'm now a product manager": the adverb is no part of the job
        v = re.sub(r"^(?:(?:now|also|still|currently|just|actually|finally)\s+)+", "", m.group("v").strip(), flags=re.I)
        v = re.sub(r"^(?:an?|the) ", "", v, flags=re.I).strip()
        words = v.lower().split()
        if occupation or not words or len(words) > 5 or words[-1] in P._NOT_OCCUPATION_TAIL:
            continue
        head = words[-1]
        if head in P.OCCUPATIONS or re.search(r"(?:ist|eer|ician|ologist|grapher)$", head) or P.R_HEAD_OF.match(v):
            if words[0] in ("not", "no", "looking", "trying", "going", "calling", "also"):
                continue
            occupation = v
            occ_at = P.R_OCC_AT.match(s, m.end())  # "I'm a software engineer at Spotify"
            ex._emit(run, src, fl, K.PROFILE, "profile.occupation", v, f"User works as {_article(v)} {v}.",
                     importance=0.7, keywords=f"job occupation profession work {head}")
    m = P.R_EMPLOYER.search(s) or P.R_AS_AT.search(s) or occ_at
    if m and (m.group("v").split()[0].lower() not in P.NOT_NAMES or P.ORG_LOWER_RE.fullmatch(m.group("v"))):
        v = m.group("v").rstrip(".")
        ex._emit(run, src, fl, K.PROFILE, "profile.employer", v, f"User works at {v}.", importance=0.7,
                 keywords="employer company job works at")
    m = P.R_HOME.search(s)
    if m and m.group("v").split()[0].lower() not in P.NOT_PLACES and m.group("v") != "The":
        v, moved = m.group("v").rstrip("."), "moved" in m.group("verb").lower() or "relocated" in m.group("verb").lower()
        moved = moved or bool(P.R_NOT_OLD.match(s[m.end():]))  # "I live in Porto, not Lisbon"
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
        rel, v = m.group("rel").lower(), re.sub(r"['’]s$", "", m.group("v"))  # "my daughter Sara's birthday"
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
    m = P.R_SEAT_PREF.search(s)
    if m and not re.search(r"\b(?:not|never|don'?t|hate|avoid)\b", s[: m.end()], re.I):
        v = m.group("seat").lower().replace("-", " ")
        ex._emit(run, src, fl, K.PREFERENCE, "preference.seat", v, f"User prefers {_article(v)} {v} seat.",
                 importance=0.65, transferable=False, keywords=f"seat {v} flight travel prefers")
        return
    if _diet_meat(ex, s, src, run, fl):
        return
    m = _DIET_NOT.search(s)
    if m and fl.negated_change:
        v = f"no longer {m.group('v').lower()}"
        ex._emit(run, src, fl, K.PREFERENCE, "preference.diet.type", v, f"User is {v}.", importance=0.8, correction=True,
                 keywords="diet food eats")
    elif (m := P.R_DIET.search(s)) and not re.search(r"\bnot\b", s, re.I):
        v = m.group("v").lower().replace(" ", "-")
        ex._emit(run, src, fl, K.PREFERENCE, "preference.diet.type", v, f"User follows a {v} diet.", importance=0.85,
                 keywords="diet food eats meals")
        if v in ("vegetarian", "vegan", "pescatarian", "pescetarian", "plant-based"):
            _retire_food_likes(ex, src, run, fl, fish=v != "pescatarian" and v != "pescetarian")
    m = P.diet_avoid(s)
    if m and content_words(m.group("v")):
        thing = m.group("v").strip()
        eats = "drinks" if re.search(r"\bdrink", s, re.I) else "eats"  # "I don't drink alcohol anymore"
        if fl.negated_change:
            v, text = f"no longer {eats} {thing}", f"User no longer {eats} {thing}."
        else:
            v, text = f"avoids {thing}", f"User doesn't {eats[:-1]} {thing} (avoids {thing})."
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
    if m and not re.match(r"(?:have to|need|wanted|thought|wonder|forget to ask|get confused)", m.group("v"), re.I) \
            and not P.past_tense(m.group("v").split()[0]):
        act = _obj(m.group("v"), max_words=10)
        if act:
            adv, act3 = m.group("adv").lower(), _conj(act)
            ex._emit(run, src, fl, K.PREFERENCE, slot_key("preference", "habit", " ".join(content_words(act)[:5])),
                     f"{adv} {act3}", f"User {adv} {act3}.", conf=0.75, importance=0.55,
                     transferable=_pref_transferable(run, act), keywords=f"habit routine {adv} {act}")


def _diet_meat(ex: _Emit, s: str, src: _Src, run: _Run, fl: _Flags) -> bool:
    """Meat on or off the menu lands on the one diet slot, ``preference.diet.type``.

    "I don't eat meat (anymore)" / "I stopped eating meat" -> ``no meat``; "I eat meat again" -> ``eats meat``;
    so each supersedes the other (and "vegetarian"). Turning away from meat also retires active
    ``preference.like.*`` slots whose object is a meat dish (see :func:`_retire_food_likes`).
    """
    m = P.diet_avoid(s)
    off = (m is not None and m.group("v").strip().lower() in ("meat", "any meat")) or bool(P.R_MEAT_OFF.search(s))
    if off:
        change = fl.negated_change or bool(P.R_MEAT_OFF.search(s))
        text = "User no longer eats meat." if change else "User doesn't eat meat."
        ex._emit(run, src, fl, K.PREFERENCE, "preference.diet.type", "no meat", text.replace("meat.", "meat (no meat)."),
                 importance=0.85, correction=change, keywords="diet food meat vegetarian avoid eats")
        _retire_food_likes(ex, src, run, fl, fish=False)
        return True
    if P.R_MEAT_AGAIN.search(s):
        ex._emit(run, src, fl, K.PREFERENCE, "preference.diet.type", "eats meat", "User eats meat again (eats meat).",
                 importance=0.8, correction=True, keywords="diet food meat eats again")
        return True
    return False


def _retire_food_likes(ex: _Emit, src: _Src, run: _Run, fl: _Flags, *, fish: bool) -> None:
    """A new meatless diet outdates earlier likes of meat (and, for vegetarians, fish) dishes: emit a
    superseding value for each such active ``preference.like.*`` slot that names neither the dish nor "likes"."""
    words = P.MEAT_WORDS | (P.FISH_WORDS if fish else frozenset())
    for key, val in run.ctx.existing.items():
        if not key.startswith("preference.like.") or not val.lower().startswith("likes "):
            continue
        if words.isdisjoint(re.findall(r"[a-z]+", val.lower())):
            continue
        what = "meat or fish" if fish else "meat"
        ex._emit(run, src, fl, K.PREFERENCE, key, f"no longer eats {what}",
                 f"User no longer eats {what}, so an earlier taste for it no longer applies.", importance=0.5,
                 correction=True, keywords=f"diet food {what} no longer")
