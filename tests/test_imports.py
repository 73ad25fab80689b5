"""`seorap import locomo|longmemeval` on hand-made samples in each dataset's exact format
(tests/data/imports, written for these tests: no dataset text), and `seorap validate`'s findings."""

import gzip
import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from seorap.cli.main import cli
from seorap.engine.corpus import load_corpus
from seorap.engine.corpus.findings import findings, imported_summary
from seorap.engine.corpus.importers import DatasetError
from seorap.engine.corpus.importers.locomo import import_locomo
from seorap.engine.corpus.importers.longmemeval import import_longmemeval

DATA = Path(__file__).parent / "data" / "imports"
LOCOMO = DATA / "locomo_sample.json"
LME = DATA / "longmemeval_sample.json"


@pytest.fixture
def locomo(tmp_path):
    import_locomo(LOCOMO, tmp_path / "locomo", version="original")
    return load_corpus(tmp_path / "locomo")


@pytest.fixture
def lme(tmp_path):
    import_longmemeval(LME, tmp_path / "lme", version="cleaned")
    return load_corpus(tmp_path / "lme")


def test_locomo_sessions_are_dated_chats_in_session_order(locomo):
    t = locomo.get("conv-a1")
    assert t.language == "en" and t.category is None and t.source is not None
    assert [s.timestamp for s in t.states] == ["2021-05-08T13:56", "2022-03-03T09:05"]
    doc = t.states[0].document
    assert doc.type == "chat" and doc.author.name == "Ines and Tomas" and doc.author.role == ""
    assert [turn.id for turn in doc.turns] == ["D1:1", "D1:2", "D1:3"]
    assert doc.text.splitlines()[0] == "Ines: I started rowing on the river, twice a week."


def test_locomo_image_turns_keep_their_caption(locomo):
    turns = locomo.get("conv-a1").states[1].document.turns
    assert turns[1].text == (
        "Show me the first bowl you fire. [image: a photo of a blue bowl on a wooden table]"
    )
    assert turns[2].text == "[image: a photo of a cracked mug]"  # an image without words


def test_locomo_questions_keep_kind_evidence_and_answers_as_text(locomo):
    qa = locomo.get("conv-a1").single_qa
    assert [(q.kind, q.kind_name) for q in qa[:5]] == [
        ("1", "multi-hop"),
        ("2", "temporal"),
        ("3", "open-domain"),
        ("4", "single-hop"),
        ("5", "adversarial"),
    ]
    assert qa[3].answer == "2021"  # a number in the file
    assert qa[0].evidence == ["D1:2"]
    assert qa[4].answer == "" and qa[4].excluded and qa[4].adversarial_answer == "a blue bowl"
    assert qa[5].excluded is None  # an adversarial item with an answer is scored


def test_locomo_source_records_digest_and_version(locomo):
    source = locomo.get("conv-a2").source
    assert source.sha256 == hashlib.sha256(LOCOMO.read_bytes()).hexdigest()
    assert source.dataset_version == "original" and source.file == LOCOMO.name


def test_locomo_findings(locomo):
    summary = imported_summary(locomo.trajectories)
    assert summary["excluded"] == 1 and summary["scored_questions"] == 7
    assert summary["by_kind"]["4 single-hop"] == 3
    messages = [f.message for f in findings(locomo.trajectories)]
    assert messages[0].startswith("1 item excluded from scoring, 7 scored")
    assert any("state no expected claims" in m and "n/a" in m for m in messages)
    cited = [f for f in findings(locomo.trajectories) if "evidence" in f.message]
    assert cited[0].located == ("conv-a1: singleQA[6].evidence: 'D9:9' names no turn or session",)


def test_longmemeval_mapping(lme):
    t = lme.get("q-tea-01")
    assert [s.document.source_id for s in t.states] == ["filler_91", "answer_tea_1"]
    assert t.states[0].timestamp == "2023-05-20T02:21"
    assert t.states[1].document.turns[0].has_answer
    (q,) = t.single_qa
    assert (q.kind, q.asked_at, q.evidence) == (
        "single-session-user",
        "2023-06-02T08:15",
        ["answer_tea_1"],
    )
    assert lme.get("q-count-04").single_qa[0].answer == "3"


