"""A correction of a value the assistant's question repeated back.

"A: What would a 10-year-old like for a present?" / "He's 11 actually." names no attribute: the answer is about
whatever the question's "10" was. When the question repeats a number or a time of one of the user's memories and
the answer corrects it with exactly one other number or time of the same sort, the answer is that memory's new
value. Only numbers and times: a name the question repeats ("Is Oscar still into football?" / "No, Minecraft now")
is the subject as often as the value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .models import Candidate, MemoryRecord

__all__ = ["Echo", "correcting", "corrected", "echo_of", "echoed", "substituted", "value_tokens"]

_CORRECTING = re.compile(
    r"^\W*(?:no|nope|nah|wrong|not)\b|\b(?:actually|now|these days|any ?more|any longer|not|instead|rather)\b", re.I)
# a time (9:30, 9.30), a number with its ordinal suffix (2nd, 11); money and identifiers are longer runs of digits,
# with separators this leaves whole ("1,500" is no "1" and "500")
# (dates written 2025-03-03 or 3/3 and phone numbers are not read: their parts are no value of their own)
_TOKEN = re.compile(r"(?<![\w$£€])(?<!\d[.,:/-])(?:(\d{1,2}[:.]\d{2})|(\d{1,3})(st|nd|rd|th)?)(?![\w%]|[.,:/-]\d)", re.I)


@dataclass(frozen=True)
class Echo:
    old: str  # the value's token the question repeated
    new: str  # the answer's token that replaces it


# the word after a number that names what it counts, unless it is one of these ("11 actually", "350 now")
_NOT_UNITS = frozenset("""a an and or but now actually then these this that already instead since so too as at by
for from in of on to with last next this today yet still again though, really""".replace(",", "").split())
_UNIT = re.compile(r"[\s-]*([A-Za-z]+)")


def correcting(answer: str) -> bool:
    """The answer says the question had it wrong ("No, ...", "... actually", "... now", "not ..."), not that it
    declines what the question offered ("Not really, ...")."""
    return bool(_CORRECTING.search(re.sub(r"\bnot (?:really|quite yet|yet|now|today)\b", "", answer, flags=re.I)))


def _units(text: str, token: str) -> set[str]:
    """The words right after each ``token`` in ``text`` that name what it counts ("40 minutes" -> "minute")."""
    pattern = re.escape(token).replace(":", "[:.]")
    out = set()
    for m in re.finditer(rf"(?<![\w$£€])(?<!\d[.,:/-]){pattern}(?:st|nd|rd|th)?(?![\w%]|[.,:/-]\d)", text):
        u = _UNIT.match(text, m.end())
        if u and u.group(1).lower() not in _NOT_UNITS:
            out.add(u.group(1).lower().removesuffix("s"))
    return out


def value_tokens(text: str) -> dict[str, str]:
    """The numbers and times of ``text``, each with its sort: ``time``, ``ordinal`` or ``number``."""
    out: dict[str, str] = {}
    for m in _TOKEN.finditer(text):
        if m.group(1):
            out[m.group(1).replace(".", ":")] = "time"
        else:
            out[m.group(2)] = "ordinal" if m.group(3) else "number"
    return out


def echoed(question: str, answer: str, value: str) -> Echo | None:
    """The earlier ``value``'s token that ``question`` repeated and the one ``answer`` puts in its place, when the
    answer corrects it with exactly one new token of that sort (else None: nothing to read, or not one reading)."""
    if not correcting(answer):
        return None
    asked, had, said = value_tokens(question), value_tokens(value), value_tokens(answer)
    echoes = [(tok, sort) for tok, sort in had.items() if asked.get(tok) == sort]
    if len(echoes) != 1:
        return None
    old, sort = echoes[0]
    if old in said:  # "not 10, the 10 was last year": it repeats the old value, which is no correction of it
        return None
    new = [tok for tok, s in said.items() if s == sort and tok not in asked and tok not in had]
    if len(new) != 1:
        return None
    # "3 swims a week" / "yoga twice, 45 minutes each": a number of another thing corrects nothing
    counted, was = _units(answer, new[0]), _units(f"{question} {value}", old)
    return Echo(old, new[0]) if not counted or not was or counted & was else None


def substituted(text: str, old: str, new: str) -> str:
    """``text`` with the whole token ``old`` (a time written with ':' or '.') replaced by ``new``."""
    pattern = re.escape(old).replace(":", "[:.]")
    return re.sub(rf"(?<![\w$£€])(?<!\d[.,:/-]){pattern}(?![\w%]|[.,:/-]\d)", new, text)


def echo_of(c: Candidate, records: Iterable[MemoryRecord], family: Callable[[str], str | None]
            ) -> tuple[MemoryRecord, Echo] | None:
    """The newest of ``records`` whose number or time the question ``c`` answers repeated and the answer corrects
    (``family``: a record's key family, None for one no statement may change), with the echo."""
    if not c.keywords or c.metadata.get("reported"):
        return None
    for r in records:
        if family(r.key) is None:
            continue
        e = echoed(c.keywords, c.value, f"{r.value} {r.text}")
        if e is not None:
            return r, e
    return None


def corrected(c: Candidate, r: MemoryRecord, e: Echo, family: str) -> Candidate:
    """A rule-keyed memory ``r`` with the answer's value in place of the one the question repeated: same kind and
    key, the old text with the new value, a correction that replaces ``r``."""
    meta = {k: v for k, v in c.metadata.items() if k not in ("statement", "about", "subjectless", "other_subject")}
    meta.update(rule="echo", family=family, replaces=r.id,
                slot_reason=f"corrects the {e.old} the question repeated of {r.key}: {e.new}")
    return c.model_copy(update={
        "kind": r.kind, "key": r.key, "value": substituted(r.value, e.old, e.new) if e.old in value_tokens(r.value)
        else e.new, "text": substituted(r.text, e.old, e.new), "is_correction": True, "metadata": meta})
