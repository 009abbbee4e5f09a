"""Live and fallback modes end to end against the real loopback OpenAI-compatible server (no client mocks)."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest

from goodmemory.eval.cli import main as eval_main
from goodmemory.eval.fixtures import load_cases
from goodmemory.eval.judge import DIMENSIONS, JudgeInput, Side
from goodmemory.eval.llm_judge import LLMJudge, _flip, parse_judge_reply
from goodmemory.llm import LLMClient, LLMConfig
from goodmemory.testing.openai_server import ScriptedOpenAIServer

PERSONA = "p02_kenji_watanabe"
CASES = [c for c in load_cases() if c.persona.persona_id == PERSONA]


def _blind(winner: str = "A", a: float = 4, b: float = 2, na: tuple[str, ...] = ()) -> str:
    def scores(v: float) -> dict[str, float | None]:
        return {d: (None if d in na else v) for d in DIMENSIONS}

    return json.dumps({"winner": winner, "scores_A": scores(a), "scores_B": scores(b), "reasoning": "A uses memory",
                       "failure_tags": ["B_missed_signal", "A_contamination"],
                       "blocking_failure_tags": ["A_contamination"]})


def _is_judge(req: dict[str, Any]) -> bool:
    return "judge of an A/B evaluation" in req["messages"][0]["content"]


def _env(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", url)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


def _run(tmp_path: Path, *extra: str) -> tuple[int, Path]:
    out = tmp_path / "run"
    code = eval_main(["--personas", PERSONA, "--systems", "goodmemory,current-session", "--model", "ans",
                      "--judge-model", "jdg", "--calibration-cases", "1", "--out", str(out), "--no-progress", *extra])
    return code, out


def test_live_without_an_endpoint_stops_in_one_line_before_a_run_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    code, out = _run(tmp_path, "--live")
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and not out.exists()
    assert len(err) == 1 and "OPENAI_BASE_URL" in err[0] and "Traceback" not in err[0]


def test_live_with_an_unreachable_endpoint_stops_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    _env(monkeypatch, f"http://127.0.0.1:{port}/v1")
    code, out = _run(tmp_path, "--live")
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and not out.exists()
    assert len(err) == 1 and "unreachable" in err[0] and str(port) in err[0]


def test_live_judges_both_answers_and_shows_the_judge_what_each_side_was_given(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def reply(req: dict[str, Any]) -> str:
        return _blind() if _is_judge(req) else "Here is a personalised answer."

    with ScriptedOpenAIServer(default=reply) as srv:
        _env(monkeypatch, srv.base_url)
        code, out = _run(tmp_path, "--live")
        judge_reqs = [r for r in srv.chat_requests if _is_judge(r)]
        models = {r["model"] for r in srv.chat_requests}
    assert code == 0 and models == {"ans", "jdg"}
    summary = json.loads((out / "summary.json").read_text())
    assert summary["mode"] == "live" and summary["judged_by"] == {"llm": len(CASES)}
    assert summary["answered_by"] == {"llm": len(CASES)}
    for case in CASES:
        j = json.loads((out / "traces" / case.case_id / "judge.json").read_text())
        cand, base = j["sides"]["candidate"]["scores"], j["sides"]["baseline"]["scores"]
        assert set(cand) == set(base) == set(DIMENSIONS) and None not in cand.values() and None not in base.values()
        # the judge saw A better; A is the candidate unless the case id flipped the order
        flipped = _flip(case.case_id)
        assert j["verdict"]["winner"] == ("baseline" if flipped else "goodmemory")
        assert cand["factual_recall"] == (2 if flipped else 4)
        assert ("goodmemory_contamination" in j["verdict"]["blocking_failure_tags"]) != flipped
    prompts = [json.loads(r["messages"][1]["content"]) for r in judge_reqs]
    first = next(p for p in prompts if p["user_request"] == CASES[0].probe.question)
    assert first["expected_signals"]["transfer"] == CASES[0].probe.expected_transfer_signals
    assert first["A"]["context_items"] and first["B"]["context_items"]  # both sides' context items are shown
    assert "goodmemory" not in json.dumps({"A": first["A"], "B": first["B"]}).lower()  # blind
    usage = summary["usage"]
    assert usage["judge"]["calls"] >= len(CASES) and usage["judge"]["prompt_tokens"] > 0
    assert usage["answerer"]["calls"] == 2 * len(CASES) and usage["tokens_estimated"] is True
    assert (out / "report.md").read_text().count("judged by") >= 1


def test_live_judge_retries_malformed_replies_then_fails_closed() -> None:
    case = CASES[0]
    inp = JudgeInput(case.persona, case.probe, Side("gm", "a", "ctx a", ("ctx a",), True),
                     Side("base", "b", "ctx b", ("ctx b",), True), "", case.case_id)
    replies = ["not json at all", "```json\n{\"winner\": \"A\"}\n```", _blind()]
    with ScriptedOpenAIServer(replies=replies) as srv:
        client = LLMClient(LLMConfig(base_url=srv.base_url, api_key="k", model="m", backoff_s=0.0))
        sleeps: list[float] = []
        res = LLMJudge(client, retries=2, backoff_s=0.1, sleep=sleeps.append).judge(inp)
        assert len(srv.chat_requests) == 3 and sleeps == [0.1, 0.2]  # backoff doubles
        assert res.judge == "llm" and res.baseline_scores is not None
    with ScriptedOpenAIServer(replies=["garbage"]) as srv:
        client = LLMClient(LLMConfig(base_url=srv.base_url, api_key="k", model="m", backoff_s=0.0))
        res = LLMJudge(client, retries=1, backoff_s=0.0).judge(inp)
        assert res.winner == "tie" and res.blocking_failure_tags == ["shared_judge_unparsable"]


def test_blind_reply_parsing_maps_sides_and_keeps_na_for_both() -> None:
    res = parse_judge_reply(_blind("B", 1, 5, na=("update_correctness",)), flipped=True)
    # flipped: A is the baseline, B the candidate
    assert res.winner == "goodmemory" and res.scores.factual_recall == 5 and res.baseline_scores is not None
    assert res.baseline_scores.factual_recall == 1
    assert res.scores.update_correctness is None and res.baseline_scores.update_correctness is None
    assert "baseline_contamination" in res.failure_tags and "goodmemory_missed_signal" in res.failure_tags
    half_na = json.loads(_blind())
    half_na["scores_B"]["cross_domain_transfer"] = None
    res = parse_judge_reply(json.dumps(half_na))
    assert res.scores.cross_domain_transfer is None  # N/A on one side is N/A on both
    for bad in ("not json", json.dumps({**json.loads(_blind()), "winner": "both"}),
                json.dumps({**json.loads(_blind()), "blocking_failure_tags": ["A_other"]}),
                json.dumps({**json.loads(_blind()), "scores_A": {"factual_recall": 9}})):
        with pytest.raises(ValueError):
            parse_judge_reply(bad)


def test_fallback_judges_offline_where_the_endpoint_fails_and_marks_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    broken = CASES[1].probe.question

    def reply(req: dict[str, Any]) -> Any:
        if not _is_judge(req):
            return "An answer."
        if broken in req["messages"][1]["content"]:
            return {"status": 500}  # this case's judge endpoint fails every retry
        if CASES[2].probe.question in req["messages"][1]["content"]:
            return "I think A is better."  # malformed: never valid JSON
        return _blind()

    with ScriptedOpenAIServer(default=reply) as srv:
        _env(monkeypatch, srv.base_url)
        code, out = _run(tmp_path, "--fallback")
    assert code == 0
    by_case = {c.case_id: json.loads((out / "cases" / f"{c.case_id}.json").read_text()) for c in CASES}
    assert by_case[CASES[0].case_id]["judged_by"] == "llm"
    assert by_case[CASES[1].case_id]["judged_by"] == "rule-fallback"
    assert by_case[CASES[2].case_id]["judged_by"] == "rule-fallback"
    assert by_case[CASES[1].case_id]["judge"]["judge"] == "rule-fallback"
    summary = json.loads((out / "summary.json").read_text())
    assert summary["mode"] == "fallback" and summary["judged_by"]["rule-fallback"] == 2
    assert summary["usage"]["judge"]["failures"] >= 1 and summary["usage"]["judge"]["unusable_replies"] >= 3
    fails = json.loads((out / "failures" / "summary.json").read_text())["failures"]
    assert all("judged_by" in f for f in fails)


def test_live_stops_cleanly_when_the_endpoint_dies_mid_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def reply(req: dict[str, Any]) -> Any:
        return {"status": 401} if not _is_judge(req) else _blind()

    with ScriptedOpenAIServer(default=reply) as srv:
        _env(monkeypatch, srv.base_url)
        code, out = _run(tmp_path, "--live")
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 3 and len(err) == 1 and "--live stopped" in err[0] and "--summarize" in err[0]
    assert (out / "run.json").exists()