def test_longmemeval_abstention_is_its_own_kind(lme):
    q = lme.get("q-dog-03_abs").single_qa[0]
    assert q.abstention and q.kind == "abstention"
    assert q.kind_name == "abstention (temporal-reasoning)"


def test_longmemeval_findings_name_questions_asked_early(lme):
    summary = imported_summary(lme.trajectories)
    assert summary["asked_before_last_session"] == 1 and summary["abstention"] == 1
    early = next(f for f in findings(lme.trajectories) if "before their last" in f.message)
    assert early.located == (
        "q-move-02: singleQA[0]: asked 2023-04-01T10:00, before states[1] of 2023-04-10T18:30",
    )


def test_limit_and_types(tmp_path):
    result = import_longmemeval(LME, tmp_path / "a", types=["abstention", "multi-session"])
    assert result.trajectories == 2
    assert import_longmemeval(LME, tmp_path / "b", limit=1).trajectories == 1
    result = import_locomo(LOCOMO, tmp_path / "c", types=["temporal", "4"])
    assert sorted(result.by_kind) == ["2 temporal", "4 single-hop"]
    with pytest.raises(DatasetError, match="LoCoMo's kinds are 1 multi-hop"):
        import_locomo(LOCOMO, tmp_path / "d", types=["7"])


