"""The offline, deterministic rule extractor.

This module owns turning first-person statements into :class:`Candidate`
memories without a model: it splits turns into sentences and clauses, strips
lead-ins, marks hedges and corrections, and runs the rule records of
:mod:`._rule_profile`, :mod:`._rule_prefs`, :mod:`._fact_rules` and
:mod:`._rule_tasks` through the engine (:mod:`._engine`). It is conservative by
design (questions, hypotheticals and reported speech yield nothing); the
vocabulary lives in :mod:`._patterns`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..merge import _CHANGE as _CHANGE_WORD
from ..merge import changes
from ..models import Candidate, MemoryKind, Message
from ..secrets import find_secrets
from ..taxonomy import content_words
from . import _patterns as P
from ._accept import accept_candidate
from ._engine import Clause, Flags, Rule, Run, Src, run_group
from ._fact_rules import EXPIRY_RULE, FACT_RULES
from ._retract import retracted
from ._rule_account import ACCOUNT_RULE, PLAN_RULE, read_out
from ._rule_birth import BIRTH_RULE, DATING_RULE, FIRST_DAYS_RULE, LIVED_RULE
from ._rule_done import DONE_ANSWER_RULE, NO_NEED_RULE, done_answer
from ._rule_mine import COMMUTE_TOLD_RULE, MY_PROVIDER_RULE, MY_VEHICLE_RULE
from ._rule_pets import _ANIMALS, named_after
from ._rule_prefs import PREFERENCE_RULES
from ._rule_profile import PROFILE_RULES
from ._rule_school import SCHOOL_RULE
from ._rule_self_doc import SELF_DOC_RULES
from ._rule_tasks import (
    CORRECTION_RULE,
    LOOP_RULES,
    OPTION_RULE,
    PROCEDURE_RULE,
    QA_RULE,
    REVERSE_RULE,
    answer,
    emergency_answer,
    option_answer,
)
from ._rule_taste import TASTE_RULES
from ._sentence_patterns import DENIALS, FAMILY_RELATIONS, HEDGE_TAIL, org_pointed_back, written
from ._statements import MAX_STATEMENT_WORDS, known_names, masks_a_value, statement_candidate, unread_sums
from .base import ExtractionContext

__all__ = ["PATTERN_NAMES", "RULES", "RuleExtractor"]

# every rule record, in the order the engine runs them
RULES: tuple[Rule, ...] = (*PROFILE_RULES, BIRTH_RULE, DATING_RULE, FIRST_DAYS_RULE, LIVED_RULE, *SELF_DOC_RULES, PLAN_RULE, *PREFERENCE_RULES, *FACT_RULES, MY_VEHICLE_RULE, COMMUTE_TOLD_RULE, MY_PROVIDER_RULE, NO_NEED_RULE, *LOOP_RULES,
                           PROCEDURE_RULE,
                           REVERSE_RULE, CORRECTION_RULE, QA_RULE, OPTION_RULE, DONE_ANSWER_RULE)
PATTERN_NAMES: tuple[str, ...] = tuple(dict.fromkeys(r.name for r in RULES))

_SWAP = re.compile(r"\b(?:you're|you are|you've|you'll|you'd|yourself|yours|your|you|i'm|i am|i|me|my)\b", re.I)
_SWAP_MAP = {"you're": "I'm", "you are": "I am", "you've": "I've", "you'll": "I'll", "you'd": "I'd",
             "yourself": "myself", "yours": "mine", "your": "my", "you": "I", "i'm": "the assistant is",
             "i am": "the assistant is", "i": "the assistant", "me": "the assistant", "my": "the assistant's"}
_ASSIST_LEAD = re.compile(r"^(?:just to confirm|to confirm|let me confirm|so|got it|great|perfect|thank you|thanks|ok|okay|"
                          r"understood|alright|noted|i see)\b[,:.!]?\s*", re.I)
_ASSIST_TAIL = re.compile(r",?\s*(?:is that (?:right|correct)|correct|right|yes)\s*\??$", re.I)
_MENTION = re.compile(r"\b(?:(?:19|20)\d{2} |the |my |our )(?P<veh>(?-i:[A-Z][a-z]+(?: [A-Z0-9][\w\-]*){0,2}))")
# a number the speaker calls old is not the one in force ("your old policy number was ...")
_FORMER = re.compile(r"\b(?:old|previous|former|cancell?ed|expired|closed|replaced|no longer)\b", re.I)
_CHANGE_SAID = re.compile(r"\b(?:switched|changed|moved|replaced|transferred)\b.*\bto\b|\bnew (?:policy|account|number|provider|plan)\b",
                          re.I)
_HAS_I = re.compile(r"\b(?:i|i'm|i've|my|me|i'd|we|we're|we've|our)\b")
_LOOP_HINT = re.compile(r"\b(?:need|have|got|remind|haven'?t|waiting|get back|follow up|must|should|supposed|promised|told)\b")
_NO_I_STARTS = ("please", "let's ", "lets ", "when", "whenever", "every", "each", "from now", "going forward", "keep",
                "be ", "no ", "you can ", "you could ", "use", "avoid", "explain", "reply", "respond", "answer", "always",
                "never", "don't", "do not", "the ", "our ", "skip ", "drop ", "stop ", "no more ", "leave out ",
                "new ")  # "New policy number AR-903317": chat drops the "my"


_REQUEST = re.compile(r"^(?:(?:can|could|would|will) (?:you|we)\b|switch|show|give|quote|write|talk|change|swap)|"
                      r"\bplease\b|\bfrom now on\b|\bthanks\b")
_DIET_RULE = tuple(r for r in PREFERENCE_RULES if r.name == "diet")  # said without "I'm": "vegetarian now"
_ANSWER_RULES = tuple(r for r in PREFERENCE_RULES if r.name in ("communication_style", "answer_style", "reply_language", "units"))


# "my policy number is now X", "my address is currently X": a change adverb between the copula and the value
_NOW_VALUE = re.compile(r"\b(is|are|'s)\s+(?:now|currently|actually|these days)\s+(?=[\w@+(])", re.I)


class RuleExtractor:
    """Regex and string rules over user turns (and user-confirmed assistant turns)."""

    name = "rules"

    def __init__(self, *, statements: bool = True) -> None:
        # statements: keep the user's own words for sentences no rule matched (the write path gives them a family)
        self.statements = statements

    def extract(self, messages: Sequence[Message], ctx: ExtractionContext) -> list[Candidate]:
        run = Run(ctx=ctx)
        run.known = known_names(v for k, v in ctx.existing.items() if not k.startswith(("task.", "episode.")))
        run.people = known_names(v for k, v in ctx.existing.items() if k.startswith("relation.")
                                 and len(v.split()) <= 3 and not _PET.fullmatch(k.split(".")[1]))
        for key in ctx.existing:
            if key.startswith("task."):
                run.tasks.setdefault(key, key[5:].replace("_", " "))
        msgs = list(messages)
        for i, msg in enumerate(msgs):
            if msg.role not in ("user", "assistant") or not msg.content:
                continue
            if msg.role == "user" and (chat := org_pointed_back(named_after(written(msg.content)))) != msg.content:
                msg = msgs[i] = msg.model_copy(update={"content": chat})  # "im paying £38" is "I'm paying £38"
            self._track_vehicles(msg.content, run)
            issuers = P.R_ISSUER.findall(msg.content)
            if issuers:
                run.issuer = P.CARD_ISSUERS[issuers[-1].lower()]
            ts = msg.timestamp or ctx.at
            if msg.role == "user":
                src = Src([msg.id or ""], ts, secrets=_secret_values(msg.content))
                before = len(run.out)
                run.silent = []
                self._text(msg.content, src, run)
                silent = run.silent
                prev = msgs[i - 1] if i > 0 else None
                if prev is not None and prev.role == "assistant" and prev.content.strip().endswith("?"):
                    option_answer(Clause(msg.content, src, run, Flags(), rule=OPTION_RULE), prev.content, msg.content,
                                  [prev.id or "", msg.id or ""])
                    if not any(c.closes for c in run.out[before:]):
                        done_answer(Clause(msg.content, src, run, Flags(), rule=DONE_ANSWER_RULE), prev.content,
                                    msg.content, [prev.id or "", msg.id or ""])
                if len(run.out) > before and prev is not None and prev.role == "assistant":
                    # "Who should we call in an emergency?" "My partner X": a relation the rules read, and the answer
                    emergency_answer(Clause(msg.content, src, run, Flags(), rule=QA_RULE), prev.content, msg.content,
                                     [prev.id or "", msg.id or ""])
                if len(run.out) == before and prev is not None and prev.role == "assistant":
                    self._qa(prev, msg, src, run)
                    # "ok set it to 30%": the user's acceptance binds the value the assistant proposed
                    bound = accept_candidate(prev, msg, timestamp=ts, domain=ctx.domain) if len(run.out) == before \
                        else None
                    if bound is not None:
                        run.out.append(bound)
                if self.statements:
                    self._statements(msg, prev if len(run.out) == before else None, silent, ts, run,
                                     prior=prev.content if prev is not None and prev.role == "assistant" else None)
                # "forget the retirement plan": what the user takes back ends the memory that names it
                run.out[before:] = retracted(run.out[before:], msg, ctx.existing, timestamp=ts, domain=ctx.domain,
                                             earlier=run.out[:before])
                nxt = next((m for m in msgs[i + 1 :] if m.role in ("user", "assistant")), None)
                said = _check_statement(msg.content) if len(run.out) == before else None
                if said and nxt is not None and nxt.role == "assistant" and P.CONFIRMATIONS.match(nxt.content):
                    # "So my appointment is on the 12th?" - "Yes, that's right.": the user stated it as a check
                    self._text(said, Src([msg.id or "", nxt.id or ""], ts, secrets=src.secrets), run)
                continue
            nxt = next((m for m in msgs[i + 1 :] if m.role in ("user", "assistant")), None)
            # "I can see you're on the Superfast 80 plan with us": the account as the agent reads it out
            read_out(Clause(msg.content, Src([msg.id or ""], ts, role="assistant"), run, Flags(), rule=ACCOUNT_RULE),
                     msg.content, nxt.content if nxt is not None and nxt.role == "user" else None)
            if nxt is None or nxt.role != "user" or not P.CONFIRMATIONS.match(nxt.content):
                self._issued(msg, ts, run)
                continue
            src = Src([msg.id or "", nxt.id or ""], ts, role="assistant", confirmed=True,
                       secrets=_secret_values(msg.content))
            swapped = _SWAP.sub(lambda m: _swap_case(m.group(), _SWAP_MAP[m.group().lower()]), msg.content)
            self._text(swapped, src, run, assistant=True)
        for c in run.out:
            if c.closes and c.closes in run.opened:
                # "I need to ring X, ... actually I just did": opened and closed in one call, at one instant; the
                # close comes later in the conversation and replaces the open task as a correction would
                c.is_correction = True
        return run.out

    def _statements(self, msg: Message, prev: Message | None, silent: list[tuple[str, bool]], ts: Any,
                    run: Run, prior: str | None = None) -> None:
        """The user's own words for what no rule matched: the whole reply when it answers the assistant's
        question, else each first-person sentence that produced nothing (see :mod:`._statements`). A turn of a named
        speaker (a transcript between people) is skipped: "The user said" would give their words to the user."""
        if msg.name:
            return
        # the question may be followed by a remark ("Which bank are you with? Some apps have pots built in.")
        asked = [q.strip() for q in [q for q in P.SENTENCE_SPLIT.split((prior or "").strip()) if q.strip()][-2:]
                 if q.strip().endswith("?") and len(q.split()) >= 3]  # "Oh? Tell me!" asks nothing
        question = asked[-1] if asked and prev is not None else None
        whole = msg.content.strip()
        if update := _UPDATE_ASK.match(whole):  # "A: Anything to update?" "yeah can you swap my email to X"
            whole = update.group("rest")
        pieces = [(whole, False)] if question else silent
        ids = [prev.id or "", msg.id or ""] if question and prev is not None else [msg.id or ""]
        for piece, clause in pieces:
            c = statement_candidate(piece, question=question, message_ids=ids, timestamp=ts, domain=run.ctx.domain,
                                    correction=bool(P.CORRECTION_ANY.search(piece)),
                                    secret=bool(_secret_values(piece)), known=run.known, clause=clause,
                                    people=run.people)
            if c is not None and clause and piece in run.reasons:
                if not masks_a_value(piece) and not changes(piece):
                    # "Text me rather than calling, I'm often in meetings": the why, naming nothing to keep (an
                    # ending beside a new like, "I quit the choir, I'm into chess now", is no why and stays)
                    continue
                c.metadata["reason"] = True
            if c is not None and prior:
                c.metadata["prior"] = prior[:400]  # the assistant's turn just before: what "it" may point back at
                if asked and not question and piece in P.SENTENCE_SPLIT.split(whole)[0]:
                    c.keywords = asked[-1]  # the answer's first sentence, beside what the rules read of the rest
                if DENIALS.match(msg.content.strip()):  # "A: Are you still at X?" "nope, Y since March"
                    c.metadata["answers_no"] = True
            if c is not None and (c.key, c.value.lower()) not in run.index:
                run.index[(c.key, c.value.lower())] = c
                run.out.append(c)

    def _issued(self, msg: Message, ts: Any, run: Run) -> None:
        """Identifiers an assistant or agent issues ("your confirmation number is FS-447291") are facts
        of the user's world, not speculation: keep those (and only those) from unconfirmed turns."""
        # a question issues nothing: "So your flight is on the 14th?" asks the user to check a value ("No, the 15th")
        told = " ".join(s for s in P.SENTENCE_SPLIT.split(msg.content.strip()) if not s.strip().endswith("?"))
        if not any(ch.isdigit() for ch in told):
            return
        src = Src([msg.id or ""], ts, role="assistant", confirmed=False, secrets=_secret_values(told))
        swapped = _SWAP.sub(lambda m: _swap_case(m.group(), _SWAP_MAP[m.group().lower()]), told)
        scratch = Run(ctx=run.ctx, vehicles=list(run.vehicles))
        self._text(swapped, src, scratch, assistant=True)
        for c in scratch.out:
            if (c.kind == MemoryKind.FACT and any(ch.isdigit() for ch in c.value) and c.closes is None
                    and not c.metadata.get("secret_kinds") and not _FORMER.search(c.metadata.get("said", ""))):
                c.metadata["issued_by_assistant"] = True
                run.out.append(c)

    # ------------------------------------------------------------ plumbing
    def _track_vehicles(self, text: str, run: Run) -> None:
        for m in P.R_OWN_VEHICLE.finditer(text):
            run.vehicle_slug(m.group("veh"))
        for m in _MENTION.finditer(text):
            if m.group("veh").split()[0].lower() in P.CAR_MAKES:
                run.vehicle_slug(m.group("veh"))

    def _text(self, content: str, src: Src, run: Run, *, assistant: bool = False) -> None:
        msg_correction = bool(P.CORRECTION_ANY.search(content))
        previous, run.turn = "", content
        for raw in (piece for part in P.SENTENCE_SPLIT.split(content) for piece in P.LOWER_SENTENCE_SPLIT.split(part)):
            run.before, previous = previous, raw  # "the promotion came through 🎉 officially X": the emoji ends a sentence
            raw = P.SOFTENER.sub(r"\1 ", P.FORMER_TAIL.sub("", HEDGE_TAIL.sub("", raw.strip())))  # "I've kind of moved to X"
            s = run.sentence = raw
            if assistant:
                s = _ASSIST_LEAD.sub("", s)
                s = _ASSIST_TAIL.sub("", s).rstrip("?")
            else:
                ask = _STANDING_ASK.match(s)
                if ask:  # "Could you answer in German from now on?": a standing request, said as a question
                    s = run.sentence = raw = ask.group("rest")
                elif tail := _ASK_TAIL.search(s):  # "I'll be 40 in May, can you suggest a trip?": told, then asked
                    _presupposed(tail.group(0), src, run)
                    s = run.sentence = raw = s[: tail.start()]
                if update := _UPDATE_ASK.match(s):  # "can you swap my email to X": the user's new value
                    s = run.sentence = raw = update.group("rest")
            if len(s) < 4 or s.endswith("?") or len(s) > 400 or P.IRONY.match(s):
                if s.endswith("?") and not assistant and len(s) <= 400:
                    _presupposed(s, src, run)
                continue
            fl = Flags()
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
            # "my email is now X": the rules read the value past the adverb; the sentence (run.sentence) keeps it
            s = _NOW_VALUE.sub(r"\1 ", s.strip().rstrip(".!").strip())
            if s and P.QUESTION_START.match(s) and (news := _NEWS_AFTER_ASK.match(s)):
                _presupposed(s[: news.start("news")], src, run)
                s = raw = news.group("news")  # "can you help me prep for my 1:1 with X, she's my boss now": the news
            if not s or P.QUESTION_START.match(s) or P.HYPOTHETICAL.search(s):
                if s and not assistant and not P.HYPOTHETICAL.search(s):
                    _presupposed(s, src, run)
                continue
            heard = P.REPORTED.search(s)
            cut = s.rfind(", ", 0, heard.start() + 1) if heard else -1
            if heard and cut > 0 and _OWN_CLAUSE.match(s[:cut]) and not P.REPORTED.search(s[:cut]):
                # "I've moved to X, my sister says it's too cold": the user's own clause, then someone else's words
                s = s[:cut]
                raw = raw[: raw.find(s) + len(s)] if s in raw else s
            elif heard:
                if not assistant:
                    # someone else's words are no rule's fact, but may change what the user said before
                    # ("the surveyor says the limit is now 40, not 30"): the statement path keeps them only so
                    run.silent.append((raw.strip(), False))
                continue
            # a hedge hedges its clause ("I'm flexitarian, meat maybe once a week" is no hedged diet); the sentence
            # is hedged when its main clause is: up to the first comma after two words ("Ha, I guess ..." is)
            clauses = [p for c in P.CLAUSE_SPLIT.split(s) for p in _elided(c)]
            main = re.match(r"^(?:[^,;]*?[,;]\s*)*?[^,;]*?\w+\W+\w+[^,;]*", s)
            hedged = fl.hedged or bool(P.HEDGE_ANY.search(main.group(0) if main else s))
            n_sentence = len(run.out)
            passed: list[str] = []
            # each clause of "I'm 34 and I live in Amsterdam" / "..., I like ..." is considered on its own;
            # hedging and a leading correction cover the whole sentence, the rest is per clause
            for clause in clauses:
                c = P.LEAD.sub("", clause.strip()).strip(" ,")
                if len(c) < 4:
                    continue
                cfl = Flags(correction=fl.correction, hedged=hedged or bool(P.HEDGE_ANY.search(c)))
                cfl.negated_change = bool(P.NEGATED_CHANGE.search(c))
                cfl.correction = cfl.correction or (msg_correction and bool(P.CORRECTION_ANY.search(c)))
                n = len(run.out)
                run.clause = c
                _apply(Clause(c, src, run, cfl))
                if len(run.out) == n and (cfl.correction or P.R_NOT_TAIL.search(c)):
                    run_group((CORRECTION_RULE,), Clause(c, src, run, cfl))
                if len(run.out) == n and c.lower() not in run.used:
                    passed.append(c)
                elif _only_named(c, run.out[n:]):
                    # "my son Leo plays football for the Hanwell Tigers on Saturdays": the rules read who Leo is, and
                    # what the clause says of him is kept in the user's words too
                    passed.append(c)
            if len(run.out) > n_sentence and not assistant and not hedged:
                # a clause the rules passed over in a sentence they read, before or after the one they read
                # ("I quit the choir, I'm into chess now")
                run.silent.extend((c, True) for c in passed)
                if any(o.kind in (MemoryKind.PREFERENCE, MemoryKind.PROCEDURE) for o in run.out[n_sentence:]):
                    # "Use metric with me, I have no feel for miles": beside a preference, the why of it
                    run.reasons.update(passed)
            if len(run.out) > n_sentence and not assistant and not hedged and len(clauses) == 1:
                # a comma-part the rules did not read that tells a change ("..., turns out I like numbers far more") or
                # names a value of the user's ("Our broadband is with X, and it drops whenever ..."): the user's words
                read = {w for o in run.out[n_sentence:] for w in content_words(f"{o.value} {o.text}")}
                run.silent.extend((part, True) for part in re.split(r",\s+", s)[:4] if len(part.split()) >= 4
                                  and part != s and (_tells_change(part) or (_OWN_CLAUSE.match(part) and masks_a_value(part)))
                                  and not read & set(content_words(part)))
            if len(run.out) > n_sentence and not assistant and not hedged and unread_sums(s, run.out[n_sentence:]) \
                    and not _CHANGE_SAID.search(s):
                # an amount no rule read ("I'm a freelance translator in Lyon charging 40 EUR per hour": the occupation
                # only): the sentence in the user's words keeps it, so a new rate has something to replace
                run.silent.append((raw.strip(), False))
            # a child's new school is the whole of the change the sentence tells (the child's, not the user's)
            school = any(o.metadata.get("rule") == "child_school" for o in run.out[n_sentence:])
            if not assistant and not hedged and not school and (len(run.out) == n_sentence or _CHANGE_SAID.search(s)):
                # a change is also kept in the user's words, so it can retire what they said before in other words;
                # a run-on sentence too long to be one statement, clause by clause ("... and honestly we've been
                # living in Leeds for a month now and I still can't find the kettle, ...")
                if len(raw.split()) > MAX_STATEMENT_WORDS:
                    run.silent.extend((p.strip(), True) for p in _RUN_ON.split(raw) if len(p.split()) >= 4)
                else:
                    run.silent.append((raw.strip(), False))

    def _qa(self, question: Message, reply: Message, src: Src, run: Run) -> None:
        answer(Clause(reply.content, src, run, Flags(), rule=QA_RULE), question.content, reply.content,
               [question.id or "", reply.id or ""])


