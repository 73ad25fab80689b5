"""The gold-error ledger (engine/corpus/gold.py), what contested gold does to the figures
(engine/scoring/gold.py) in every report format, the suspects (engine/scoring/gold_suspects.py) and
the commands (`seorap gold`, `seorap validate --ledger`), against values computed by hand."""

import csv
import io
import json

import pytest
import sqlite_utils
from click.testing import CliRunner
from rich.console import Console

from seorap.cli.main import cli
from seorap.cli.report_table import render_table
from seorap.engine.config import Config
from seorap.engine.corpus import gold, load_corpus
from seorap.engine.errors import InputProblems, UsageError
from seorap.engine.run.runner import run
from seorap.engine.scoring import gold_suspects
from seorap.engine.scoring.report import build_report
from seorap.engine.scoring.report_text import to_csv, to_json, to_markdown
from seorap.engine.scoring.score import score_run
from seorap.engine.store.database import open_db

CORPUS = "fixtures/ko-mini"
TRAJECTORY = "ko-c3-hiring-plan"
# ko-c3-hiring-plan: states 0 and 1 expect 4 claims, state 2 expects 5; 마감일 8월 28일 is claim 2
# of every state (s0/c2). Questions: compound/0 and single/0..2.
DEADLINE = "하반기 채용 지원 마감일은 8월 28일"


def _corpus():
    corpus = load_corpus(CORPUS)
    corpus.trajectories[:] = [t for t in corpus.trajectories if t.id == TRAJECTORY]
    return corpus


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gold")
    corpus = _corpus()
    db = open_db(folder / "runs.db")
    config = Config.offline()
    ids = run(corpus, ["oracle", "raw"], db, config, offline=True, score=False)
    for rid in ids:
        score_run(db, rid, config, corpus=corpus)
    return {"db": db, "corpus": corpus, "folder": folder, "ids": dict(zip(["oracle", "raw"], ids))}


# ---- the ledger ---------------------------------------------------------------------------------


def test_default_ledger_sits_beside_the_database():
    assert str(gold.default_ledger("/data/runs.db")) == "/data/runs.gold.jsonl"


def test_a_contest_is_one_line_with_who_when_why_keyed_by_the_corpus(tmp_path):
    corpus = _corpus()
    ledger = tmp_path / "g.jsonl"
    entry = gold.contest(corpus, TRAJECTORY, "s0/c2", " 날짜가 두 번 바뀐다 ", ledger, who="kim")
    (line,) = ledger.read_text(encoding="utf-8").splitlines()
    saved = json.loads(line)
    assert saved["corpus"] == corpus.digest and saved["text"] == DEADLINE
    assert (saved["kind"], saved["who"], saved["reason"]) == ("claim", "kim", "날짜가 두 번 바뀐다")
    assert saved["at"] and entry.item == "s0/c2"
    q = gold.contest(corpus, TRAJECTORY, "single/1", "r", ledger, who="kim")
    assert q.kind == "question" and q.text.endswith("언제인가요?")
    # the latest line of an item counts; a withdrawn contest takes it back out
    gold.contest(corpus, TRAJECTORY, "s0/c2", "잘못 봤다", ledger, who="kim", withdrawn=True)
    assert [c.item for c in gold.standing(gold.read(ledger), corpus.digest)] == ["single/1"]
    assert gold.standing(gold.read(ledger), "another-digest") == []


def test_a_contest_refuses_unknown_items_and_never_writes_into_the_corpus(tmp_path):
    corpus = _corpus()
    with pytest.raises(UsageError, match="has no claim s3/c0"):
        gold.contest(corpus, TRAJECTORY, "s3/c0", "r", tmp_path / "g.jsonl")
    with pytest.raises(UsageError, match="has no question single/3"):
        gold.contest(corpus, TRAJECTORY, "single/3", "r", tmp_path / "g.jsonl")
    with pytest.raises(UsageError, match="not an item"):
        gold.contest(corpus, TRAJECTORY, "claim 2", "r", tmp_path / "g.jsonl")
    with pytest.raises(UsageError, match="needs a reason"):
        gold.contest(corpus, TRAJECTORY, "s0/c2", "  ", tmp_path / "g.jsonl")
    with pytest.raises(UsageError, match="inside the corpus folder"):
        gold.contest(corpus, TRAJECTORY, "s0/c2", "r", corpus.root / "gold.jsonl")
    assert not (corpus.root / "gold.jsonl").exists()
    with pytest.raises(UsageError, match="cannot write the gold ledger .*no such file or folder"):
        gold.contest(corpus, TRAJECTORY, "s0/c2", "r", tmp_path / "missing" / "g.jsonl")