def _write(tmp_path, data, name="bad.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def _lme_item(**changes):
    item = json.loads(LME.read_text())[0]
    item.update(changes)
    return item


@pytest.mark.parametrize(
    ("importer", "data", "message"),
    [
        (import_locomo, '[{"sample_id": ', "line 1 column 16: not valid JSON"),
        (import_locomo, {"sample_id": "x"}, "byte 0: not a JSON list"),
        (import_locomo, [_lme_item()], "conversation 0: a LongMemEval question"),
        (import_longmemeval, json.loads(LOCOMO.read_text()), "a LoCoMo conversation"),
        (
            import_longmemeval,
            [_lme_item(haystack_dates=["2023/05/20 (Sat) 02:21"])],
            "question 0 (q-tea-01): 2 haystack_sessions, 1 haystack_dates",
        ),
        (import_longmemeval, [_lme_item(question_type="trivia")], "question_type 'trivia'"),
        (
            import_longmemeval,
            [_lme_item(question_date="next Tuesday")],
            "question_date: date 'next Tuesday'",
        ),
        (import_longmemeval, [_lme_item(question_id="../etc")], "is not a plain name"),
        (import_longmemeval, [], "nothing to import"),
    ],
)
def test_bad_files_get_one_located_sentence(tmp_path, importer, data, message):
    path = _write(tmp_path, data)
    with pytest.raises(
        DatasetError,
    ) as info:
        importer(path, tmp_path / "out")
    assert message in str(info.value) and str(path) in str(info.value)
    assert "\n" not in str(info.value)


def test_locomo_unknown_category_is_located(tmp_path):
    data = json.loads(LOCOMO.read_text())
    data[1]["qa"][0]["category"] = 6
    with pytest.raises(DatasetError, match=r"conversation 1 \(conv-a2\): qa\[0\]: category 6"):
        import_locomo(_write(tmp_path, data), tmp_path / "out")


def test_cli_import_and_validate(tmp_path):
    out = tmp_path / "corpus"
    runner = CliRunner()
    result = runner.invoke(cli, ["import", "longmemeval", str(LME), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "wrote 4 trajectories (6 sessions, 4 questions; 0 excluded)" in result.output
    again = runner.invoke(cli, ["import", "longmemeval", str(LME), "--out", str(out)])
    assert again.exit_code == 1 and "already holds *.json files" in again.output
    checked = runner.invoke(cli, ["validate", str(out)])
    assert checked.exit_code == 0 and "note: 1 abstention item, their own kind" in checked.output
    wrong = runner.invoke(cli, ["import", "locomo", str(LME), "--out", str(tmp_path / "x")])
    assert wrong.exit_code == 1 and "use `seorap import longmemeval`" in wrong.output


def test_hand_written_corpus_still_needs_its_fields(tmp_path):
    data = json.loads(
        (Path(__file__).parents[1] / "fixtures/ko-mini/ko-c5-garam-db.json").read_text()
    )
    del data["difficulty"]
    from seorap.engine.corpus.validate import validate_path  # here: only this test needs it

    problems = [str(p) for p in validate_path(_write(tmp_path, data)).problems]
    assert problems == [
        f"{tmp_path / 'bad.json'}: difficulty: required field is missing "
        "(only an imported set, with `source`, may leave it out)"
    ]


def test_gold_contests_name_imported_items(tmp_path):
    corpus = tmp_path / "c"
    import_locomo(LOCOMO, corpus)
    db = tmp_path / "runs.db"
    runner = CliRunner()
    assert (
        runner.invoke(
            cli,
            ["run", "--corpus", str(corpus), "--system", "oracle", "--db", str(db), "--offline"],
        ).exit_code
        == 0
    )
    out = runner.invoke(
        cli,
        [
            "gold",
            "contest",
            "--corpus",
            str(corpus),
            "--trajectory",
            "conv-a1",
            "--item",
            "single/0",
            "--reason",
            "two answers in one",
            "--db",
            str(db),
        ],
    )
    assert out.exit_code == 0, out.output
    assert "contested conv-a1 single/0 (question): What did Tomas sign up for" in out.output
    checked = runner.invoke(
        cli, ["validate", str(corpus), "--ledger", str(tmp_path / "runs.gold.jsonl")]
    )
    assert checked.exit_code == 0, checked.output
    found = runner.invoke(cli, ["gold", "suspects", "--db", str(db), "--corpus", str(corpus)])
    assert found.exit_code == 0 and "only a model judge's scorings are read" in found.output


def test_syntax_errors_are_located_by_line_and_column(tmp_path):
    path = _write(tmp_path, '[{"question_id": "x",\n "b": tru}]')
    with pytest.raises(DatasetError, match=r"bad.json: line 2 column 7: not valid JSON"):
        import_longmemeval(path, tmp_path / "out")
    path.write_bytes(b'[{"sample_id": "a\xff"}]')
    with pytest.raises(DatasetError, match=r"bad.json: byte 17: not UTF-8 text"):
        import_locomo(path, tmp_path / "out")
    path.write_bytes(gzip.compress(LME.read_bytes()))
    with pytest.raises(DatasetError, match="gzip-compressed; decompress it first"):
        import_longmemeval(path, tmp_path / "out")


def test_a_byte_order_mark_is_read_past(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + LME.read_bytes())
    assert import_longmemeval(path, tmp_path / "out").trajectories == 4


def test_empty_sessions_are_left_out_and_said(tmp_path):
    data = json.loads(LOCOMO.read_text())
    data[1]["conversation"]["session_2"] = []
    data[1]["conversation"]["session_2_date_time"] = "1:00 pm on 1 July, 2023"
    lme = [
        _lme_item(haystack_sessions=[[], json.loads(LME.read_text())[0]["haystack_sessions"][1]])
    ]
    result = import_locomo(_write(tmp_path, data), tmp_path / "a")
    assert result.notes == [
        f"{tmp_path / 'bad.json'}: conversation 1 (conv-a2): session_2 has no turns; left out"
    ]
    result = import_longmemeval(_write(tmp_path, lme, "l.json"), tmp_path / "b")
    assert result.notes[0].endswith("(q-tea-01): haystack_sessions[0] has no turns; left out")
    t = load_corpus(tmp_path / "b").get("q-tea-01")
    assert [(s.index, s.document.id) for s in t.states] == [(0, "q-tea-01-s1")]
