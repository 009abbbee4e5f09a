"""Tasks closed without the user saying they did them: no longer needed ("No need to return the kettle any more"),
or done, said as a yes to the assistant's question of whether it was ("Did you get hold of the plumber?" "Yes, he
came on Tuesday")."""

from __future__ import annotations

import re

from ..models import MemoryKind
from ..taxonomy import word_overlap
from . import _patterns as P
from ._engine import Clause, Example, Flags, Rule, Src
from ._english import third
from ._rule_tasks import _NOT_DONE

__all__ = ["DONE_ANSWER_RULE", "NO_NEED_RULE", "done_answer"]

_UNTIL = r"(?:\s+(?:any ?more|any longer|after all|at all|now))?"
_END = r"(?:\W*$|\s*[,;:]|\s+(?:as|because|since|now that|so)\b)"  # the rest says why
R_NO_NEED = re.compile(
    r"^(?:(?:oh|ah|well|ok(?:ay)?|good news)[,!\s]+)?(?:there'?s |there is )?no (?:more )?need (?:for me |for us )?"
    rf"to (?P<v>[\w'\- ]{{2,60}}?){_UNTIL}{_END}"
    rf"|^(?:i|we) no longer (?:need|have) to (?P<v2>[\w'\- ]{{2,60}}?){_UNTIL}{_END}"
    rf"|^(?:i|we) (?:don'?t|do not) (?:need|have) to (?P<v3>[\w'\- ]{{2,60}}?)\s+(?:any ?more|any longer|after all){_END}",
    re.I)
# "Did you get hold of the plumber?", "Has the courier been?": a question of whether a thing happened
_DID_ASK = re.compile(r"^(?:so,?\s+|and\s+)?(?:did|have|has|had|were|was)\s+(?:you|we|they|he|she|it|the\s+\w+|your\s+\w+)"
                      r"\b(?!.*\b(?:still|want|like|mind|need me|prefer)\b)", re.I)
_YES_DONE = re.compile(r"^\W*(?:yes|yep|yeah|yup|done|all done|sorted|all sorted|finally|(?:i|we|he|she|they|it) did)\b",
                       re.I)
_LATER = re.compile(r"'ll\b|\b(?:tomorrow|later|next|soon|tonight|hopefully|almost|nearly|partly|half)\b", re.I)


def _best_task(c: Clause, said: str) -> tuple[str, str] | None:
    """The one open task ``said`` names most (at least half of its words past the verb; a tie is no reading)."""
    scored = sorted(((word_overlap(said, task.partition(" ")[2] or task), key, task) for key, task in c.run.tasks.items()),
                    reverse=True)
    if not scored or scored[0][0] < 0.5 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][1], scored[0][2]


def _close(c: Clause, said: str, named: str) -> bool:
    hit = _best_task(c, named)
    if hit is not None:
        key, task = hit
        c.emit(key, "closed", c.say(v=third(said.strip(" ."))), closes=key,
               metadata={"state": "closed", "task": task}, keywords=f"done finished closed no longer needed {task}")
    return hit is not None


def _no_need(c: Clause, m: re.Match[str] | None) -> bool:
    assert m
    return bool(c.run.tasks) and _close(c, c.s, next(g for g in m.groups() if g))


def done_answer(c: Clause, question: str, reply: str, ids: list[str]) -> None:
    """A yes to the assistant's question of whether a task happened closes the task the question names."""
    if not c.run.tasks:
        return
    last = ([q for q in P.SENTENCE_SPLIT.split(question.strip()) if q.strip()][-1:] or [question])[0].strip()
    if not _DID_ASK.search(last) or not _YES_DONE.match(reply) or _NOT_DONE.search(reply) or _LATER.search(reply):
        return
    qc = Clause(reply, Src(ids, c.src.ts, secrets=c.src.secrets), c.run, Flags(), rule=DONE_ANSWER_RULE)
    _close(qc, reply, last)


NO_NEED_RULE = Rule(
    "close_no_need", MemoryKind.OPEN_LOOP, ("task",), "User no longer needs to do it: {v}.", _no_need, pattern=R_NO_NEED,
    anchored=True, stop=True, confidence=0.75, importance=0.5, examples=(
        Example("No need to pick up the parcel any more, my neighbour got it.", "task.pick_parcel_depot", "closed",
                before=("I have to pick up the parcel from the depot.",)),
        Example("I no longer need to book a van.", "task.book_van_move", "closed",
                before=("I need to book a van for the move.",)),
        Example("No need to worry.", before=("I have to pick up the parcel from the depot.",)),
        Example("I don't need to see the menu.", before=("I have to see the dentist.",))))
DONE_ANSWER_RULE = Rule(
    "close_answered", MemoryKind.OPEN_LOOP, ("task",), "User reports the task is done: {v}.", lambda c, m: None,
    confidence=0.75, importance=0.5, examples=(
        Example("Yes, she got it this morning.", "task.post_signed_lease_landlord", "closed",
                before=("I have to post the signed lease to the landlord.", "A: Did the landlord get the lease?")),
        Example("Yes, but I'll pay him tomorrow.",
                before=("I need to pay the window cleaner.", "A: Has the window cleaner been?")),
        Example("Yes please.", before=("I need to pay the window cleaner.", "A: Do you still need to pay him?"))))