def test_a_broken_ledger_is_one_located_sentence(tmp_path):
    ledger = tmp_path / "g.jsonl"
    ledger.write_text('{"corpus": "x"}\nnot json\n', encoding="utf-8")
    with pytest.raises(InputProblems, match=r"g\.jsonl:1: not a contest"):
        gold.read(ledger)
    assert gold.read(tmp_path / "missing.jsonl") == []


def test_a_withdrawal_is_an_appended_line_that_takes_the_contest_back(tmp_path):
    corpus = _corpus()
    ledger = tmp_path / "g.jsonl"
    gold.contest(corpus, TRAJECTORY, "s0/c2", "날짜가 두 번 바뀐다", ledger, who="kim")
    # the claim recurs at states 1 and 2 (s1/c2, s2/c2): one item, withdrawn from any of them
    back = gold.withdraw(corpus, TRAJECTORY, "s1/c2", "공고를 다시 읽었다", ledger, who="lee")
    assert (back.withdrawn, back.who, back.reason, back.text) == (
        True,
        "lee",
        "공고를 다시 읽었다",
        DEADLINE,
    )
    lines = [json.loads(x) for x in ledger.read_text(encoding="utf-8").splitlines()]
    assert [(x["item"], x["withdrawn"]) for x in lines] == [("s0/c2", False), ("s1/c2", True)]
    assert lines[1]["at"] and gold.standing(gold.read(ledger), corpus.digest) == []
    # nothing in force: one sentence, nothing written (withdrawn again, or never contested)
    for item in ("s0/c2", "single/1"):
        with pytest.raises(UsageError, match=f"{TRAJECTORY} {item} is not contested in .*nothing"):
            gold.withdraw(corpus, TRAJECTORY, item, "r", ledger, who="lee")
    with pytest.raises(UsageError, match="a withdrawal needs a reason"):
        gold.withdraw(corpus, TRAJECTORY, "s0/c2", " ", ledger)
    with pytest.raises(UsageError, match="is not contested"):
        gold.withdraw(corpus, TRAJECTORY, "s0/c2", "r", tmp_path / "none.jsonl")
    assert not (tmp_path / "none.jsonl").exists()
    assert len(ledger.read_text(encoding="utf-8").splitlines()) == 2
    # contested again: in force again, with the new reason
    gold.contest(corpus, TRAJECTORY, "s2/c2", "다시 봐도 모호", ledger, who="kim")
    (again,) = gold.standing(gold.read(ledger), corpus.digest)
    assert (again.item, again.reason) == ("s2/c2", "다시 봐도 모호")
    # a contest made against another version of the corpus is not withdrawn from this one
    full = load_corpus(CORPUS)
    with pytest.raises(UsageError, match="was contested against corpus .* another version"):
        gold.withdraw(full, TRAJECTORY, "s0/c2", "r", ledger)


# ---- figures with and without contested items, and the ceiling, in every format -----------------


def _contest_two(scored, ledger):
    corpus = scored["corpus"]
    gold.contest(corpus, TRAJECTORY, "s0/c2", "마감일이 공고마다 다르다", ledger, who="kim")
    gold.contest(corpus, TRAJECTORY, "single/0", "답이 두 개로 읽힌다", ledger, who="kim")


