"""Tests of the external suites: user-memory loader/scoring/CLI, LoCoMo loader/replay, baselines."""

from __future__ import annotations

import io
import json
from datetime import datetime
from pathlib import Path

import pytest
import yaml

from goodmemory.eval.suites import cli
from goodmemory.eval.suites import user_memory as um
from goodmemory.eval.suites.baselines import (
    BM25Turns,
    FullContext,
    NoMemory,
    RecentWindow,
    Session,
    Turn,
    goodmemory_available,
)
from goodmemory.eval.suites.locomo import (
    evidence_recall,
    load_locomo,
    normalize_evidence,
    parse_locomo_date,
    run_locomo,
)
from goodmemory.tokens import count_tokens

pytestmark = pytest.mark.eval

SHARED_DATA = Path(__file__).parents[2].parent / "shared" / "data"


# --------------------------------------------------------------------------- helpers


def _history(conv_id: str, ts: str, pairs: list[tuple[str, str]]) -> dict:
    return {
        "conversation_id": conv_id,
        "timestamp": ts,
        "messages": [{"role": r, "content": c} for r, c in pairs],
    }


def _case(test_id: str, category: str, histories: list[dict], question: str) -> dict:
    return {
        "test_id": test_id,
        "category": category,
        "title": f"title of {test_id}",
        "conversation_histories": histories,
        "user_question": question,
        "evaluation_criteria": "criteria",
        "expected_behavior": "behaviour",
    }


def _write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False) if path.suffix == ".yaml" else json.dumps(data))


@pytest.fixture()
def suite(tmp_path: Path) -> tuple[Path, Path]:
    """A tiny valid suite (one case per layer) plus three bad files, and its gold facts."""
    root = tmp_path / "test_cases"
    filler = [("user", f"Filler message number {i} about the weather today.") for i in range(30)]
    _write(
        root / "layer1" / "01_bank.yaml",
        _case(
            "l1_bank",
            "layer1",
            [
                _history(
                    "bank_1",
                    "2024-11-15 10:30:00",
                    [
                        ("user", "Open a checking account please."),
                        ("assistant", "Your account number is 4429853327."),
                    ]
                    + filler,
                )
            ],
            "What was my checking account number?",
        ),
    )
    _write(
        root / "layer2" / "01_cars.yaml",
        _case(
            "l2_cars",
            "layer2",
            [
                _history("ins_1", "2024-10-01 09:00:00", [("user", "I drive a Honda Accord.")] + filler),
                _history("svc_1", "2024-11-01 09:00:00", [("user", "And my wife drives a Tesla Model 3.")]),
            ],
            "Which car needs service?",
        ),
    )
    _write(
        root / "layer3" / "01_trip.yaml",
        _case(
            "l3_trip",
            "layer3",
            [
                _history(
                    "pass_1", "2024-06-15 14:00:00", [("user", "My passport expires February 18, 2025.")]
                ),
                _history("fly_1", "2024-11-22 10:00:00", [("user", "Book me to Tokyo in January.")] + filler),
            ],
            "Anything to take care of before my Tokyo trip?",
        ),
    )
    # bad: layer1 with two conversations; layer2 with one; unparseable YAML; missing question
    _write(
        root / "layer1" / "02_two.yaml",
        _case(
            "l1_two",
            "layer1",
            [_history("a", "2024-01-01", [("user", "x")]), _history("b", "2024-01-02", [("user", "y")])],
            "q?",
        ),
    )
    _write(
        root / "layer2" / "02_one.yaml",
        _case("l2_one", "layer2", [_history("a", "2024-01-01", [("user", "x")])], "q?"),
    )
    (root / "layer3" / "02_broken.yaml").write_text("test_id: [unclosed\n  - : :\n")
    bad = _case(
        "l3_noq",
        "layer3",
        [_history("a", "2024-01-01", [("user", "x")]), _history("b", "2024-01-02", [("user", "y")])],
        "",
    )
    _write(root / "layer3" / "03_noq.yaml", bad)
    gold = tmp_path / "gold.json"
    _write(
        gold,
        {
            "_comment": "tiny",
            "l1_bank": {"required_facts": ["4429853327"]},
            "l2_cars": {"required_facts": ["Honda Accord", ["Tesla Model 3", "Model 3"]]},
            "l3_trip": {"required_facts": ["passport", ["February 18", "Feb 18"]]},
        },
    )
    return root, gold


# --------------------------------------------------------------------------- loader and validation


