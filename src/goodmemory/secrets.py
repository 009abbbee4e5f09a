"""Secret detection and redaction (pure, no I/O).

This module owns the answer to "is this text a credential or a government or
card identifier that must never be stored verbatim?". It detects passwords and
PINs, API keys and bearer tokens, full card numbers (Luhn-checked) and CVV
codes, US social security numbers, passport and national id numbers.

It deliberately does *not* flag ordinary account, order, confirmation, claim,
policy, tracking or phone numbers, nor licence plates: those are the facts a
memory exists to keep.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

__all__ = ["SECRET_KINDS", "SecretSpan", "find_secrets", "luhn_ok", "redact"]

SECRET_KINDS: tuple[str, ...] = (
    "password",
    "pin",
    "api_key",
    "token",
    "private_key",
    "card_number",
    "cvv",
    "ssn",
    "passport",
    "national_id",
)


@dataclass(frozen=True, slots=True)
class SecretSpan:
    """One secret in a text: ``text[start:end]`` is the secret value itself."""

    kind: str
    start: int
    end: int


# Words that follow "my password is" without being the password.
_NOT_A_PASSWORD = frozenset(
    ["not", "too", "wrong", "expired", "incorrect", "invalid", "the", "a", "an", "my", "same", "different", "correct", "right", "working", "reset", "locked", "changed", "weak", "strong", "long", "short", "required", "case", "still", "now", "also", "very", "really", "being", "set", "saved", "stored", "empty", "blank", "forgotten", "lost", "compromised", "fine", "ok", "okay", "in", "on", "at", "for", "what", "that", "this", "it", "so", "just", "probably", "definitely", "stuck", "broken", "something", "there", "here", "gone", "old", "new"]
)

_VALUE = r"[\"'`]?(?P<s>[^\s\"'`]{3,128}?)[\"'`]?(?=[\s,;)]|[.!?](?:\s|$)|$)"
_IS = r"\s*(?:is|was|=|:|-)\s*"

_PASSWORD = re.compile(
    r"\b(?:password|passwd|passcode|pass\s?phrase|pwd|pw)(?:\s+(?:for|to|on)\s+[\w.@-]+)?" + _IS + _VALUE,
    re.IGNORECASE,
)
_PIN = re.compile(r"\b(?:pin(?:\s+(?:code|number))?)" + _IS + r"(?P<s>\d{4,8})\b", re.IGNORECASE)

_KEY_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("api_key", re.compile(r"\bsk-(?:proj-|live-|test-|ant-[a-z0-9]+-)?[A-Za-z0-9_\-]{16,}")),
    ("api_key", re.compile(r"\b(?:sk|pk|rk)_(?:live|test)_[0-9A-Za-z]{16,}")),
    ("token", re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}")),
    ("token", re.compile(r"\bgithub_pat_[A-Za-z0-9_]{20,}")),
    ("api_key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    ("api_key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}")),
    ("token", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    (
        "private_key",
        re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)", re.DOTALL),
    ),
)
_API_KEY_PHRASE = re.compile(r"\bapi[ _-]?key" + _IS + _VALUE, re.IGNORECASE)
_BEARER = re.compile(r"\bbearer\s+(?P<s>[A-Za-z0-9\-._~+/]{12,}=*)", re.IGNORECASE)
_KEYWORD_TOKEN = re.compile(
    r"\b(?:access\s+|auth\s+|api\s+|client\s+|secret\s+|private\s+)?(?:key|token|secret)"
    + _IS
    + r"[\"'`]?(?P<s>[A-Za-z0-9+/_\-.=]{16,})",
    re.IGNORECASE,
)

_CARD = re.compile(r"(?<![\d-])(?:\d[ -]?){12,18}\d(?![\d-])")
_CARD_VETO = re.compile(
    r"\b(?:account|acct|order|tracking|confirmation|claim|policy|reference|ref|invoice|member(?:ship)?|"
    r"routing|booking|ticket|case|phone|serial|imei|iban|vin|loyalty|customer)\b[^.\d]{0,25}$",
    re.IGNORECASE,
)
_CARD_HINT = re.compile(r"\b(?:card|visa|mastercard|amex|discover|credit|debit|cc)\b", re.IGNORECASE)
_CVV = re.compile(
    r"\b(?:cvv2?|cvc2?|cid|csc|security\s+code)(?:\s+(?:number|code))?" + r"(?:" + _IS + r"|\s+)" + r"(?P<s>\d{3,4})\b",
    re.IGNORECASE,
)

_SSN_BARE = re.compile(r"(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])")
_SSN_PHRASE = re.compile(
    r"\b(?:social\s+security(?:\s+(?:number|no\.?|#))?|ssn)" + r"(?:" + _IS + r"|\s+)" + r"(?:number\s+)?(?P<s>\d{3}[- ]?\d{2}[- ]?\d{4})\b",
    re.IGNORECASE,
)
_PASSPORT = re.compile(
    r"\bpassport(?:\s+(?:number|no\.?|#|id))?" + r"(?:" + _IS + r"|\s+)" + r"(?P<s>[A-Z0-9]{6,12})\b", re.IGNORECASE
)
_NATIONAL_ID = re.compile(
    r"\b(?:national\s+(?:id|identity|insurance)(?:\s+card)?|identity\s+card|id\s+card)"
    r"(?:\s+(?:number|no\.?|#))?" + r"(?:" + _IS + r"|\s+)" + r"(?P<s>[A-Z0-9][A-Z0-9-]{3,18}(?:[ ]\d{2,6}){0,4})\b",
    re.IGNORECASE,
)


def luhn_ok(digits: str) -> bool:
    """The Luhn checksum used by payment cards."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def _entropy(s: str) -> float:
    counts = Counter(s)
    n = len(s)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _looks_random(s: str) -> bool:
    has_digit = any(c.isdigit() for c in s)
    has_alpha = any(c.isalpha() for c in s)
    return has_digit and has_alpha and _entropy(s) >= 3.0