# "I'm based in Pune and use Airtel for my mobile": a second verb whose subject the sentence leaves out is a clause
# of its own, with its subject said ("I use Airtel for my mobile")
_SUBJECT_LEAD = re.compile(r"^(?P<who>i|we)(?:'m|'re|'ve| am| are| have)?\b", re.I)
_ELIDED = re.compile(r"\s+and\s+(?:also\s+|now\s+)?(?=(?:use|work|drive|take|ride|cycle|walk|bank|rent|own|teach|study|"
                     r"volunteer|play|attend|speak|commute|shop|get|go to|see|train|run|live|have)\b)|"
                     # "I'm a nurse in Dublin working night shifts": what the user is doing, after what they are
                     r"(?<=\w)\s+(?=(?:working|living|studying|training)\s+(?!(?:on|with|for|as|at|out|through)\b))",
                     re.I)


def _elided(clause: str) -> list[str]:
    """``clause`` split at each "and <verb>" whose subject it leaves out, each part after the first given its subject
    ("I live in Leeds and work at X" -> "I live in Leeds", "I work at X")."""
    lead = _SUBJECT_LEAD.match(clause.strip())
    if lead is None:
        return [clause]
    first, *rest = _ELIDED.split(clause)
    who = lead.group("who")
    be = {"i": "I'm", "we": "we're"}[who.lower()]
    # "and use X" takes the subject ("I use X"), "working nights" takes it with "am" ("I'm working nights")
    return [first, *(f"{be if r.split()[0].lower().endswith('ing') else who} {r}" for r in rest)] \
        if len(first.split()) > 2 else [clause]


