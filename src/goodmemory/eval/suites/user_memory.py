"""The layered user-memory suite: loader, validation, keyword recall and the run modes.

Test cases are YAML files under ``test_cases/layer{1,2,3}/`` with ``test_id``,
``category``, ``title``, ``conversation_histories`` (each a session with
``conversation_id``, ``timestamp`` and ``messages``), ``user_question``,
``evaluation_criteria`` and ``expected_behavior``. Layer 1 cases hold exactly
one conversation, layers 2 and 3 at least two. A malformed file becomes a
:class:`CaseProblem`; it never stops the run.

Keyword recall: lowercase and collapse whitespace in the answer (joined with
any extracted memory); a gold fact counts as found when any of its
alternatives is a substring; reward = facts found / facts. Cases without gold
facts are not scored.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any

import yaml

from ._user_memory_judge import Judgement, LLMJudge, parse_judgement
from .baselines import ContextResult, Session, System, Turn

__all__ = [
    "LAYERS",
    "CaseProblem",
    "Judgement",
    "LLMJudge",
    "KeywordScore",
    "TestCase",
    "compare",
    "keyword_recall",
    "layer_means",
    "load_gold",
    "load_responses",
    "load_test_cases",
    "normalize",
    "parse_case",
    "parse_judgement",
    "replay_case",
]

LAYERS = ("layer1", "layer2", "layer3")
LAYER_TITLES = {
    "layer1": "Layer 1 · Basic Recall",
    "layer2": "Layer 2 · Disambiguation",
    "layer3": "Layer 3 · Proactive Synthesis",
}
ROLES = frozenset({"user", "assistant", "system"})


@dataclass
class TestCase:
    """One validated test case; ``sessions`` are its conversation histories in replay (time) order."""

    __test__ = False  # not a pytest class

    test_id: str
    category: str
    title: str
    sessions: list[Session]
    user_question: str
    evaluation_criteria: str = ""
    expected_behavior: str = ""
    description: str = ""
    path: Path | None = None

    @property
    def user_id(self) -> str:
        return f"um:{self.test_id}"

    @property
    def question_at(self) -> datetime | None:
        """When the question is asked: one day after the latest session."""
        times = [s.at for s in self.sessions if s.at is not None]
        return max(times) + timedelta(days=1) if times else None

    @property
    def n_turns(self) -> int:
        return sum(len(s.turns) for s in self.sessions)


@dataclass(frozen=True)
class CaseProblem:
    """A test case file that could not be used, and why."""

    path: Path
    message: str


@dataclass
class KeywordScore:
    reward: float
    found: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


def _parse_time(value: Any, where: str) -> datetime | None:
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value
    if isinstance(value, date):
        return datetime.combine(value, time())
    try:
        return datetime.fromisoformat(str(value).strip())
    except ValueError as exc:
        raise ValueError(
            f"{where}: timestamp {value!r} is not ISO 8601 (e.g. '2024-11-15 10:30:00')"
        ) from exc


def _text(data: Mapping[str, Any], key: str, *, required: bool = True) -> str:
    value = data.get(key)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise ValueError(f"missing or empty field {key!r}")
        return ""
    if not isinstance(value, str):
        raise ValueError(f"field {key!r} must be a string, got {type(value).__name__}")
    return value.strip()


def parse_case(data: Any, path: Path | None = None) -> TestCase:
    """Validates one parsed YAML document; raises ``ValueError`` saying what is wrong."""
    if not isinstance(data, Mapping):
        raise ValueError("the document is not a mapping")
    test_id = _text(data, "test_id")
    category = _text(data, "category")
    if category not in LAYERS:
        raise ValueError(f"category {category!r} is not one of {', '.join(LAYERS)}")
    histories = data.get("conversation_histories")
    if not isinstance(histories, list) or not histories:
        raise ValueError("conversation_histories must be a non-empty list")
    if category == "layer1" and len(histories) != 1:
        raise ValueError(f"a layer1 case must have exactly one conversation, found {len(histories)}")
    if category != "layer1" and len(histories) < 2:
        raise ValueError(f"a {category} case must have at least two conversations, found {len(histories)}")
    sessions: list[Session] = []
    seen: set[str] = set()
    for h_i, hist in enumerate(histories):
        where = f"conversation_histories[{h_i}]"
        if not isinstance(hist, Mapping):
            raise ValueError(f"{where} is not a mapping")
        conv_id = str(hist.get("conversation_id") or "").strip()
        if not conv_id:
            raise ValueError(f"{where}: missing conversation_id")
        if conv_id in seen:
            raise ValueError(f"{where}: duplicate conversation_id {conv_id!r}")
        seen.add(conv_id)
        at = _parse_time(hist.get("timestamp"), where)
        messages = hist.get("messages")
        if not isinstance(messages, list) or not messages:
            raise ValueError(f"{where} ({conv_id}): messages must be a non-empty list")
        turns = []
        for m_i, msg in enumerate(messages):
            if not isinstance(msg, Mapping):
                raise ValueError(f"{where}.messages[{m_i}] is not a mapping")
            role = str(msg.get("role") or "").strip()
            content = msg.get("content")
            if role not in ROLES:
                raise ValueError(f"{where}.messages[{m_i}]: role {role!r} is not user/assistant/system")
            if not isinstance(content, str) or not content.strip():
                raise ValueError(f"{where}.messages[{m_i}]: content must be a non-empty string")
            turns.append(Turn(f"{conv_id}:{m_i}", role, content.strip(), at))
        sessions.append(Session(conv_id, at, turns))
    sessions.sort(key=lambda s: s.at or datetime.min)  # replay in time order (stable)
    return TestCase(
        test_id=test_id,
        category=category,
        title=_text(data, "title", required=False) or test_id,
        sessions=sessions,
        user_question=_text(data, "user_question"),
        evaluation_criteria=_text(data, "evaluation_criteria", required=False),
        expected_behavior=_text(data, "expected_behavior", required=False),
        description=_text(data, "description", required=False),
        path=path,
    )


def load_test_cases(
    test_cases_dir: str | Path, category: str | None = None
) -> tuple[list[TestCase], list[CaseProblem]]:
    """Loads every ``*.yaml``/``*.yml`` under the directory (one layer if ``category``)."""
    root = Path(test_cases_dir)
    if not root.is_dir():
        raise FileNotFoundError(f"test cases directory not found: {root}")
    cases: list[TestCase] = []
    problems: list[CaseProblem] = []
    ids: dict[str, Path] = {}
    files = sorted(p for p in root.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())
    for path in files:
        try:
            case = parse_case(yaml.safe_load(path.read_text(encoding="utf-8")), path)
        except (ValueError, yaml.YAMLError, UnicodeDecodeError) as exc:
            problems.append(CaseProblem(path, str(exc).splitlines()[0] if str(exc) else type(exc).__name__))
            continue
        if case.test_id in ids:
            problems.append(
                CaseProblem(path, f"duplicate test_id {case.test_id!r} (also in {ids[case.test_id]})")
            )
            continue
        ids[case.test_id] = path
        if category is None or case.category == category:
            cases.append(case)
    cases.sort(key=lambda c: (c.category, c.test_id))
    return cases, problems


def load_gold(path: str | Path) -> dict[str, list[list[str]]]:
    """Gold facts: ``{test_id: [[alternative, ...], ...]}`` (a plain string is one alternative)."""
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    gold: dict[str, list[list[str]]] = {}
    for test_id, entry in raw.items():
        if test_id.startswith("_"):
            continue
        facts = entry.get("required_facts", []) if isinstance(entry, Mapping) else entry
        norm = [[str(a) for a in f] if isinstance(f, list) else [str(f)] for f in facts or []]
        gold[test_id] = [f for f in norm if any(a.strip() for a in f)]
    return gold


def load_responses(path: str | Path) -> dict[str, Any]:
    """A responses JSON without its ``_comment``-style keys."""
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(raw, dict):
        raise ValueError(f"{path}: expected a JSON object")
    return {k: v for k, v in raw.items() if not k.startswith("_")}


def normalize(text: str) -> str:
    """Lowercase and collapse every run of whitespace into one space."""
    return " ".join(text.lower().split())


def keyword_recall(
    answer: str, facts: Sequence[Sequence[str] | str] | None, extracted_memory: str | None = None
) -> KeywordScore | None:
    """Share of gold facts found in the answer (plus extracted memory); ``None`` without gold."""
    if not facts:
        return None
    hay = normalize(" ".join(x for x in (answer or "", extracted_memory or "") if x))
    score = KeywordScore(0.0)
    for fact in facts:
        alts = [fact] if isinstance(fact, str) else list(fact)
        label = " | ".join(alts)
        (score.found if any(normalize(a) and normalize(a) in hay for a in alts) else score.missing).append(
            label
        )
    score.reward = len(score.found) / len(facts)
    return score


def layer_means(rewards: Mapping[str, tuple[str, float]]) -> dict[str, float | None]:
    """``{test_id: (layer, reward)}`` -> mean per layer and ``overall`` (mean over all cases)."""
    out: dict[str, float | None] = {}
    for layer in LAYERS:
        vals = [r for lay, r in rewards.values() if lay == layer]
        out[layer] = sum(vals) / len(vals) if vals else None
    vals = [r for _, r in rewards.values()]
    out["overall"] = sum(vals) / len(vals) if vals else None
    return out


def replay_case(system: System, case: TestCase) -> None:
    system.load(case.user_id, case.sessions)


def case_context(system: System, case: TestCase, budget: int) -> ContextResult:
    """Replays the case into the system and returns its context for the user question."""
    replay_case(system, case)
    return system.context(case.user_id, case.user_question, budget, case.question_at)


def compare(
    cases: Sequence[TestCase],
    gold: Mapping[str, Sequence[Sequence[str]]],
    systems: Iterable[System],
    budget: int,
    responses: Mapping[str, Mapping[str, str]] | None = None,
    *,
    scorer: Callable[[TestCase, str], float | None] | None = None,
    answerer: Callable[[TestCase, str], str] | None = None,
    on_case: Callable[[str, str], None] | None = None,
) -> tuple[dict[str, dict[str, float | None]], dict[str, dict[str, float]]]:
    """Scores every system (and canned responses) on the cases with gold facts.

    With a custom ``scorer`` (the LLM judge) every case is scored and ``answerer`` turns each live
    system's context into an answer first; ``tokens`` stays the context size.
    A responses system whose name clashes with a live system is reported as ``<name>@responses``.

    Returns ``({system: {layer1, layer2, layer3, overall, tokens}}, {system: {test_id: reward}})``;
    ``overall`` is the mean over all scored cases, ``tokens`` the mean context/answer tokens.
    """
    from ...tokens import count_tokens

    def default_scorer(case: TestCase, answer: str) -> float | None:
        s = keyword_recall(answer, gold.get(case.test_id))
        return None if s is None else s.reward

    score = scorer or default_scorer
    scored = [c for c in cases if gold.get(c.test_id)] if scorer is None else list(cases)
    summary: dict[str, dict[str, float | None]] = {}
    per_case: dict[str, dict[str, float]] = {}

    def record(name: str, answers: Mapping[str, tuple[str, int]]) -> None:
        rewards: dict[str, tuple[str, float]] = {}
        toks: list[int] = []
        for c in scored:
            if c.test_id not in answers:
                continue
            r = score(c, answers[c.test_id][0])
            if r is not None:
                rewards[c.test_id] = (c.category, r)
                toks.append(answers[c.test_id][1])
        summary[name] = {**layer_means(rewards), "tokens": (sum(toks) / len(toks)) if toks else None}
        per_case[name] = {k: v for k, (_, v) in rewards.items()}

    for system in systems:
        answers: dict[str, tuple[str, int]] = {}
        for c in scored:
            if on_case:
                on_case(system.name, c.test_id)
            ctx = case_context(system, c, budget)
            answers[c.test_id] = (answerer(c, ctx.text) if answerer else ctx.text, ctx.tokens)
        system.close()
        record(system.name, answers)
    for name, by_id in (responses or {}).items():
        if isinstance(by_id, Mapping):
            record(
                f"{name}@responses" if name in summary else name,
                {k: (str(v), count_tokens(str(v))) for k, v in by_id.items()},
            )
    return summary, per_case


def batch(
    cases: Sequence[TestCase],
    gold: Mapping[str, Sequence[Sequence[str]]],
    answers: Mapping[str, Any],
    judge: LLMJudge | None = None,
) -> dict[str, Any]:
    """Scores ``{test_id: answer}``; an answer may be ``{"answer": ..., "extracted_memory": ...}``.

    Keyword recall by default (pass: reward >= 0.6); with ``judge`` the LLM rubric (pass: its success rule).
    """
    by_id = {c.test_id: c for c in cases}
    out_cases: dict[str, Any] = {}
    rewards: dict[str, tuple[str, float]] = {}
    for test_id, value in answers.items():
        case = by_id.get(test_id)
        if case is None:
            out_cases[test_id] = {"status": "unknown test_id"}
            continue
        if isinstance(value, Mapping):
            answer, extracted = str(value.get("answer", "")), value.get("extracted_memory")
        else:
            answer, extracted = str(value), None
        if judge is not None:
            j = judge.judge(
                case, answer if extracted is None else f"{answer}\n\n[extracted memory] {extracted}"
            )
            rewards[test_id] = (case.category, j.reward)
            out_cases[test_id] = {
                "layer": case.category,
                "reward": j.reward,
                "passed": j.success,
                "grades": j.grades,
                "veto": j.veto,
                "error": j.error,
                "missing": [],
            }
            continue
        s = keyword_recall(answer, gold.get(test_id), None if extracted is None else str(extracted))
        if s is None:
            out_cases[test_id] = {"layer": case.category, "status": "skipped: no gold facts"}
            continue
        rewards[test_id] = (case.category, s.reward)
        out_cases[test_id] = {
            "layer": case.category,
            "reward": s.reward,
            "passed": s.reward >= 0.6,
            "found": s.found,
            "missing": s.missing,
        }
    return {"cases": out_cases, "layers": layer_means(rewards), "scored": len(rewards)}