def test_contested_items_change_the_figures_and_the_ceiling(scored, tmp_path):
    db, ledger = scored["db"], tmp_path / "g.jsonl"
    before = build_report(db, ledger=ledger)
    assert all(r.gold is None for r in before.runs)  # nothing contested: no gold block
    _contest_two(scored, ledger)
    after = {r.system: r for r in build_report(db, ledger=ledger).runs}
    oracle, raw = after["oracle"].gold, after["raw"].gold
    # intrinsic ceiling: 마감일 is one of 4, 4 and 5 claims of states 0, 1, 2 → (3/4 + 3/4 + 4/5) / 3
    ceiling = (0.75 + 0.75 + 0.8) / 3
    assert oracle.figures["intrinsic"].ceiling == pytest.approx(ceiling)
    # both stores hold every claim (full mode): 1.0 with or without, above the ceiling (flagged)
    for g in (oracle, raw):
        f = g.figures["intrinsic"]
        assert (f.with_contested.mean, f.without_contested.mean) == (1.0, 1.0)
        assert f.above_ceiling
    # single questions: oracle PARTIAL, PARTIAL, YES (since lexical-7 single/1's answer "하반기 채용
    # 지원 마감일은 8월 28일" is PARTIAL: its subject words are neither E's nor the question's);
    # raw PARTIAL, NO, NO; single/0 contested
    s = oracle.figures["extrinsic_single"]
    assert s.with_contested.mean == pytest.approx(2 / 3)
    assert s.without_contested.mean == pytest.approx(0.75) and s.ceiling == pytest.approx(2 / 3)
    assert not s.above_ceiling
    s = raw.figures["extrinsic_single"]
    assert s.with_contested.mean == pytest.approx(0.5 / 3)
    assert s.without_contested.mean == 0.0 and not s.above_ceiling
    # the compound question is not contested: ceiling 1, nothing flagged
    c = raw.figures["extrinsic"]
    assert c.ceiling == 1.0 and c.with_contested.mean == c.without_contested.mean == 0.5
    # "with" is the headline figure the aggregate shows
    assert s.with_contested.mean == pytest.approx(after["raw"].aggregate.extrinsic_single.mean)
    assert oracle.by_trajectory[TRAJECTORY]["extrinsic_single"]["ceiling"] == pytest.approx(2 / 3)
    assert [(c["item"], c["who"]) for c in oracle.contested] == [
        ("s0/c2", "kim"),
        ("single/0", "kim"),
    ]


def test_a_withdrawal_puts_the_figures_back_and_a_new_contest_moves_them_again(scored, tmp_path):
    db, ledger, corpus = scored["db"], tmp_path / "g.jsonl", scored["corpus"]
    rid = scored["ids"]["oracle"]

    def figures():
        (run,) = build_report(db, [rid], ledger=ledger).runs
        return run.gold

    _contest_two(scored, ledger)
    # oracle single: PARTIAL, PARTIAL, YES; single/0 contested → ceiling 2/3, without 0.75
    assert figures().figures["extrinsic_single"].ceiling == pytest.approx(2 / 3)
    gold.withdraw(corpus, TRAJECTORY, "single/0", "두 답 모두 맞다", ledger, who="lee")
    g = figures()
    assert [c["item"] for c in g.contested] == ["s0/c2"]
    s = g.figures["extrinsic_single"]  # back to uncontested: with = without = 2/3, ceiling 1
    assert s.with_contested.mean == s.without_contested.mean == pytest.approx(2 / 3)
    assert s.ceiling == 1.0 and not s.above_ceiling
    assert g.figures["intrinsic"].ceiling == pytest.approx((0.75 + 0.75 + 0.8) / 3)
    gold.withdraw(corpus, TRAJECTORY, "s0/c2", "마감일은 하나다", ledger, who="lee")
    assert figures() is None  # nothing contested: no gold block, every ceiling 1
    gold.contest(corpus, TRAJECTORY, "single/0", "역시 모호하다", ledger, who="kim")
    g = figures()
    s = g.figures["extrinsic_single"]
    assert (s.without_contested.mean, s.ceiling) == (pytest.approx(0.75), pytest.approx(2 / 3))
    assert g.figures["intrinsic"].ceiling == 1.0
    assert [(c["item"], c["reason"]) for c in g.contested] == [("single/0", "역시 모호하다")]