# what a question or a request presupposes the user has: a person, a pet or a vehicle named as theirs
_PRESUPPOSED: tuple[Rule, ...] = tuple(r for r in RULES if r.name in ("relation", "pet", "my_vehicle", "commute_told",
                                                                     "my_provider"))


def _presupposed(s: str, src: Src, run: Run) -> None:
    """Run the rules of what ``s`` (a question or a request) presupposes ("... on my 2012 Mazda 3?")."""
    if P.HYPOTHETICAL.search(s) or P.IRONY.match(s):
        return
    s = run.clause = s.strip().rstrip("?!. ")  # "... for me and my wife Anna?": the name ends the sentence
    run_group(_PRESUPPOSED, Clause(s, src, run, Flags()))
    run.silent.extend((m.group("news"), True) for m in P.NOW_THAT.finditer(s))  # "... now that I've started at X?"


def _only_named(clause: str, out: list[Candidate]) -> bool:
    """Whether the rules read only who a relative is from ``clause`` (``out``), and it says more of them."""
    if not out or any(o.metadata.get("rule") != "relation" or o.key.split(".")[1] not in FAMILY_RELATIONS for o in out) \
            or changes(clause):
        return False  # a role ("my new manager is Tom since Priya left") is the successor rules' to read
    rest = clause
    for o in out:
        rest = rest.split(o.value, 1)[-1] if o.value in rest else rest
    return len(rest.split()) >= 4 and not rest.strip().endswith("?")


