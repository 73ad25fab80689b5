"""`seorap judge`: one pair, a JSONL file of pairs, --json, bad input in one located sentence."""

import json

from click.testing import CliRunner

from seorap.cli.main import cli
from seorap.engine.scoring import lexical


def invoke(*args):
    return CliRunner().invoke(cli, ["judge", *args])


def test_one_pair_prints_verdict_and_rationale():
    r = invoke(
        "--expected", "5년 동안 보관, 매일 새벽 3시에 수행", "--answer", "매일 새벽 3시에 수행"
    )
    assert r.exit_code == 0, r.output
    assert r.output.startswith("PARTIAL  PARTIAL [missing-value]") and "5년" in r.output


def test_one_pair_json_with_question():
    r = invoke(
        "--expected",
        "4월 13일",
        "--answer",
        "출시 목표일은 4월 13일 / 출시 목표일은 3월 30일",
        "--question",
        "출시 목표일은 언제인가?",
        "--json",
    )
    assert r.exit_code == 0, r.output
    row = json.loads(r.output)
    assert row["label"] == "NO" and row["score"] == 0.0 and "[multi-value]" in row["rationale"]
    assert row["judge"] == "lexical" and row["rules"] == lexical.RULES_VERSION


def test_pairs_file_one_object_per_pair(tmp_path):
    path = tmp_path / "pairs.jsonl"
    rows = [
        {"id": "a", "expected": "3월 5일 배포 예정", "answer": "3월 5일 배포 예정은 취소되었다"},
        {"expected": "월 이용료는 3만 원", "answer": "월 이용료는 30,000원"},
        {"expected": "채용은 2명", "answer": "채용은 2명", "question": "몇 명?"},
    ]
    path.write_text(
        "\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n\n", encoding="utf-8"
    )
    r = invoke("--pairs", str(path), "--json")
    assert r.exit_code == 0, r.output
    out = [json.loads(line) for line in r.output.splitlines()]
    assert [(o["id"], o["label"]) for o in out] == [("a", "NO"), (2, "YES"), (3, "YES")]
    r = invoke("--pairs", str(path), "--judge-prompt", "lenient")
    assert r.exit_code == 0 and r.output.splitlines()[0].startswith(
        "a: YES"
    )  # lenient ignores retraction


def test_bad_input_is_one_located_sentence(tmp_path):
    path = tmp_path / "pairs.jsonl"
    path.write_text(
        '{"expected": "x", "answer": "y"}\nnot json\n{"expected": 3, "answer": "y"}\n',
        encoding="utf-8",
    )
    r = invoke("--pairs", str(path))
    assert r.exit_code == 1
    assert (
        f"{path}:2: not a JSON object" in r.output
        and f"{path}:3: expected must be a string" in r.output
    )
    assert "Traceback" not in r.output
    r = invoke("--expected", "x")
    assert r.exit_code == 2 and "give --expected and --answer" in r.output
    r = invoke("--pairs", str(path), "--expected", "x", "--answer", "y")
    assert r.exit_code == 2


def test_untrusted_text_is_shown_literally():
    r = invoke(
        "--expected", "코엑스 \x1b[31mE홀\x1b[0m 대관", "--answer", "코엑스 대관 [bold]취소[/bold]"
    )
    assert r.exit_code == 0 and "\x1b" not in r.output


def test_pairs_carry_reference_dates_for_relative_dates(tmp_path):
    pairs = tmp_path / "pairs.jsonl"
    rows = [
        {"id": "a", "expected": "점검은 3월 10일", "answer": "점검은 다음 주 화요일"},
        {
            "id": "b",
            "expected": "점검은 3월 10일",
            "answer": "점검은 다음 주 화요일",
            "answer_date": "2026-03-04",
        },
    ]
    pairs.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    r = invoke("--pairs", str(pairs), "--json")
    assert r.exit_code == 0, r.output
    got = {x["id"]: x["label"] for x in map(json.loads, r.output.splitlines())}
    assert got == {"a": "PARTIAL", "b": "YES"}  # unresolved without a reference date
    pairs.write_text('{"expected": "x", "answer": "y", "expected_date": "3/4"}\n')
    r = invoke("--pairs", str(pairs))
    assert r.exit_code == 1 and "expected_date must be an ISO date" in r.output