def _password_ok(value: str) -> bool:
    v = value.rstrip(".,;:!?")
    if len(v) < 4:
        return False
    return not (v.isalpha() and v.lower() in _NOT_A_PASSWORD)


def _group(m: re.Match[str]) -> tuple[int, int]:
    return m.start("s"), m.end("s")


def find_secrets(text: str) -> list[SecretSpan]:
    """Every secret in ``text``, sorted by position, overlaps resolved (longest wins)."""
    if not text:
        return []
    found: list[SecretSpan] = []
    lower = text.lower()

    if "pass" in lower or "pwd" in lower or "pw" in lower:
        for m in _PASSWORD.finditer(text):
            if _password_ok(m.group("s")):
                s, e = _group(m)
                while e > s and text[e - 1] in ".,;:!?":
                    e -= 1
                found.append(SecretSpan("password", s, e))
    if "pin" in lower:
        found.extend(SecretSpan("pin", *_group(m)) for m in _PIN.finditer(text))

    for kind, pattern in _KEY_PATTERNS:
        found.extend(SecretSpan(kind, m.start(), m.end()) for m in pattern.finditer(text))
    if "key" in lower:
        for m in _API_KEY_PHRASE.finditer(text):
            if len(m.group("s")) >= 8 and any(c.isdigit() for c in m.group("s")):
                found.append(SecretSpan("api_key", *_group(m)))
    if "bearer" in lower:
        found.extend(SecretSpan("token", *_group(m)) for m in _BEARER.finditer(text))
    if "key" in lower or "token" in lower or "secret" in lower:
        for m in _KEYWORD_TOKEN.finditer(text):
            if _looks_random(m.group("s")):
                found.append(SecretSpan("token", *_group(m)))

    for m in _CARD.finditer(text):
        digits = re.sub(r"\D", "", m.group())
        if not (13 <= len(digits) <= 19) or digits[0] not in "23456" or not luhn_ok(digits):
            continue
        before = text[max(0, m.start() - 40) : m.start()]
        if _CARD_VETO.search(before) and not _CARD_HINT.search(before):
            continue
        found.append(SecretSpan("card_number", m.start(), m.end()))
    if any(w in lower for w in ("cvv", "cvc", "cid", "csc", "security code")):
        found.extend(SecretSpan("cvv", *_group(m)) for m in _CVV.finditer(text))

    found.extend(SecretSpan("ssn", m.start(), m.end()) for m in _SSN_BARE.finditer(text))
    if "social" in lower or "ssn" in lower:
        found.extend(SecretSpan("ssn", *_group(m)) for m in _SSN_PHRASE.finditer(text))
    if "passport" in lower:
        for m in _PASSPORT.finditer(text):
            if any(c.isdigit() for c in m.group("s")):
                found.append(SecretSpan("passport", *_group(m)))
    if "national" in lower or "id card" in lower or "identity" in lower:
        for m in _NATIONAL_ID.finditer(text):
            if sum(c.isdigit() for c in m.group("s")) >= 4:
                found.append(SecretSpan("national_id", *_group(m)))
    return _resolve(found)


def _resolve(spans: list[SecretSpan]) -> list[SecretSpan]:
    spans = [s for s in spans if s.end > s.start]
    spans.sort(key=lambda s: (s.start, -(s.end - s.start)))
    out: list[SecretSpan] = []
    for span in spans:
        if out and span.start < out[-1].end:
            last = out[-1]
            if span.end - span.start > last.end - last.start:
                out[-1] = span
            continue
        out.append(span)
    return out


def redact(text: str) -> tuple[str, list[str]]:
    """Replace each secret with ``[REDACTED:<kind>]``; return the text and the kinds found.

    Every other occurrence of a detected secret value is redacted too, so the
    output never contains a detected secret verbatim.
    """
    spans = find_secrets(text)
    if not spans:
        return text, []
    values: dict[str, str] = {}
    parts: list[str] = []
    pos = 0
    for span in spans:
        parts.append(text[pos : span.start])
        parts.append(f"[REDACTED:{span.kind}]")
        values.setdefault(text[span.start : span.end], span.kind)
        pos = span.end
    parts.append(text[pos:])
    out = "".join(parts)
    for value, kind in sorted(values.items(), key=lambda kv: -len(kv[0])):
        for _ in range(64):
            if value not in out:
                break
            out = out.replace(value, f"[REDACTED:{kind}]")
    kinds = list(dict.fromkeys(span.kind for span in spans))
    return out, kinds