def _tells_change(part: str) -> bool:
    """Whether ``part`` tells a change by a word of change that is no name ("our Switch dev kit" tells none)."""
    return changes(part) and any(m.start() == 0 or not m.group(0)[:1].isupper() for m in _CHANGE_WORD.finditer(part))


# a request, then news after a comma ("can you help me plan lunches, Maisie's at X nursery now"); a run-on's clauses
_RUN_ON = re.compile(r",\s+|\s+(?:and|but|so|because|cos)\s+", re.I)
_NEWS_AFTER_ASK = re.compile(r"^(?:can|could|would|will) you [^,?]{3,}?,\s+(?:but |and |so |because |cos |as )?"
                             r"(?P<news>(?!(?:can|could|would|will|what|how|which|where|when|who|why|is|are|do|does|"
                             r"please|thanks|thank)\b)[^?]{12,})$", re.I)
_OWN_CLAUSE = re.compile(r"^(?:i|i'm|i've|i'd|we|we're|we've|my|our)\b", re.I)
# a switch asked for is a standing request too ("Can you switch to metric?"): what it switches to holds from then on
# after a lead word or a clause of its own: "actually could you call me Robert from now on?", "honestly the bullet points
# are getting annoying, can you just give me short paragraphs from now on?"
_STANDING_ASK = re.compile(r"^(?:[^?]*?,\s+(?=(?:(?:could|can|would|will) (?:you|we) (?:please |kindly |just )*(?:call me|"
                           r"give me|reply|respond|answer|write|use|keep|explain|talk|speak|address me|refer to me|stick to|"
                           r"switch|swap|go back|change)\b)))?(?:(?:actually|ok|okay|so|and|also|oh|honestly|hey|btw|but)\W+)*"
                           r"(?:could|can|would|will) (?:you|we) (?:please |kindly |just )*(?P<rest>(?=.*\b(?:from now on|"
                           r"going forward|in future|in the future|from today|always)\b|(?:switch|swap|go back|change "
                           r"(?:over )?to)\b)[^?]+?)(?:,? please)?\s*\?$", re.I)
