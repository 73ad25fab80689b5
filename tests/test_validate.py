"""`seorap validate`: every kind of problem is reported, located, and all at once."""

import copy
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from seorap.cli.main import cli

MINIMAL = {
    "id": "t-min",
    "title": "작은 궤적",
    "subject": "테스트상사",
    "category": "C5",
    "difficulty": "L1",
    "trajectoryType": "linear-evolution",
    "extrinsicQA": [{"question": "지금 DB는?", "answer": "Aurora"}],
    "singleQA": [{"question": "DB는?", "answer": "Aurora", "state": 1}],
    "states": [
        {
            "index": 0,
            "timestamp": "2026-01-05",
            "action": "create",
            "confidence": 0.7,
            "claims": ["DB는 PostgreSQL"],
            "docClaims": ["DB는 PostgreSQL"],
            "staleClaims": [],
            "document": {
                "id": "t-min-d0",
                "type": "email",
                "author": {"name": "김", "role": "팀장"},
                "title": "현황",
                "text": "우리 DB는 PostgreSQL 입니다.",
            },
        },
        {
            "index": 1,
            "timestamp": "2026-02-05",
            "action": "supersede",
            "confidence": 0.8,
            "claims": ["DB는 Aurora"],
            "docClaims": ["DB는 Aurora"],
            "staleClaims": ["DB는 PostgreSQL"],
            "document": {
                "id": "t-min-d1",
                "type": "slack",
                "author": {"name": "이", "role": "엔지니어"},
                "title": "결정",
                "text": "Aurora로 옮겼습니다.",
            },
        },
    ],
    "distractors": [],
}


def write(tmp_path: Path, data, name="t.json") -> Path:
    path = tmp_path / name
    path.write_text(
        json.dumps(data, ensure_ascii=False) if not isinstance(data, str) else data,
        encoding="utf-8",
    )
    return path


def run(path: Path, *args):
    return CliRunner().invoke(cli, ["validate", str(path), *args])


def broken(**edits):
    data = copy.deepcopy(MINIMAL)
    for dotted, value in edits.items():
        target = data
        parts = dotted.split(".")
        for part in parts[:-1]:
            target = target[int(part)] if part.isdigit() else target[part]
        last = parts[-1]
        if value is DELETE:
            del target[last]
        else:
            target[int(last) if last.isdigit() else last] = value
    return data


DELETE = object()


def test_minimal_trajectory_is_valid(tmp_path):
    result = run(write(tmp_path, MINIMAL))
    assert result.exit_code == 0, result.output
    assert "ok: 1 trajectory valid" in result.output


CASES = [
    ("json syntax", '{"id": "x",\n  "title": }', "t.json: 2:12: JSON syntax"),
    ("missing field", broken(title=DELETE), "t.json: title: required field is missing"),
    ("bad enum", broken(category="C9"), "t.json: category: Input should be"),
    ("bad action enum", broken(**{"states.1.action": "mutate"}), "t.json: states[1].action:"),
    (
        "bad doc type",
        broken(**{"states.0.document.type": "memo"}),
        "t.json: states[0].document.type:",
    ),
    ("bad date", broken(**{"states.1.timestamp": "2026-13-45"}), "t.json: states[1].timestamp:"),
    ("index order", broken(**{"states.1.index": 5}), "t.json: states[1].index: expected 1"),
    (
        "docClaim not in claims",
        broken(**{"states.1.docClaims": ["DB는 AlloyDB"]}),
        "t.json: states[1].docClaims[0]: not in this state's claims",
    ),
    (
        "stale in claims",
        broken(**{"states.1.staleClaims": ["DB는 Aurora"]}),
        "t.json: states[1].staleClaims[0]: still in this state's claims",
    ),
    (
        "singleQA state out of range",
        broken(**{"singleQA.0.state": 7}),
        "t.json: singleQA[0].state: out of range: 7",
    ),
    (
        "distractor afterState out of range",
        broken(
            distractors=[
                {
                    "id": "x0",
                    "type": "slack",
                    "author": {"name": "박"},
                    "title": "잡담",
                    "text": "점심 메뉴",
                    "afterState": 3,
                }
            ]
        ),
        "t.json: distractors[0].afterState: out of range: 3",
    ),
    (
        "empty text",
        broken(**{"states.0.document.text": "   "}),
        "t.json: states[0].document.text: document text is empty",
    ),
    ("confidence range", broken(**{"states.0.confidence": 1.5}), "t.json: states[0].confidence:"),
    (
        "first state not create",
        broken(**{"states.0.action": "update"}),
        "t.json: states[0].action: the first state must be 'create'",
    ),
]


@pytest.mark.parametrize("name,data,expected", CASES, ids=[c[0] for c in CASES])
def test_each_problem_is_located(tmp_path, name, data, expected):
    result = run(write(tmp_path, data))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert any(
        line.startswith(str(tmp_path / expected.split(":", 1)[0]))
        and expected.split(": ", 1)[1] in line
        for line in lines
    ), result.output


def test_duplicate_ids_across_files(tmp_path):
    write(tmp_path, MINIMAL, "a.json")
    write(tmp_path, MINIMAL, "b.json")
    result = run(tmp_path)
    assert result.exit_code == 1
    assert "b.json: id: trajectory id 't-min' already used" in result.output
    assert "b.json: states[0].document.id: document id 't-min-d0' already used" in result.output


def test_all_problems_reported_not_only_the_first(tmp_path):
    data = broken(
        **{"states.1.docClaims": ["없는 주장"], "singleQA.0.state": 9, "states.0.document.text": ""}
    )
    result = run(write(tmp_path, data))
    problems = [line for line in result.output.splitlines() if line.startswith(str(tmp_path))]
    assert len(problems) == 3, result.output


def test_missing_path(tmp_path):
    result = run(tmp_path / "nope")
    assert result.exit_code == 1
    assert "no such file or folder" in result.output


def test_json_summary_counts_minimal(tmp_path):
    result = run(write(tmp_path, MINIMAL), "--json")
    assert result.exit_code == 0
    out = json.loads(result.output)
    assert out["trajectories"] == 1 and out["states"] == 2 and out["documents"] == 2
    assert out["claims"] == 2 and out["single_questions"] == 1 and out["compound_questions"] == 1
    assert out["by_doc_type"] == {"email": 1, "slack": 1}
    assert out["words"]["L1"] == {"min": 2, "median": 3.0, "max": 4}  # 4 and 2 words