def test_every_format_shows_the_contest(scored, tmp_path):
    db, ledger = scored["db"], tmp_path / "g.jsonl"
    rid = scored["ids"]["raw"]
    plain = build_report(db, [rid], ledger=ledger)
    _contest_two(scored, ledger)
    report = build_report(db, [rid], ledger=ledger)

    data = json.loads(to_json(report))["runs"][0]["gold"]
    assert data["figures"]["extrinsic_single"]["ceiling"] == pytest.approx(2 / 3)
    assert json.loads(to_json(plain))["runs"][0]["gold"] is None

    header, first = list(csv.reader(io.StringIO(to_csv(report))))[:2]
    row = dict(zip(header, first))
    assert float(row["run_gold_extrinsic_single_ceiling"]) == pytest.approx(2 / 3)
    assert row["run_gold_extrinsic_single_without"] == "0.0"
    assert row["run_gold_intrinsic_above_ceiling"] == "True"
    assert row["run_gold_contested"] == "2"
    assert "run_gold_contested" not in to_csv(plain)

    md = to_markdown(report)
    assert "### Gold (2 contested" in md
    assert (
        "| extrinsic single | 0.17 (range 0.17–0.17, n=1) | 0.00 (range 0.00–0.00, n=1) | 0.67 | no |"
        in md
    )
    assert (
        "| intrinsic full | 1.00 (range 1.00–1.00, n=1) | 1.00 (range 1.00–1.00, n=1) | 0.77 | **yes** |"
        in md
    )
    assert "마감일이 공고마다 다르다 (kim," in md
    assert "Gold" not in to_markdown(plain)

    buffer = io.StringIO()
    render_table(report, Console(file=buffer, width=200))
    table = buffer.getvalue()
    assert "gold: 2 contested (ko-c3-hiring-plan s0/c2, ko-c3-hiring-plan single/0)" in table
    assert "intrinsic full: 1.00 (range 1.00–1.00, n=1) with contested" in table
    assert "ceiling 0.77 ⚠ ABOVE CEILING" in table
    assert "extrinsic single: 0.17 (range 0.17–0.17, n=1) with contested · 0.00 (range" in table


def test_the_report_reads_the_ledger_beside_the_database_by_default(scored):
    db, folder = scored["db"], scored["folder"]
    ledger = folder / "runs.gold.jsonl"
    try:
        _contest_two(scored, ledger)
        assert all(r.gold is not None for r in build_report(db).runs)
    finally:
        ledger.unlink()


# ---- the commands --------------------------------------------------------------------------------


def test_gold_contest_command_writes_beside_the_database(scored, tmp_path):
    db_path = tmp_path / "runs.db"
    open_db(db_path).conn.close()
    args = ["gold", "contest", "--corpus", CORPUS, "--trajectory", TRAJECTORY]
    out = CliRunner().invoke(
        cli, [*args, "--item", "s0/c2", "--reason", "모호", "--db", str(db_path)]
    )
    assert out.exit_code == 0, out.output
    assert "contested ko-c3-hiring-plan s0/c2 (claim)" in out.output
    (entry,) = gold.read(tmp_path / "runs.gold.jsonl")
    assert entry.corpus == load_corpus(CORPUS).digest
    bad = CliRunner().invoke(cli, [*args, "--item", "s0/c9", "--reason", "x", "--db", str(db_path)])
    assert bad.exit_code != 0 and "has no claim s0/c9" in bad.output
    neither = CliRunner().invoke(cli, [*args, "--item", "s0/c2", "--reason", "x"])
    assert neither.exit_code == 2 and "--ledger FILE" in neither.output


def test_gold_withdraw_command_appends_a_withdrawal_or_says_why_not(scored, tmp_path):
    db_path = tmp_path / "runs.db"
    open_db(db_path).conn.close()
    ledger = tmp_path / "runs.gold.jsonl"
    base = ["--corpus", CORPUS, "--trajectory", TRAJECTORY, "--db", str(db_path)]
    never = CliRunner().invoke(
        cli, ["gold", "withdraw", *base, "--item", "single/1", "--reason", "x"]
    )
    assert never.exit_code == 2 and not ledger.exists()
    assert f"{TRAJECTORY} single/1 is not contested in" in never.output
    assert "nothing to withdraw" in never.output and "Traceback" not in never.output
    CliRunner().invoke(cli, ["gold", "contest", *base, "--item", "single/1", "--reason", "모호"])
    out = CliRunner().invoke(
        cli,
        ["gold", "withdraw", *base, "--item", "single/1", "--reason", "다시 읽음", "--who", "lee"],
    )
    assert out.exit_code == 0, out.output
    assert "withdrew the contest of ko-c3-hiring-plan single/1 (question)" in out.output
    contest_line, withdrawal = gold.read(ledger)
    assert (withdrawal.withdrawn, withdrawal.who, withdrawal.reason) == (True, "lee", "다시 읽음")
    assert not contest_line.withdrawn
    again = CliRunner().invoke(
        cli, ["gold", "withdraw", *base, "--item", "single/1", "--reason", "x"]
    )
    assert again.exit_code == 2 and len(gold.read(ledger)) == 2