_PET = re.compile(rf"(?:{_ANIMALS})s?")
# a request after the user's own clause: "X, can you suggest Y?", "X, any ideas?"
_ASK_TAIL = re.compile(r"(?<=\w),\s+(?:so\s+|and\s+|but\s+)?(?:(?:can|could|would|will) you|any\s+(?=\w)|"
                       r"what do you (?:think|suggest|recommend)|give me|suggest|recommend|tell me|"
                       r"(?:how|what|where|which) (?:do|should|can|would) (?:i|we)|"
                       # a wh-question of its own: ", what's a decent case for it?", ", which settings should I change?"
                       r"(?:what|how|which|where|when|who|why)(?:'?s)?\s+(?=\w)|"
                       # a question of its own after the news: ", is that even allowed?", ", do I need to tell them?"
                       r"(?:is|was|are|can|could|should|would|will|do|does|did)\s+(?=\w))\b[^?,]*\?+$|"
                       # a request to the end of the turn, question mark or not: ", can you help me plan X, she's fussy"
                       r"(?<=\w)(?:,\s+(?:so\s+|and\s+|but\s+)?|\s+so\s+)(?:can|could|would|will) you (?:please |just |kindly )*(?:help|suggest|"
                       r"recommend|give|tell|find|plan|write|draft|make|explain|check|sort|put together|come up)\b.*$|"
                       # news, an emoji, then the question: "Joined a choir on Mondays too 🎶 any tips for sight reading?"
                       r"(?<=[\U0001F300-\U0001FAFF\u2600-\u27BF])\s+(?=\w)[^?.!]*\?+$|"
                       # news, a dash, then the question it leads to: "I've also signed up for X — what should I bring?"
                       r"(?<=\w)[.!]?\s+[—–-]\s+(?:so\s+|and\s+|but\s+)?(?:what|how|which|where|when|who|why|should|"
                       r"is|are|do|does|can|could|would|will|any)\b[^?]*\?$", re.I)