def test_loader_keeps_valid_cases_and_reports_bad_ones(suite: tuple[Path, Path]) -> None:
    root, _ = suite
    cases, problems = um.load_test_cases(root)
    assert [c.test_id for c in cases] == ["l1_bank", "l2_cars", "l3_trip"]
    messages = {p.path.name: p.message for p in problems}
    assert set(messages) == {"02_two.yaml", "02_one.yaml", "02_broken.yaml", "03_noq.yaml"}
    assert "exactly one conversation" in messages["02_two.yaml"]
    assert "at least two conversations" in messages["02_one.yaml"]
    assert "user_question" in messages["03_noq.yaml"]


def test_loader_replays_sessions_in_time_order_with_message_ids(suite: tuple[Path, Path]) -> None:
    root, _ = suite
    cases, _ = um.load_test_cases(root, category="layer3")
    assert [c.test_id for c in cases] == ["l3_trip"]
    case = cases[0]
    assert [s.session_id for s in case.sessions] == ["pass_1", "fly_1"]
    assert case.sessions[0].turns[0].message_id == "pass_1:0"
    assert case.sessions[0].at == datetime(2024, 6, 15, 14, 0)
    assert case.question_at == datetime(2024, 11, 23, 10, 0)


def test_parse_case_rejects_bad_category_and_role() -> None:
    with pytest.raises(ValueError, match="category"):
        um.parse_case(_case("x", "layer9", [_history("a", "2024-01-01", [("user", "x")])], "q"))
    with pytest.raises(ValueError, match="role"):
        um.parse_case(_case("x", "layer1", [_history("a", "2024-01-01", [("robot", "x")])], "q"))


def test_load_gold_skips_comments_and_wraps_plain_facts(suite: tuple[Path, Path]) -> None:
    _, gold_path = suite
    gold = um.load_gold(gold_path)
    assert "_comment" not in gold
    assert gold["l2_cars"] == [["Honda Accord"], ["Tesla Model 3", "Model 3"]]


# --------------------------------------------------------------------------- keyword recall


def test_keyword_recall_counts_facts_found() -> None:
    s = um.keyword_recall("Your account is 4429853327.", ["4429853327", "123006800"])
    assert s is not None
    assert s.reward == 0.5
    assert s.found == ["4429853327"] and s.missing == ["123006800"]


def test_keyword_recall_alternatives_case_and_whitespace() -> None:
    facts = [["November 21", "Nov 21"], "2:30", "Patricia  Wong"]
    s = um.keyword_recall("See you   NOV\n21 at 2:30pm with PATRICIA\twong", facts)
    assert s is not None and s.reward == 1.0
    s = um.keyword_recall("see you nov 22 at 2:30", facts)
    assert s is not None and s.reward == pytest.approx(1 / 3)


def test_keyword_recall_joins_extracted_memory() -> None:
    s = um.keyword_recall(
        "I can help.", ["Priority Pass", "Chase"], extracted_memory="user has a priority pass"
    )
    assert s is not None and s.reward == 0.5


def test_keyword_recall_without_gold_is_skipped() -> None:
    assert um.keyword_recall("anything", []) is None
    assert um.keyword_recall("anything", None) is None


def test_overall_is_mean_over_cases_not_layers() -> None:
    means = um.layer_means(
        {"a": ("layer1", 1.0), "b": ("layer1", 1.0), "c": ("layer1", 1.0), "d": ("layer2", 0.0)}
    )
    assert means == {"layer1": 1.0, "layer2": 0.0, "layer3": None, "overall": 0.75}


def test_batch_scores_and_skips_cases_without_gold(suite: tuple[Path, Path]) -> None:
    root, gold_path = suite
    cases, _ = um.load_test_cases(root)
    gold = um.load_gold(gold_path)
    del gold["l3_trip"]
    result = um.batch(
        cases,
        gold,
        {"l1_bank": "It is 4429853327", "l2_cars": "your honda accord", "l3_trip": "x", "nope": "?"},
    )
    assert result["cases"]["l1_bank"]["reward"] == 1.0
    assert result["cases"]["l2_cars"]["reward"] == 0.5
    assert result["cases"]["l3_trip"]["status"].startswith("skipped")
    assert result["cases"]["nope"]["status"] == "unknown test_id"
    assert result["layers"]["overall"] == 0.75 and result["scored"] == 2


# --------------------------------------------------------------------------- command line