def test_validate_checks_a_ledger_against_its_corpus(tmp_path):
    ledger = tmp_path / "g.jsonl"
    full = load_corpus(CORPUS)
    gold.contest(full, TRAJECTORY, "s2/c4", "연기 시점이 둘", ledger, who="kim")
    ok = CliRunner().invoke(cli, ["validate", CORPUS, "--ledger", str(ledger)])
    assert ok.exit_code == 0 and "matches the corpus" in ok.output
    # made against another version of the corpus (a one-trajectory cut has another digest)
    gold.contest(_corpus(), TRAJECTORY, "s0/c1", "r", ledger, who="kim")
    # and an item this corpus does not have (a hand-edited line)
    entry = {**json.loads(ledger.read_text(encoding="utf-8").splitlines()[0]), "item": "s7/c0"}
    with open(ledger, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(entry, ensure_ascii=False) + "\n")
    bad = CliRunner().invoke(cli, ["validate", CORPUS, "--ledger", str(ledger)])
    assert bad.exit_code == 1
    assert "contest 2 (ko-c3-hiring-plan s0/c1): made against corpus" in bad.output
    assert "the corpus changed since" in bad.output
    assert "contest 3 (ko-c3-hiring-plan s7/c0): unknown item" in bad.output


def test_validate_knows_withdrawals(tmp_path):
    ledger = tmp_path / "g.jsonl"
    full = load_corpus(CORPUS)
    gold.contest(full, TRAJECTORY, "s2/c4", "연기 시점이 둘", ledger, who="kim")
    gold.withdraw(full, TRAJECTORY, "s2/c4", "하나로 읽힌다", ledger, who="kim")
    # a contest made against another version of the corpus, withdrawn since: no longer a problem
    gold.contest(_corpus(), TRAJECTORY, "s0/c1", "r", ledger, who="kim")
    gold.withdraw(_corpus(), TRAJECTORY, "s0/c1", "r", ledger, who="kim")
    ok = CliRunner().invoke(cli, ["validate", CORPUS, "--ledger", str(ledger)])
    assert ok.exit_code == 0 and "matches the corpus" in ok.output, ok.output
    # hand-edited lines: a withdrawal of an item the corpus lacks, one that withdraws nothing
    first = json.loads(ledger.read_text(encoding="utf-8").splitlines()[1])
    with open(ledger, "a", encoding="utf-8") as fh:
        fh.write(json.dumps({**first, "item": "s7/c0"}, ensure_ascii=False) + "\n")
        fh.write(json.dumps(first, ensure_ascii=False) + "\n")
    bad = CliRunner().invoke(cli, ["validate", CORPUS, "--ledger", str(ledger)])
    assert bad.exit_code == 1
    assert "withdrawal 5 (ko-c3-hiring-plan s7/c0): unknown item" in bad.output
    assert "withdrawal 6 (ko-c3-hiring-plan s2/c4): withdraws nothing" in bad.output
    assert "withdrawal 2" not in bad.output and "contest 3" not in bad.output


# ---- suspects (hand-built verdicts: no run needed) -------------------------------------------------


