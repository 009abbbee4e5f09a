"""The secret corpus (fixtures/secrets_corpus), detection level: both halves, thresholds from the frozen run.

The full measurement (through remember, export and file bytes) is scripts/eval_secrets.py; this keeps
the detector from regressing on it without a database.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest

from goodmemory.secrets import redact, redact_replies

CORPUS = Path(__file__).parents[2] / "fixtures" / "secrets_corpus"
_ZW = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None)


def _load(name: str, where: Path = CORPUS) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in (where / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def _norm(s: str) -> str:
    return unicodedata.normalize("NFKC", s).translate(_ZW)


def _leaks(case: dict) -> bool:  # type: ignore[type-arg]
    turns = [(r, t) for r, t in case["turns"]]
    stored = " \n ".join(redact(t)[0] for t in redact_replies(turns))
    secret = _norm(case["secret"])
    vs = {secret, re.sub(r"[\s.\-]", "", secret)} if sum(c.isdigit() for c in secret) >= 6 else {secret}
    return any(re.search(rf"(?<![0-9A-Za-z]){re.escape(v)}(?![0-9A-Za-z])", _norm(stored)) for v in vs)


def test_corpus_is_split_by_the_hash_of_the_case_id() -> None:
    import hashlib

    for name in ("secrets.jsonl", "ordinary.jsonl"):
        for c in _load(name):
            assert c["half"] == ("tune" if hashlib.sha256(c["id"].encode()).digest()[0] % 2 == 0 else "test")
    secrets = _load("secrets.jsonl")
    assert len(secrets) >= 150 and len({c["kind"] for c in secrets}) >= 10 and len({c["lang"] for c in secrets}) >= 5
    assert len(_load("ordinary.jsonl")) >= 100


@pytest.mark.parametrize(("half", "minimum"), [("tune", 1.0), ("test", 0.975)])
def test_secrets_of_the_corpus_are_redacted(half: str, minimum: float) -> None:
    cases = [c for c in _load("secrets.jsonl") if c["half"] == half]
    leaked = [c["turns"][-1][1] for c in cases if _leaks(c)]
    assert 1 - len(leaked) / len(cases) >= minimum, leaked


@pytest.mark.parametrize("half", ["tune", "test"])
def test_ordinary_numbers_are_not_redacted(half: str) -> None:
    cases = [c for c in _load("ordinary.jsonl") if c["half"] == half]
    changed = [c["text"] for c in cases if redact(c["text"])[0] != c["text"]]
    assert len(changed) / len(cases) <= 0.02, changed


# the later sets (README: each frozen before the detector changed again); heldout7 is the unseen one
# (84/84 at its single measurement through remember, scripts/eval_secrets.py); its floor is the 98% bar
HELDOUT_FLOORS = {"heldout": 1.0, "heldout2": 1.0, "heldout3": 1.0, "heldout4": 1.0, "heldout5": 1.0,
                  "heldout6": 1.0, "heldout7": 0.98}


@pytest.mark.parametrize(("name", "minimum"), sorted(HELDOUT_FLOORS.items()))
def test_secrets_of_the_heldout_sets_are_redacted(name: str, minimum: float) -> None:
    cases = _load("secrets.jsonl", CORPUS / name)
    assert len(cases) >= 80 and len({c["kind"] for c in cases}) >= 10 and len({c["lang"] for c in cases}) >= 5
    leaked = [c["turns"][-1][1] for c in cases if _leaks(c)]
    assert 1 - len(leaked) / len(cases) >= minimum, leaked


@pytest.mark.parametrize("name", sorted(HELDOUT_FLOORS))
def test_ordinary_numbers_of_the_heldout_sets_are_not_redacted(name: str) -> None:
    cases = _load("ordinary.jsonl", CORPUS / name)
    assert len(cases) >= 50
    changed = [c["text"] for c in cases if redact(c["text"])[0] != c["text"]]
    assert len(changed) / len(cases) <= 0.02, changed