def test_list_prints_cases_and_reports_bad_files(
    suite: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    root, gold = suite
    assert (
        cli.main(["--suite", "user-memory", "--test-cases-dir", str(root), "--gold", str(gold), "--list"])
        == 0
    )
    out, err = capsys.readouterr()
    for test_id in ("l1_bank", "l2_cars", "l3_trip"):
        assert test_id in out
    assert "4 invalid test case file(s)" in out
    assert "02_two.yaml" in err and "exactly one conversation" in err


def test_missing_test_cases_dir_says_what_to_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--test-cases-dir", str(tmp_path / "nope"), "--list"]) == 2
    assert "--test-cases-dir" in capsys.readouterr().err


def test_compare_writes_json_shape(
    suite: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, gold = suite
    responses = tmp_path / "responses.json"
    _write(
        responses,
        {
            "_comment": "x",
            "cards": {"l1_bank": "4429853327", "l2_cars": "Honda Accord"},
            "no_memory": {"l1_bank": "?"},
        },
    )
    out_path = tmp_path / "out" / "compare.json"
    systems = ["no_memory", "recent_window", "full_context", "bm25_turns", "dense_turns"]
    if goodmemory_available():
        systems.insert(0, "goodmemory")
    argv = [
        "--test-cases-dir",
        str(root),
        "--gold",
        str(gold),
        "--mode",
        "compare",
        "--metric",
        "keyword-recall",
        "--budget",
        "60",
        "--embedder",
        "hashing",
        "--systems",
        ",".join(systems),
        "--responses",
        str(responses),
        "--output",
        str(out_path),
        "--no-progress",
    ]
    assert cli.main(argv) == 0
    data = json.loads(out_path.read_text())
    assert list(data) == [*systems, "cards", "no_memory@responses"]
    for entry in data.values():
        assert set(entry) == {"layer1", "layer2", "layer3", "overall", "tokens"}
    assert data["full_context"]["overall"] == 1.0
    assert data["no_memory"]["overall"] == 0.0 and data["no_memory"]["tokens"] == 0
    assert data["full_context"]["tokens"] > 60  # no budget, and it says so
    for name in systems:
        if name != "full_context":
            assert data[name]["tokens"] <= 60, name
    assert data["bm25_turns"]["layer1"] == 1.0  # the one turn with the number ranks first
    assert data["cards"] == {
        "layer1": 1.0,
        "layer2": 0.5,
        "layer3": None,
        "overall": 0.75,
        "tokens": pytest.approx((count_tokens("4429853327") + count_tokens("Honda Accord")) / 2),
    }
    out = capsys.readouterr().out
    assert "Overall" in out and "mean over all 3 scored cases" in out


def test_batch_mode_cli(suite: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root, gold = suite
    answers = tmp_path / "answers.json"
    _write(answers, {"l1_bank": "4429853327", "l3_trip": "renew your PASSPORT"})
    out_path = tmp_path / "batch.json"
    argv = [
        "--test-cases-dir",
        str(root),
        "--gold",
        str(gold),
        "--mode",
        "batch",
        "--responses",
        str(answers),
        "--output",
        str(out_path),
    ]
    assert cli.main(argv) == 0
    data = json.loads(out_path.read_text())
    assert data["layers"] == {"layer1": 1.0, "layer2": None, "layer3": 0.5, "overall": 0.75}
    assert "l3_trip" in capsys.readouterr().out


def test_interactive_reads_piped_commands(suite: tuple[Path, Path]) -> None:
    root, gold_path = suite
    cases, _ = um.load_test_cases(root)
    gold = um.load_gold(gold_path)
    stdin = io.StringIO(
        "list\nshow l2_cars\nanswer l2_cars You have a honda accord\nbogus\nshow nope\nquit\n"
    )
    out = io.StringIO()
    assert cli.interactive(cases, gold, None, 500, stdin, out) == 0
    text = out.getvalue()
    assert "l1_bank\tlayer1" in text
    assert "Which car needs service?" in text
    assert "reward 0.500" in text
    assert "unknown command 'bogus'" in text and "unknown test id 'nope'" in text


# --------------------------------------------------------------------------- baselines


def _sessions() -> list[Session]:
    turns = [Turn(f"c:{i}", "user", f"message {i} about topic {i}") for i in range(20)]
    turns[3] = Turn("c:3", "user", "my passport expires in February")
    return [Session("c", None, turns)]


def test_baselines_respect_budget_and_cite_turns() -> None:
    for system in (RecentWindow(), BM25Turns(), NoMemory(), FullContext()):
        system.load("u", _sessions())
        ctx = system.context("u", "when does my passport expire?", 40)
        if system.name == "full_context":
            assert len(ctx.cited) == 20 and ctx.tokens > 40
        else:
            assert ctx.tokens <= 40 and ctx.tokens == count_tokens(ctx.text)
        if system.name == "bm25_turns":
            assert ctx.cited[0] == "c:3"
        if system.name == "recent_window":
            assert ctx.cited[-1] == "c:19" and "c:0" not in ctx.cited
        system.close()


# --------------------------------------------------------------------------- LoCoMo


def _locomo_sample() -> list[dict]:
    return [
        {
            "sample_id": "conv-x",
            "conversation": {
                "speaker_a": "Alice",
                "speaker_b": "Bob",
                "session_1_date_time": "1:56 pm on 8 May, 2023",
                "session_1": [
                    {"speaker": "Alice", "dia_id": "D1:1", "text": "I adopted a dog named Rex."},
                    {
                        "speaker": "Bob",
                        "dia_id": "D1:2",
                        "text": "Look at this!",
                        "img_url": ["http://x"],
                        "blip_caption": "a photo of a sailboat",
                        "query": "boat",
                    },
                ],
                "session_2_date_time": "10:04 am on 19 June, 2023",
                "session_2": [
                    {"speaker": "Alice", "dia_id": "D2:1", "text": "Rex learned to fetch."},
                    {"speaker": "Bob", "dia_id": "D2:2", "text": "I bought a sailboat last week."},
                ],
                "session_3_date_time": "9:00 am on 1 July, 2023",
            },
            "qa": [
                {
                    "question": "What is the name of Alice's dog?",
                    "answer": "Rex",
                    "evidence": ["D1:1"],
                    "category": 4,
                },
                {
                    "question": "What did Bob buy?",
                    "answer": "a sailboat",
                    "evidence": ["D1:2; D2:02"],
                    "category": 1,
                },
                {
                    "question": "When did Rex learn to fetch?",
                    "answer": 2023,
                    "evidence": ["D:2:1", "D9:9"],
                    "category": 2,
                },
                {"question": "Unanswerable?", "adversarial_answer": "x", "evidence": ["D1:1"], "category": 5},
                {"question": "No evidence?", "answer": "?", "evidence": ["D"], "category": 3},
            ],
        }
    ]


def test_parse_locomo_date() -> None:
    assert parse_locomo_date("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56)
    assert parse_locomo_date("12:09 am on 13 September, 2023") == datetime(2023, 9, 13, 0, 9)
    assert parse_locomo_date("someday") is None


def test_normalize_evidence_repairs_ids() -> None:
    known = {"D1:2", "D2:2", "D11:26"}
    assert normalize_evidence(["D1:2; D2:02", "D:11:26", "D", "D1:2"], known) == (
        ["D1:2", "D2:2", "D11:26"],
        ["D"],
    )


def test_locomo_loader_on_synthetic_data(tmp_path: Path) -> None:
    path = tmp_path / "locomo.json"
    _write(path, _locomo_sample())
    (conv,) = load_locomo(path)
    assert conv.speakers == ("Alice", "Bob") and conv.user_id == "locomo:conv-x"
    assert [s.session_id for s in conv.sessions] == ["session_1", "session_2"]
    assert conv.sessions[1].at == datetime(2023, 6, 19, 10, 4)
    t = conv.sessions[0].turns[1]
    assert (t.message_id, t.role, t.name) == ("D1:2", "user", "Bob")
    assert t.content == "Bob: Look at this! [shares an image: a photo of a sailboat]"
    assert [q.evidence for q in conv.qa] == [["D1:1"], ["D1:2", "D2:2"], ["D2:1"], ["D1:1"], []]
    assert conv.qa[2].answer == "2023"
    assert sorted(conv.dropped_evidence) == ["D", "D9:9"]


def test_locomo_run_and_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "locomo.json"
    _write(path, _locomo_sample())
    convs = load_locomo(path)
    result = run_locomo(convs, [BM25Turns(), RecentWindow()], [1000], progress=False)
    assert result["questions"] == {"cat1": 1, "cat2": 1, "cat3": 0, "cat4": 1, "total": 3}
    assert result["skipped"]["category5_offline"] == 1 and result["skipped"]["no_valid_evidence"] == 1
    assert result["budgets"]["1000"]["recent_window"]["overall"] == 1.0  # everything fits
    assert result["budgets"]["1000"]["bm25_turns"]["cat4"] == 1.0
    assert evidence_recall(["D1:1", "D2:1"], ["D2:1", "D7:7"]) == 0.5
    out_path = tmp_path / "locomo_out.json"
    argv = [
        "--suite",
        "locomo",
        "--data",
        str(path),
        "--budgets",
        "10,1000",
        "--systems",
        "recent_window,bm25_turns",
        "--embedder",
        "hashing",
        "--no-progress",
        "--output",
        str(out_path),
    ]
    assert cli.main(argv) == 0
    data = json.loads(out_path.read_text())
    assert set(data["budgets"]) == {"10", "1000"}
    assert set(data["budgets"]["10"]["bm25_turns"]) == {"cat1", "cat2", "cat3", "cat4", "overall", "tokens"}
    assert data["budgets"]["10"]["bm25_turns"]["tokens"] <= 10
    captured = capsys.readouterr()
    assert "evidence recall @ 1000 tokens" in captured.out and "category 5" in captured.err


# --------------------------------------------------------------------------- real shared data (smoke)


@pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="shared data not available")
def test_smoke_real_user_memory_suite(tmp_path: Path) -> None:
    base = SHARED_DATA / "user-memory-evaluation"
    cases, problems = um.load_test_cases(base / "test_cases")
    assert problems == [] and len(cases) >= 8
    gold = um.load_gold(base / "fixtures" / "gold_facts.json")
    responses = um.load_responses(base / "fixtures" / "system_responses.example.json")
    summary, _ = um.compare(cases, gold, [NoMemory(), BM25Turns()], 500, responses)
    # the published Experiment 3-1 table, recomputed from the example responses
    assert summary["json_cards"]["overall"] == 1.0
    assert round(summary["simple_notes"]["layer1"], 3) == 0.417
    assert round(summary["simple_notes"]["overall"], 3) == 0.323
    assert summary["no_memory"]["overall"] == 0.0
    assert summary["bm25_turns"]["tokens"] <= 500


@pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="shared data not available")
def test_smoke_real_locomo_loads() -> None:
    convs = load_locomo(SHARED_DATA / "locomo" / "locomo10.json")
    assert len(convs) == 10
    scored = [q for c in convs for q in c.qa if q.category in (1, 2, 3, 4) and q.evidence]
    assert len(scored) > 1500
    assert all(s.at is not None for c in convs for s in c.sessions)
    result = run_locomo(convs[:1], [BM25Turns()], [500], progress=False)
    assert 0.0 < result["budgets"]["500"]["bm25_turns"]["overall"] <= 1.0


# --------------------------------------------------------------------------- LLM judge


def _verdict(p: int, r: int, reasoning: int, pro: int, veto: bool = False) -> str:
    def dim(g: int) -> dict:
        return {"grade": g, "evidence": "quoted evidence", "boundary_case": "applied"}

    return json.dumps(
        {
            "factual_precision": dim(p),
            "factual_recall": dim(r),
            "reasoning_correctness": dim(reasoning),
            "proactivity": dim(pro),
            "hallucination": {"veto": veto, "evidence": "none"},
            "summary": "ok",
        }
    )


def test_parse_judgement_reward_success_and_fail_closed() -> None:
    j = um.parse_judgement(json.loads(_verdict(4, 4, 3, 2)))
    assert j.reward == pytest.approx((1 + 1 + 2 / 3 + 1 / 3) / 4) and j.success
    j = um.parse_judgement(json.loads(_verdict(2, 4, 4, 4)))
    assert not j.success and j.reward == pytest.approx((1 / 3 + 3) / 4)
    j = um.parse_judgement(json.loads(_verdict(4, 4, 4, 4, veto=True)))
    assert j.veto and j.reward == 0.0 and not j.success
    data = json.loads(_verdict(4, 4, 4, 4))
    del data["proactivity"]
    j = um.parse_judgement(data)
    assert j.reward == 0.0 and not j.success and "proactivity" in (j.error or "")
    data = json.loads(_verdict(4, 4, 4, 4))
    data["factual_recall"]["grade"] = 5
    assert um.parse_judgement(data).reward == 0.0
    assert um.parse_judgement(["not", "an", "object"]).reward == 0.0


def test_llm_judge_against_scripted_server(suite: tuple[Path, Path]) -> None:
    from goodmemory.llm import LLMClient
    from goodmemory.testing.openai_server import ScriptedOpenAIServer

    root, _ = suite
    cases, _ = um.load_test_cases(root, category="layer1")
    with ScriptedOpenAIServer(
        replies=[_verdict(4, 4, 4, 1), "this is not json", "The number is 4429853327."]
    ) as srv:
        judge = um.LLMJudge(LLMClient(base_url=srv.base_url, api_key="test", max_retries=0))
        good = judge.judge(cases[0], "Your account is 4429853327.")
        bad = judge.judge(cases[0], "whatever")
        answer = judge.answer(cases[0], "[bank_1:1] assistant: Your account number is 4429853327.")
        judge.close()
        first = srv.chat_requests[0]["messages"]
    assert good.success and good.reward == pytest.approx(0.75)
    assert bad.reward == 0.0 and "unparseable" in (bad.error or "")
    assert answer == "The number is 4429853327."
    assert (
        "4429853327" in first[1]["content"] and "What was my checking account number?" in first[1]["content"]
    )


def test_batch_llm_judge_cli(
    suite: tuple[Path, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from goodmemory.testing.openai_server import ScriptedOpenAIServer

    root, gold = suite
    answers = tmp_path / "answers.json"
    _write(answers, {"l1_bank": "4429853327", "l2_cars": "Honda?"})
    out_path = tmp_path / "judge.json"
    with ScriptedOpenAIServer(replies=[_verdict(4, 4, 4, 4), _verdict(4, 4, 4, 4, veto=True)]) as srv:
        monkeypatch.setenv("OPENAI_BASE_URL", srv.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test")
        argv = [
            "--test-cases-dir",
            str(root),
            "--gold",
            str(gold),
            "--mode",
            "batch",
            "--metric",
            "llm-judge",
            "--responses",
            str(answers),
            "--output",
            str(out_path),
        ]
        assert cli.main(argv) == 0
    data = json.loads(out_path.read_text())
    assert data["cases"]["l1_bank"]["reward"] == 1.0 and data["cases"]["l1_bank"]["passed"]
    assert data["cases"]["l2_cars"]["veto"] and data["cases"]["l2_cars"]["reward"] == 0.0
    assert data["layers"]["overall"] == 0.5
    assert "hallucination veto" in capsys.readouterr().out


def test_compare_llm_judge_answers_from_context(suite: tuple[Path, Path], tmp_path: Path) -> None:
    from goodmemory.llm import LLMClient
    from goodmemory.testing.openai_server import ScriptedOpenAIServer

    def reply(body: dict) -> str:
        system = body["messages"][0]["content"]
        if system.startswith("You grade"):
            answer = body["messages"][1]["content"].rsplit("# Assistant answer to grade\n", 1)[1]
            return _verdict(4, 4, 4, 4) if "remembered" in answer else _verdict(1, 1, 1, 1)
        return "remembered" if "no memory of this user" not in system else "I do not know."

    root, gold_path = suite
    cases, _ = um.load_test_cases(root)
    with ScriptedOpenAIServer(default=reply) as srv:
        judge = um.LLMJudge(LLMClient(base_url=srv.base_url, api_key="test", max_retries=0))
        summary, per_case = um.compare(
            cases,
            {},
            [NoMemory(), FullContext()],
            100,
            scorer=lambda c, a: judge.judge(c, a).reward,
            answerer=judge.answer,
        )
        judge.close()
    assert summary["no_memory"]["overall"] == 0.0
    assert summary["full_context"]["overall"] == 1.0 and len(per_case["full_context"]) == 3


@pytest.mark.skipif(not goodmemory_available(), reason="goodmemory.create_good_memory not importable yet")
def test_goodmemory_system_cites_locomo_dia_ids(tmp_path: Path) -> None:
    from goodmemory.embeddings import HashingEmbedder
    from goodmemory.eval.suites.baselines import GoodMemorySystem

    path = tmp_path / "locomo.json"
    _write(path, _locomo_sample())
    (conv,) = load_locomo(path)
    system = GoodMemorySystem(embedder=HashingEmbedder())
    system.load(conv.user_id, conv.sessions)
    ctx = system.context(conv.user_id, "What is the name of Alice's dog?", 300, conv.question_at)
    known = {t.message_id for s in conv.sessions for t in s.turns}
    assert ctx.tokens <= 300 and ctx.cited and set(ctx.cited) <= known
    assert "D1:1" in ctx.cited
    system.close()