def _suspect_db(corpus, systems: dict[str, dict], judges: dict | None = None):
    """runs of ``corpus`` whose latest scoring gives each (kind, item) the label in ``systems``;
    every other claim verdict is YES, every other answer YES. ``judges``: a second scoring of the
    first run under another judge, with its own labels."""
    t = corpus.get(TRAJECTORY)
    db = sqlite_utils.Database(memory=True)
    n = 0

    def add(rid, scoring, judge, labels, at):
        nonlocal n
        db["scores"].insert(
            {"run_id": rid, "scoring": scoring, "trajectory_id": "", "created_at": at}
        )
        for s in t.states:
            for c, claim in enumerate(s.claims):
                n += 1
                label = labels.get(("claim", claim), "YES")
                db["verdicts"].insert(
                    dict(
                        id=str(n),
                        run_id=rid,
                        scoring=scoring,
                        trajectory_id=TRAJECTORY,
                        kind="claim",
                        setup="full",
                        source="store",
                        k=None,
                        item=f"s{s.index}/c{c}",
                        state_index=s.index,
                        expected=claim,
                        question=None,
                        label=label,
                        judge=judge,
                    )
                )
        for kind, items in (("compound", len(t.extrinsic_qa)), ("single", len(t.single_qa))):
            for i in range(items):
                for source, k in (("memory", 5), ("full-context", None)):
                    n += 1
                    label = labels.get((source, f"{kind}/{i}"), "YES")
                    db["verdicts"].insert(
                        dict(
                            id=str(n),
                            run_id=rid,
                            scoring=scoring,
                            trajectory_id=TRAJECTORY,
                            kind=kind,
                            setup="answer",
                            source=source,
                            k=k,
                            item=f"{kind}/{i}",
                            state_index=None,
                            expected="",
                            question="",
                            label=label,
                            judge=judge,
                        )
                    )

    for n_run, (system, labels) in enumerate(systems.items()):
        rid = f"{system}-run"
        db["runs"].insert(
            {
                "run_id": rid,
                "system": system,
                "corpus_digest": corpus.digest,
                "created_at": f"2026-01-0{n_run + 1}",
            }
        )
        add(rid, "lexical+reader", "lexical", labels, "2026-02-01")
    if judges:
        first = f"{next(iter(systems))}-run"
        add(first, "qwen+reader", "qwen", judges, "2026-01-15")  # older: not the latest scoring
    return db


def test_suspects_failed_by_every_system_with_their_document_lines():
    corpus = _corpus()
    never = {
        ("claim", DEADLINE): "NO",
        ("memory", "single/2"): "NO",
        ("full-context", "single/2"): "NO",
    }
    db = _suspect_db(corpus, {"oracle": never, "oracle-merged": never, "raw": never})
    found = gold_suspects.suspects(db, corpus)
    by_item = {s.item: s for s in found}
    assert set(by_item) == {"s0/c2", "single/2"}
    claim = by_item["s0/c2"]
    assert claim.why == gold_suspects.FAILED_BY_ALL and claim.complete
    assert claim.lines and all("8월 28일" in line for line in claim.lines)
    assert "raw: never YES (3 states)" in claim.detail
    question = by_item["single/2"]
    assert question.kind == "question" and "full-context: NO" in question.detail
    assert question.lines and any("프론트엔드" in line for line in question.lines)


def test_one_system_credited_clears_a_suspect_and_no_oracle_merged_is_weaker():
    corpus = _corpus()
    never = {("claim", DEADLINE): "NO"}
    db = _suspect_db(corpus, {"oracle": never, "oracle-merged": {}, "raw": never})
    assert gold_suspects.suspects(db, corpus) == []
    # the full-context answer right: the gold answer is reachable, not suspect
    q = {("memory", "single/2"): "NO"}
    assert gold_suspects.suspects(_suspect_db(corpus, {"oracle-merged": q, "raw": q}), corpus) == []
    (weak,) = gold_suspects.suspects(_suspect_db(corpus, {"oracle": never, "raw": never}), corpus)
    assert weak.item == "s0/c2" and not weak.complete


def test_suspects_judged_differently_by_two_judges():
    corpus = _corpus()
    db = _suspect_db(corpus, {"raw": {}}, judges={("memory", "compound/0"): "PARTIAL"})
    (s,) = gold_suspects.suspects(db, corpus)
    assert (s.item, s.why) == ("compound/0", gold_suspects.JUDGES_DIFFER)
    assert s.detail == "raw: lexical YES, qwen PARTIAL"
    assert s.lines  # the lines stating the claims its expected answer carries