# a change of the user's own value asked of the assistant: "yeah could you change my email to X, ...", "can you update
# my address to Y please" (the rest is read as the user's statement of it)
_UPDATE_ASK = re.compile(r"^(?:(?:yeah|yes|yep|ok|okay|so|and|also|oh|(?:hi|hey|hello)(?: again| there)?|actually|btw|right)\W+)*"
                         r"(?:(?:can|could|would|will) you (?:please |kindly |just )*|please )"
                         r"(?P<rest>(?:update|change|swap|switch|amend|correct|move) (?:my|our) (?:[\w\-]+ ){1,3}?to\s+\S.*?)"
                         r"(?:,? please)?\s*[?.!]*$", re.I)
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


def _apply(c: Clause) -> None:
    """The rule groups in order over one clause; a clause without "I" can still name an expiry date."""
    low = c.s.lower()
    run_group((SCHOOL_RULE,), c)  # "Ines changed schools, she's at X High now": a child's, said with or without "I"
    if c.src.role == "user":
        run_group((*SELF_DOC_RULES, PLAN_RULE), c)  # "Write me a signature: X (she/her)", "upgrade me to X 900"
    if not (_HAS_I.search(low) or low.startswith(_NO_I_STARTS)):
        if _REQUEST.search(low):
            # "Temperatures in Celsius please", "Can you switch to Greek?": a request of how to answer, said without
            # "I", is read by the rules of answers alone
            run_group(_ANSWER_RULES, c)
        run_group((EXPIRY_RULE,), c)
        run_group(TASTE_RULES, c)  # "Big fan of sea shanties", "Nothing beats a bacon roll": chat drops the "I"
        # "Baby Maya arrived!", "First week at Northwind done!!"
        run_group((*(r for r in PROFILE_RULES if r.name == "promoted"), BIRTH_RULE, DATING_RULE, FIRST_DAYS_RULE,
                   LIVED_RULE, *_DIET_RULE), c)  # "vegetarian now, eggs are back": the diet, said without "I'm"
        if c.run.tasks:  # "Renewed the permit this morning." closes a task without saying "I"
            run_group((NO_NEED_RULE, *LOOP_RULES[1:]), c)
        return
    run_group((*PROFILE_RULES, BIRTH_RULE, DATING_RULE, LIVED_RULE), c)
    before = len(c.run.out)
    run_group(PREFERENCE_RULES, c)
    run_group(FACT_RULES, c)
    if not any(o.key.startswith("vehicle.") for o in c.run.out[before:]):
        run_group((MY_VEHICLE_RULE,), c)  # "... in my own car, a 2016 Vauxhall Corsa"
    if len(c.run.out) == before or _LOOP_HINT.search(low):
        run_group((NO_NEED_RULE, *LOOP_RULES) if c.run.tasks else LOOP_RULES, c)
    run_group((PROCEDURE_RULE,), c)
    if len(c.run.out) == before:
        run_group((REVERSE_RULE,), c)
