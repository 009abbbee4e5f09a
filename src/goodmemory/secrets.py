"""Secret detection and redaction (pure, no I/O).

This module owns the answer to "is this text a credential or a government, bank or card
identifier that must never be stored verbatim?". It detects passwords, passphrases and PINs
(in English, Spanish, French, German, Portuguese, Italian and Dutch phrasings), API keys, tokens
and private keys, passwords inside connection URLs, full card numbers (Luhn-checked) and CVV
codes, IBANs (mod-97-checked), US social security numbers, UK National Insurance numbers, other
national ids and passport numbers named as such, and wallet seed phrases. A reply to a question
asking for a password or PIN is checked as that credential (:func:`redact_replies`).

Text is matched after NFKC normalisation with zero-width and bidi control characters removed, so
full-width digits (``４１１１``) and ``4111\\u200b1111...`` are the same card number; spans are
reported in the original text.

It deliberately does *not* flag ordinary account, order, confirmation, claim, policy, tracking or
phone numbers, prices, dates, nor licence plates: those are the facts a memory exists to keep.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["SECRET_KINDS", "SecretSpan", "find_secrets", "luhn_ok", "redact", "redact_replies"]

SECRET_KINDS: tuple[str, ...] = (
    "password", "pin", "api_key", "token", "private_key", "card_number", "cvv", "iban", "ssn", "passport",
    "national_id", "seed_phrase",
)


@dataclass(frozen=True, slots=True)
class SecretSpan:
    """One secret in a text: ``text[start:end]`` is the secret value itself."""

    kind: str
    start: int
    end: int


# -- normalisation ------------------------------------------------------------
_INVISIBLE = frozenset("\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                       "\u2066\u2067\u2068\u2069")


def _normalise(text: str) -> tuple[str, list[int]]:
    """NFKC per character, invisible characters dropped; ``pos[i]`` is the original index of char ``i``."""
    if text.isascii() or (unicodedata.is_normalized("NFKC", text) and not _INVISIBLE.intersection(text)):
        return text, list(range(len(text)))
    out: list[str] = []
    pos: list[int] = []
    for i, ch in enumerate(text):
        if ch in _INVISIBLE:
            continue
        n = unicodedata.normalize("NFKC", ch) if ord(ch) > 127 else ch
        out.append(n)
        pos.extend([i] * len(n))
    return "".join(out), pos


# -- vocabulary ---------------------------------------------------------------
# Words that follow "my password is" without being the password.
_NOT_A_PASSWORD = frozenset(
    ["not", "too", "wrong", "expired", "incorrect", "invalid", "the", "a", "an", "my", "same", "different", "correct", "right", "working", "reset", "locked", "changed", "weak", "strong", "long", "short", "required", "case", "still", "now", "also", "very", "really", "being", "set", "saved", "stored", "empty", "blank", "forgotten", "lost", "compromised", "fine", "ok", "okay", "in", "on", "at", "for", "what", "that", "this", "it", "so", "just", "probably", "definitely", "stuck", "broken", "something", "there", "here", "gone", "old", "new", "must", "should", "will", "can", "cannot", "doesn't", "isn't", "been", "hidden", "secret", "private", "unknown", "nicht", "falsch", "abgelaufen", "zu", "sehr", "incorrecta", "incorrecto", "demasiado", "muy", "caducada", "no", "pas", "trop", "expiré", "non", "troppo", "sbagliata", "errada", "niet", "fout", "te"])
# Words that make "password: <words>" a sentence about the password rather than the passphrase itself.
_SENTENCE_WORDS = frozenset(
    ["is", "are", "be", "been", "was", "were", "must", "should", "will", "can", "cannot", "not", "no", "never", "needs", "need", "required", "requires", "has", "have", "had", "expired", "changed", "reset", "the", "my", "your", "our", "you", "i", "we", "it", "this", "that", "same", "one", "please", "see", "ask", "below", "above", "here", "there", "sent", "forgotten", "lost", "unknown", "ist", "muss", "nicht", "es", "debe", "no", "est", "doit", "pas", "é", "deve", "non", "è"])
_STRONG_PW = (r"pass(?:word|wort|code|phrase)s?|pass\s+phrase|passwd|pwd|psswd|pswd|pword|p/w|[^\W\d_]*(?:kennwort|passwort|wachtwoord)|"
              r"contrase[nñ]a|senha|palavra[\s-]passe|mot\s+de\s+passe|parola\s+d['’]ordine|master\s+password|"
              r"(?:wi-?fi|wlan|network|router|hotspot)\s+(?:code|key)")
# weak words need a value that looks typed as a credential (a digit or a symbol): "clave" is also "key" (of a
# song), "mdp" the French short form
_WEAK_PW = r"pass|pw|mdp|clave|credentials?"
_PIN_WORDS = (r"pin(?:\s*(?:code|number|nummer|número|numero))?|pincode|geheimzahl|code\s+pin|c[oó]digo\s+pin|"
              r"codice\s+pin|code\s+confidentiel|c[oó]digo\s+secreto|codice\s+segreto|geheim(?:code|nummer)|"
              r"secret\s+code|"
              r"(?:alarm|door|keypad|unlock|access|gate|garage)\s+code|code\s+de\s+(?:(?:ma|la)\s+)?carte(?:\s+bleue|\s+bancaire)?|"
              r"clave\s+de\s+(?:mi|la)\s+tarjeta")
_CVV_WORDS = (r"cvv2?|cvc2?|cid|csc|security\s+code|c[oó]digo\s+de\s+seguridad|c[oó]digo\s+de\s+seguran[cç]a|"
              r"(?:karten)?pr[uü]f(?:nummer|ziffer)|sicherheitscode|cryptogramme(?:\s+visuel)?|"
              r"code\s+de\s+s[ée]curit[ée]|codice\s+di\s+sicurezza|(?:veiligheids|beveiligings)code")
# a short qualifier between the word and its value: "for the shared drive", "del wifi", "für das WLAN"
_QUAL = r"(?:\s+(?!is\b|es\b|est\b|ist\b|è\b|é\b|lautet\b|was\b)[\w'’.@-]+){0,6}?"
_COPULA = (r"\s*(?:(?:[:=—–]|-(?=\s)|\b(?:is\s+now|is\s+going\s+to\s+be|(?:will|would|shall)\s+be|is|was|are|es|"
           r"est|ist|lautet|é|è|era|war|sera|será|sarà|wird|wordt|sono|são|sind|zijn|son|sont|to|"
           r"now|jetzt|ahora|maintenant|désormais|agora|adesso|ora|nu|still|todav[ií]a|a[uú]n|encore|toujours|noch|"
           r"ainda|ancora|nog)\b|['’]s\b|"
           r",\s*(?:(?:it|that)(?:['’]s|\s+is)|c['’]est)\b)"
           r"\s*){1,2}")
_VALUE = r"[\"'`“‘]?(?P<s>[^\s\"'`”’]{3,128}?)[\"'`”’]?(?=[\s,;)]|[.!?](?:\s|$)|$)"

# a credential word starts a word or ends a hyphenated compound ("WLAN-Passwort"), weak words only the former
_LB = rf"(?<!\w)(?!(?<=-)(?:{_WEAK_PW})\b)"
_PASSWORD = re.compile(rf"{_LB}(?P<w>{_STRONG_PW}|{_WEAK_PW})(?P<q>{_QUAL}){_COPULA}{_VALUE}", re.I)
# "Username alice99, password kiwiFruit#7", "uses the password p4ssw0rd-Hulu": no copula, so the value must
# look typed as a credential
_PW_BARE = re.compile(rf"{_LB}(?:{_STRONG_PW})\s+{_VALUE}", re.I)
# "the password we agreed on for the shared account: X": a colon closes a longer qualifier
_PW_COLON = re.compile(rf"{_LB}(?:{_STRONG_PW})(?:\s+[^\s:;.!?]+){{1,10}}?\s*:\s*{_VALUE}", re.I)
_WEAK_BARE = re.compile(rf"(?<![\w-])(?:pw|mdp|clave|credentials?)\s+{_VALUE}", re.I)  # not "pass": a verb
# "the code to unlock my phone is 881542", "the code for the wifi network is ...": a code or key of a device
_DEVICES = r"(?:wi-?fi|wlan|network|router|hotspot|unlock|door|alarm|safe|gate|garage|keypad|lock|locker)"
_DEVICE = re.compile(rf"\b{_DEVICES}\b", re.I)
_DEVICE_CODE = re.compile(rf"(?<!\w)(?:code|passcode|key|clave|c[oó]digo|codice|schl[uü]ssel|sleutel)"
                          rf"(?P<q>{_QUAL}\s+{_DEVICES}\b{_QUAL}){_COPULA}{_VALUE}", re.I)
_PW_AS = re.compile(rf"\b(?:use[sd]?|using|set|chose|picked|uso|utilise|utilizo|benutze|nutze|uso|gebruik)\s+"
                    rf"[\"'`“‘]?(?P<s>[^\s\"'`”’]{{4,128}}?)[\"'`”’]?\s+(?:as|como|comme|als|come)\s+"
                    rf"(?:(?:the|my|our|a|an|mi|mon|ma|mein|mijn|il|la|o|a)\s+)?(?:{_STRONG_PW}|{_PIN_WORDS})\b", re.I)
_PW_PHRASE = re.compile(rf"{_LB}(?:{_STRONG_PW})(?:{_QUAL})\s*[:=—–]\s*(?P<s>[^\W\d_]+(?:[ ][^\W\d_]+){{1,5}})"
                        r"\s*(?=$|[.;,\n])", re.I)
_PW_QUOTED = re.compile(rf"{_LB}(?:{_STRONG_PW})(?:{_QUAL}){_COPULA}[\"'“‘](?P<s>[^\"'”’\n]{{4,80}})[\"'”’]", re.I)
_LOGIN_PAIR = re.compile(r"\b(?:login|log-in|sign[ -]?in|credentials?)\b[^\n]{0,40}?\S\s*/\s*(?P<s>[^\s/]{4,64})", re.I)
_URL_PASSWORD = re.compile(r"\b[a-z][a-z0-9+.\-]*://[^\s:/@]*:(?P<s>[^\s@/]{1,128})@", re.I)
_QUERY_PASSWORD = re.compile(r"[?&;](?:password|passwd|pwd|pass)=(?P<s>[^&;\s]{1,128})", re.I)
_ARTICLE = r"(?:(?:the|el|la|le|il|lo|o|a|der|die|das|de|het)\s+)?"
_PIN = re.compile(rf"(?<!\w)(?:{_PIN_WORDS})(?:{_QUAL}{_COPULA}|\s+){_ARTICLE}(?P<s>\d{{4,8}})\b", re.I)

_KEY_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("api_key", re.compile(r"\bsk-(?:proj-|live-|test-|ant-[a-z0-9]+-)?[A-Za-z0-9_\-]{16,}")),
    ("api_key", re.compile(r"\b(?:sk|pk|rk)_(?:live|test)_[0-9A-Za-z]{16,}")),
    ("token", re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}")),
    ("token", re.compile(r"\bgithub_pat_[A-Za-z0-9_]{20,}")),
    ("token", re.compile(r"\b(?:glpat-|npm_|hf_|whsec_|xapp-|shpat_|dop_v1_)[A-Za-z0-9_\-]{16,}")),
    ("api_key", re.compile(r"\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}")),
    ("api_key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    ("api_key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}")),
    ("token", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    ("token", re.compile(r"(?<=hooks\.slack\.com/services/)[A-Z0-9]+/[A-Z0-9]+/[A-Za-z0-9]{16,}")),
    ("token", re.compile(r"(?<=discord\.com/api/webhooks/)\d+/[A-Za-z0-9_\-]{20,}")),
    ("private_key", re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)", re.S)),
)
_API_KEY_PHRASE = re.compile(r"\bapi[ _-]?key" + _QUAL + _COPULA + _VALUE, re.I)
_BEARER = re.compile(r"\bbearer\s+(?P<s>[A-Za-z0-9\-._~+/]{12,}=*)", re.I)
# "secret is ...", "auth token ...", "aws_secret_access_key = ...", "client_secret: ...", "clave de API es ..."
_KEYWORD_TOKEN = re.compile(
    r"(?:\b[\w-]*?[_-]|\b(?:access|auth|api|client|secret|private|bot|webhook|wallet)\s+)?"
    r"(?:key|token|secret|clave|zugangstoken|schl[uü]ssel|chiave|cl[eé])(?![a-z])" + _QUAL
    + r"(?:" + _COPULA + r"|\s+)" + r"[\"'`]?(?P<s>(?:0x)?[A-Za-z0-9+/_\-.=]{16,})", re.I)

_CARD = re.compile(r"(?<![\d.-])(?:\d[ .-]?){12,18}\d(?![\d-]|\.\d)")
_CARD_VETO = re.compile(
    r"\b(?:account|acct|order|tracking|confirmation|claim|policy|reference|ref|invoice|member(?:ship)?|"
    r"routing|booking|ticket|case|phone|serial|imei|iban|vin|loyalty|customer|frequent|isbn)\b[^.\d]{0,25}$", re.I)
_CARD_HINT = re.compile(r"\b(?:card|visa|mastercard|amex|discover|credit|debit|cc|tarjeta|carte|karte|cart[aã]o|"
                        r"carta)\b", re.I)
_CVV = re.compile(rf"(?<![\w-])(?P<w>{_CVV_WORDS})(?:[\s-]+(?:number|code|nummer))?(?:{_QUAL})(?P<c>{_COPULA}|\s+){_ARTICLE}(?P<s>\d{{3,4}})\b",
                  re.I)
_IBAN = re.compile(r"\b(?P<s>[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]){11,30})", re.I)
_IBAN_WORD = re.compile(r"\b(?:iban|nib|rib)\b", re.I)
_IBAN_LENGTHS = {"AD": 24, "AT": 20, "BE": 16, "CH": 21, "CZ": 24, "DE": 22, "DK": 18, "ES": 24, "FI": 18, "FR": 27,
                 "GB": 22, "GR": 27, "IE": 22, "IT": 27, "LU": 20, "NL": 18, "NO": 15, "PL": 28, "PT": 25, "SE": 24}

_SSN_BARE = re.compile(r"(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])")
_SSN_PHRASE = re.compile(
    r"\b(?:social(?:\s+security)?(?:\s+(?:number|no\.?|#))?|ssn|ss\s?#|ss\s+number)#?" + _QUAL + r"(?:" + _COPULA
    + r"|\s+)" + r"(?:number\s+)?(?P<s>\d{3}[- .]?\d{2}[- .]?\d{4})\b", re.I)
_NINO_BARE = re.compile(r"\b(?P<s>(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D])\b")
_CODICE_FISCALE = re.compile(r"\b[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]\b")
_DNI = re.compile(r"\b(?P<x>[XYZ]?)(?P<n>\d{7,8})-?(?P<c>[A-Z])\b")
_CPF = re.compile(r"(?<![\d.])\d{3}\.\d{3}\.\d{3}-\d{2}(?![\d.])")
_NINO_PHRASE = re.compile(r"\b(?:national\s+insurance|nino|ni)(?:\s+(?:number|no\.?|#))?" + _QUAL + r"(?:" + _COPULA
                          + r"|\s+)" + r"(?P<s>[A-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-D])\b", re.I)
_PASSPORT = re.compile(
    r"\b(?:passport|pasaporte|passeport|(?:reise)?pass(?:nummer)?|passaporto|passaporte|paspoort)(?:nummer)?"
    r"(?:\s+(?:number|no\.?|n[°º]|nr\.?|num[eé]ro|número|nummer|#|id))?" + _QUAL + r"(?:" + _COPULA + r"|\s+)"
    + r"(?P<s>(?=[A-Z]*\d)[A-Z0-9]{6,12})\b", re.I)
_NATIONAL_ID = re.compile(
    r"\b(?:national\s+(?:id|identity|insurance)(?:\s+card)?|identity\s+card|id\s+card|dni|nie|nif|steuer-?id|"
    r"steuer(?:identifikations)?nummer|personalausweis(?:nummer)?|s[ée]curit[ée]\s+sociale|codice\s+fiscale|cpf|"
    r"bsn|burgerservicenummer|carte\s+d['’]identit[ée]|c[ée]dula|(?:num[ée]ro\s+de\s+)?s[ée]cu\b)"
    r"(?:\s+(?:number|no\.?|n[°º]|nr\.?|num[eé]ro|número|nummer|#))?" + _QUAL + r"(?:" + _COPULA + r"|\s+)"
    + _ARTICLE + r"(?P<s>\d{1,3}(?:[ ]\d{1,6}){3,8}|(?=[A-Z.\-]*\d)[A-Z0-9][A-Z0-9.\-]{3,18}(?:[ ][0-9]{1,6}){0,6}(?:-\d{2})?)\b", re.I)
_SEED = re.compile(
    r"\b(?:seed(?:[\s-]+(?:phrase|words|w[oö]rter|woorden|palabras|mots|parole|palavras|zin|satz))?|(?:secret\s+)?recovery\s+(?:phrase|words|seed)|secret\s+phrase|mnemonic|"
    r"backup\s+(?:words|phrase)|(?:12|24)[\s-]+(?:words?|palabras|mots|w[oö]rter|woorden|parole|palavras)|frase\s+(?:semilla|de\s+recupera(?:ci[oó]n|[cç][aã]o))|"
    r"(?:frase|parole)\s+di\s+recupero|palavras\s+de\s+recupera[cç][aã]o|palabras\s+de\s+recuperaci[oó]n|"
    r"phrase\s+secr[èe]te|frase\s+(?:secreta|segreta)|geheime\s+(?:phrase|zin|w[oö]rter)|herstel(?:zin|woorden|frase)|wiederherstellungs(?:phrase|satz|w[oö]rter)|(?:phrase|mots)\s+de\s+r[ée]cup[ée]ration)"
    + _QUAL + _COPULA + r"(?P<s>[^\W\d_]{2,12}(?:\s+[^\W\d_]{2,12}){7,23})\b", re.I)


# Each group's words alone: a text without them cannot match the group's full pattern, so the full
# pattern (with its qualifiers and copulas, costly on every word) runs only where one occurs.
_HAS_PW = re.compile(rf"{_LB}(?:{_STRONG_PW}|{_WEAK_PW})|\b(?:login|log-in|sign[ -]?in)\b", re.I)
_HAS_PIN = re.compile(rf"(?<!\w)(?:{_PIN_WORDS})", re.I)  # "Karten-PIN", "SIM-PIN"
_HAS_KEYWORD = re.compile(r"(?:key|token|secret|clave|zugangstoken|schl[uü]ssel|chiave|cl[eé])(?![a-z])", re.I)
_HAS_CVV = re.compile(rf"(?<![\w-])(?:{_CVV_WORDS})", re.I)
_HAS_ID = re.compile(r"social|ssn|ss\s?#|ss\s+number|insurance|nino|\bni\b|pas|national|identity|id\s+card|"
                     r"dni|nie|nif|steuer|personalausweis|s[ée]cu|fiscale|cpf|bsn|burgerservice|identit|c[ée]dula",
                     re.I)
_HAS_SEED = re.compile(r"seed|recovery|secret\s+phrase|phrase\s+secr|frase\s+se[cg]r|geheime|mnemonic|backup\s+(?:words|phrase)|\d\d[\s-]+\w+|frase|"
                       r"parole|palavras|palabras|herstel|wiederherstellung|r[ée]cup[ée]ration",
                       re.I)


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


def _iban_ok(code: str) -> bool:
    s = code[4:] + code[:4]
    try:
        return int("".join(str(int(c, 36)) for c in s)) % 97 == 1
    except ValueError:
        return False


def _entropy(s: str) -> float:
    counts = Counter(s)
    n = len(s)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _looks_random(s: str) -> bool:
    has_digit = any(c.isdigit() for c in s)
    has_alpha = any(c.isalpha() for c in s)
    return has_digit and has_alpha and _entropy(s) >= 3.0


def _credential_like(v: str) -> bool:
    """A value a person types as a credential: a digit or a symbol in a word of 4+ characters."""
    return len(v) >= 4 and (any(c.isdigit() for c in v) or any(not c.isalnum() for c in v))


def _password_ok(value: str, strong: bool) -> bool:
    v = value.rstrip(".,;:!?")
    if len(v) < 4 or "://" in v:
        return False
    if not strong:
        return _credential_like(v)
    return not (v.replace("'", "").isalpha() and v.lower() in _NOT_A_PASSWORD)


def _span(kind: str, m: re.Match[str], text: str, *, trim: bool = False) -> SecretSpan:
    s, e = m.start("s"), m.end("s")
    while trim and e > s and text[e - 1] in ".,;:!?":
        e -= 1
    return SecretSpan(kind, s, e)


def _find(text: str) -> list[SecretSpan]:
    found: list[SecretSpan] = []
    digits = sum(c.isdigit() for c in text)
    lower = text.lower()

    def has(*words: str) -> bool:  # a substring test first: the trigger regexes cost ~10x more
        return any(w in lower for w in words)

    if has("pass", "pw", "swd", "pword", "p/w", "mdp", "kennwort", "wachtwoord", "contrase", "senha", "mot de passe", "parola", "clave",
           "credential", "login", "log-in", "sign", "wifi", "wi-fi", "wlan", "network", "router", "hotspot") and \
            _HAS_PW.search(text):
        _passwords(text, found)
    if has("code", "key", "clave", "digo", "codice", "schl", "sleutel") and _DEVICE.search(text):
        for m in _DEVICE_CODE.finditer(text):
            value = m.group("s").rstrip(".,;:!?")
            if _credential_like(value):
                found.append(_span("pin" if value.isdigit() else "password", m, text, trim=True))
    if "://" in text or "=" in text:
        found.extend(_span("password", m, text) for pat in (_URL_PASSWORD, _QUERY_PASSWORD) for m in pat.finditer(text))
    if digits >= 4 and has("pin", "code", "geheim", "clave", "digo", "codice") and _HAS_PIN.search(text):
        found.extend(_span("pin", m, text) for m in _PIN.finditer(text))

    if has("sk-", "sk_", "pk_", "rk_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "npm_", "hf_",
           "whsec_", "xapp-", "shpat_", "dop_v1_", "sg.", "akia", "asia", "xox", "aiza", "eyj", "private key",
           "hooks.slack", "/webhooks/"):
        for kind, pattern in _KEY_PATTERNS:
            found.extend(SecretSpan(kind, m.start(), m.end()) for m in pattern.finditer(text))
    if has("key", "token", "secret", "clave", "schl", "chiave", "clé", "cle") and _HAS_KEYWORD.search(text):
        for m in _API_KEY_PHRASE.finditer(text):
            if len(m.group("s")) >= 8 and any(c.isdigit() for c in m.group("s")):
                found.append(_span("api_key", m, text, trim=True))
        found.extend(_span("token", m, text) for m in _KEYWORD_TOKEN.finditer(text) if _looks_random(m.group("s")))
    if "bearer" in lower:
        found.extend(_span("token", m, text) for m in _BEARER.finditer(text))

    if digits >= 13:
        _cards(text, found)
    if digits >= 3 and has("cvv", "cvc", "cid", "csc", "security", "seguridad", "seguran", "prüf", "pruf", "sicherheit",
                           "crypto", "sécurité", "securite", "sicurezza", "veiligheid", "beveiliging") and \
            _HAS_CVV.search(text):
        for m in _CVV.finditer(text):
            # "CSC 102" and "CID 123" are also course and case codes: bare, they count only beside a card
            weak = m.group("w").lower() in ("csc", "cid") and not m.group("c").strip()
            if not weak or _CARD_HINT.search(text[max(0, m.start() - 40) : m.start()]):
                found.append(_span("cvv", m, text))
    if digits >= 6:
        for m in _IBAN.finditer(text):
            span = _iban(text, m)
            if span is not None:
                found.append(span)
        found.extend(SecretSpan("ssn", m.start(), m.end()) for m in _SSN_BARE.finditer(text))
        found.extend(_span("national_id", m, text) for m in _NINO_BARE.finditer(text))
        _checked_ids(text, found)
    if digits >= 3 and _HAS_ID.search(text):  # a passport number may hold only 3 or 4 digits (CF7K3L9M2)
        _named_ids(text, found)
    if has("seed", "recovery", "phrase", "mnemonic", "backup", "word", "frase", "parole", "palavras", "palabras", "herstel",
           "wiederherstell", "récup", "recup") and \
            _HAS_SEED.search(text):
        found.extend(_span("seed_phrase", m, text) for m in _SEED.finditer(text))
    return found


def _passwords(text: str, found: list[SecretSpan]) -> None:
    for m in _PASSWORD.finditer(text):
        strong = re.fullmatch(_WEAK_PW, m.group("w"), re.I) is None
        copula_to = re.search(r"\bto\s*$", text[m.end("q"):m.start("s")], re.I) is not None
        if _password_ok(m.group("s"), strong and not copula_to):
            found.append(_span("password", m, text, trim=True))
    for m in _PW_PHRASE.finditer(text):
        # "Password: correct horse battery staple" is a passphrase; "Password: must be changed" is a sentence
        if not any(w.lower() in _SENTENCE_WORDS for w in m.group("s").split()):
            found.append(_span("password", m, text))
    found.extend(_span("password", m, text) for m in _PW_QUOTED.finditer(text))
    found.extend(_span("password", m, text) for m in _PW_AS.finditer(text) if _credential_like(m.group("s")))
    for m in _PW_BARE.finditer(text):
        if _credential_like(m.group("s").rstrip(".,;:!?")):
            found.append(_span("password", m, text, trim=True))
    found.extend(_span("password", m, text, trim=True) for m in _PW_COLON.finditer(text)
                 if _credential_like(m.group("s").rstrip(".,;:!?")))
    for m in _WEAK_BARE.finditer(text):
        v = m.group("s").rstrip(".,;:!?")
        if len(v) >= 6 and any(c.isalpha() for c in v) and any(c.isdigit() for c in v) and not v.isalnum():
            found.append(_span("password", m, text, trim=True))
    found.extend(_span("password", m, text) for m in _LOGIN_PAIR.finditer(text) if _credential_like(m.group("s")))


def _cards(text: str, found: list[SecretSpan]) -> None:
    for m in _CARD.finditer(text):
        digits = re.sub(r"\D", "", m.group())
        if not (13 <= len(digits) <= 19) or digits[0] not in "23456" or not luhn_ok(digits):
            continue
        before = text[max(0, m.start() - 40) : m.start()]
        if _CARD_VETO.search(before) and not _CARD_HINT.search(before):
            continue
        found.append(SecretSpan("card_number", m.start(), m.end()))


def _checked_ids(text: str, found: list[SecretSpan]) -> None:
    """Ids whose own check letter or digits vouch for them: Italian codici fiscali (their fixed shape), Spanish
    DNI/NIE (mod-23 letter), Brazilian CPF (two mod-11 digits)."""
    found.extend(SecretSpan("national_id", m.start(), m.end()) for m in _CODICE_FISCALE.finditer(text))
    for m in _DNI.finditer(text):
        n = int(f"{'XYZ'.index(m.group('x'))}{m.group('n')}" if m.group("x") else m.group("n"))  # NIE: X=0, Y=1, Z=2
        if "TRWAGMYFPDXBNJZSQVHLCKE"[n % 23] == m.group("c") and (m.group("x") or len(m.group("n")) == 8):
            found.append(SecretSpan("national_id", m.start(), m.end()))
    for m in _CPF.finditer(text):
        d = [int(c) for c in m.group() if c.isdigit()]
        ok = all((sum(v * w for v, w in zip(d[:k], range(k + 1, 1, -1), strict=True)) * 10 % 11) % 10 == d[k]
                 for k in (9, 10))
        if ok and len(set(d)) > 1:
            found.append(SecretSpan("national_id", m.start(), m.end()))


def _named_ids(text: str, found: list[SecretSpan]) -> None:
    found.extend(_span("ssn", m, text) for m in _SSN_PHRASE.finditer(text))
    found.extend(_span("national_id", m, text) for m in _NINO_PHRASE.finditer(text))
    found.extend(_span("passport", m, text) for m in _PASSPORT.finditer(text) if any(c.isdigit() for c in m.group("s")))
    for m in _NATIONAL_ID.finditer(text):
        if sum(c.isdigit() for c in m.group("s")) >= 4:
            found.append(_span("national_id", m, text))


def _iban(text: str, m: re.Match[str]) -> SecretSpan | None:
    """The longest mod-97-valid IBAN at the start of ``m`` (the pattern may run into following words)."""
    chars = [(c.upper(), m.start("s") + i) for i, c in enumerate(m.group("s")) if c != " "]
    country = chars[0][0] + chars[1][0]
    any_length = range(min(len(chars), 34), 14, -1)
    lengths: Sequence[int] = any_length
    if country in _IBAN_LENGTHS:
        # a value named as an IBAN is one even when its length is off for the country (a typo still identifies
        # the account); unnamed, the country's length keeps mod-97 coincidences out
        named = _IBAN_WORD.search(text[max(0, m.start() - 40) : m.start()]) is not None
        lengths = [_IBAN_LENGTHS[country], *(any_length if named else ())]
    for n in lengths:
        if n <= len(chars) and _iban_ok("".join(c for c, _ in chars[:n])):
            end = chars[n - 1][1] + 1
            if end < len(text) and text[end].isalnum():
                continue
            return SecretSpan("iban", m.start("s"), end)
    return None


def find_secrets(text: str) -> list[SecretSpan]:
    """Every secret in ``text``, sorted by position, overlaps resolved (longest wins)."""
    if not text:
        return []
    norm, pos = _normalise(text)
    spans = _find(norm)
    if norm is not text:
        spans = [SecretSpan(s.kind, pos[s.start], pos[s.end - 1] + 1) for s in spans if s.end > s.start]
    return _resolve(spans)


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
    return _redact_spans(text, find_secrets(text))


def _redact_spans(text: str, spans: list[SecretSpan]) -> tuple[str, list[str]]:
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


# -- a credential given in answer to a question asking for it ------------------------------
_REQUEST = re.compile(r"\b(?:need|give|send|tell|necesito|necesita|dame|dime|env[ií]a|manda|besoin|donne|envoie|"
                      r"brauche|ben[öo]tige|gib|sag|schick|preciso|diz|bisogno|serve|servono|dammi|dimmi|nodig|geef|stuur|"
                      r"vertel|faut)\b", re.I)
_ASKS = re.compile(rf"(?:{_STRONG_PW}|{_PIN_WORDS}|{_CVV_WORDS}|\bpin\b)", re.I)
_FILLER = frozenset(["it", "it's", "its", "is", "ok", "okay", "sure", "yes", "yeah", "fine", "here", "the", "my", "a", "es", "c'est", "est", "ist", "lautet", "é", "è", "sí", "si", "oui", "ja", "sim", "it’s"])


def _reply_spans(reply: str, asked: str) -> list[SecretSpan]:
    pin = re.search(rf"(?:{_PIN_WORDS}|{_CVV_WORDS}|\bpin\b)", asked, re.I) is not None and \
        re.search(_STRONG_PW, asked, re.I) is None
    norm, pos = _normalise(reply)
    words = list(re.finditer(r"[^\s,;]+", norm))
    if not words or len(words) > 8:
        return []
    spans: list[SecretSpan] = []
    for w in words:
        v = w.group().rstrip(".!?")
        if pin:
            if re.fullmatch(r"\d{3,8}", v):
                spans.append(SecretSpan("pin", w.start(), w.start() + len(v)))
        elif v.lower() not in _FILLER and (_credential_like(v) or len(words) == 1) and len(v) >= 4:
            spans.append(SecretSpan("password", w.start(), w.start() + len(v)))
    return [SecretSpan(s.kind, pos[s.start], pos[s.end - 1] + 1) for s in spans]


def redact_replies(turns: Sequence[tuple[str, str]]) -> list[str]:
    """The contents of ``(role, content)`` turns with the credentials given in reply redacted.

    A short user reply right after a turn asking for a password or PIN ("What's the password?" ->
    "it's Blue-Falcon-77") is the credential even though the reply never names it; only those
    values are replaced here (everything else is left to :func:`redact`).
    """
    out = [content for _, content in turns]
    for i in range(1, len(turns)):
        role, content = turns[i]
        prev = turns[i - 1][1]
        if role != "user" or "?" not in prev and not _REQUEST.search(prev):
            continue
        if not _ASKS.search(_normalise(prev)[0]):
            continue
        spans = _resolve([*_reply_spans(content, prev), *find_secrets(content)])
        if spans:
            out[i] = _redact_spans(content, spans)[0]
    return out