def test_gold_suspects_command_reads_a_real_run_database(scored, tmp_path):
    # the run database's verdicts are views over compact tables: read through them
    path = str(scored["folder"] / "runs.db")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    source = scored["corpus"].files[TRAJECTORY]  # the one-trajectory corpus the runs were made on
    (corpus / source.name).write_bytes(source.read_bytes())
    args = ["gold", "suspects", "--db", path, "--corpus", str(corpus)]
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0, out.output
    # single/0 ("2명 (한 자리는 2027년 1분기로 연기)"): oracle PARTIAL, raw PARTIAL and the
    # full-context answer PARTIAL too; no oracle-merged run here, so the evidence is weaker
    assert "ko-c3-hiring-plan single/0 (question)" in out.output
    assert "weaker): oracle: PARTIAL; raw: PARTIAL; full-context: PARTIAL" in out.output
    listed = {x["item"]: x for x in json.loads(CliRunner().invoke(cli, [*args, "--json"]).output)}
    # since lexical-7 single/1 is listed too: its right answers ("하반기 채용 지원 마감일은 8월
    # 28일") are PARTIAL, their subject words being neither E's nor the question's — a suspect the
    # judge's strictness makes, which is what the evidence lines let a person see
    assert sorted(listed) == ["single/0", "single/1"]
    found = listed["single/0"]
    assert (found["item"], found["complete"], found["contested"]) == ("single/0", False, False)
    assert any("하반기 백엔드 개발자 채용은 2명" in line for line in found["lines"])
    # contested, then withdrawn: the suspect's mark follows the ledger
    ledger = tmp_path / "g.jsonl"
    one = load_corpus(corpus)
    gold.contest(one, TRAJECTORY, "single/0", "모호", ledger, who="kim")
    marked = CliRunner().invoke(cli, [*args, "--ledger", str(ledger)])
    assert "single/0 (question) [contested]" in marked.output
    gold.withdraw(one, TRAJECTORY, "single/0", "맞다", ledger, who="kim")
    again = json.loads(CliRunner().invoke(cli, [*args, "--ledger", str(ledger), "--json"]).output)
    assert next(x for x in again if x["item"] == "single/0")["contested"] is False


def test_a_broken_ledger_beside_the_database_never_stops_a_report(scored, tmp_path):
    db, folder = scored["db"], scored["folder"]
    beside = folder / "runs.gold.jsonl"
    beside.write_text("not json\n", encoding="utf-8")
    try:
        report = build_report(db)
        gold_block = report.runs[0].gold
        assert gold_block.problem and "runs.gold.jsonl:1" in gold_block.problem
        assert not gold_block.figures
        assert "gold: the ledger" in to_markdown(report) and "cannot be read" in to_markdown(report)
        # named with --ledger, the same file is refused with its located sentence
        with pytest.raises(InputProblems, match=r"runs\.gold\.jsonl:1"):
            build_report(db, ledger=beside)
    finally:
        beside.unlink()


def test_the_ceiling_flag_is_per_trajectory_and_per_run():
    """A run below its mean ceiling can hold a trajectory above its own: flagged by trajectory."""
    from seorap.engine.scoring.gold import Contest, gold_figures, gold_lines

    def claim(tid, item, score):
        return {
            "trajectory_id": tid,
            "kind": "claim",
            "setup": "full",
            "item": item,
            "expected": f"{tid} {item}",
            "state_index": 0,
            "score": score,
            "k": None,
            "source": "store",
        }

    # t1: 2 claims, one contested, both credited -> with 1.0 > ceiling 0.5 (flagged)
    # t2: 2 claims, none contested, none credited -> with 0.0, ceiling 1.0
    rows = [
        claim("t1", "s0/c0", 1.0),
        claim("t1", "s0/c1", 1.0),
        claim("t2", "s0/c0", 0.0),
        claim("t2", "s0/c1", 0.0),
    ]
    contest = Contest(
        corpus="x",
        trajectory="t1",
        item="s0/c1",
        kind="claim",
        text="t1 s0/c1",
        reason="r",
        who="w",
        at="2026-01-01",
    )
    g = gold_figures(rows, [contest], resamples=50)
    f = g.figures["intrinsic"]
    assert f.ceiling == 0.75 and f.with_contested.mean == 0.5 and not f.above_ceiling
    assert f.trajectories_above == ["t1"]
    assert any("above its own ceiling in t1" in line for line in gold_lines(g, str, str))


def test_comparisons_are_candidate_minus_base(scored):
    """One sign convention everywhere, as `seorap compare`: candidate - base, named so."""
    from seorap.engine.scoring.report_text import to_markdown

    report = build_report(scored["db"])
    [c] = report.comparisons
    base, candidate = report.runs
    assert (c.base, c.candidate) == (base.run_id, candidate.run_id)
    ib = {t.id: t.intrinsic.full for t in base.trajectories}
    ic = {t.id: t.intrinsic.full for t in candidate.trajectories}
    want = sum(ic[t] - ib[t] for t in ib) / len(ib)
    assert c.candidate_minus_base == pytest.approx(want)
    assert "candidate − base" in to_markdown(report)
    assert "difference" not in c.model_dump()
