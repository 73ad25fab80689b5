"""Under an unreliable judge every figure built on its YES/PARTIAL/NO labels carries the judge's
reliability beside it, in JSON, CSV, text, Markdown, the terminal table and the app's score cards,
and no diagnosis names a loss point from it (issue 35.6); under a reliable judge nothing is flagged.

One database: the oracle on two trajectories scored by an always-PARTIAL judge (unreliable), then
again by the offline lexical judge (a second ruler, reliable); the oracle run again on the same
trajectories, scored by the lexical judge (reliable); one contested gold item and one override, so that every block
holding label-built figures is there."""

import csv
import io
import json

import pytest
from rich.console import Console
from unreliable_support import score_always_partial

from seorap.cli.report_table import render_table
from seorap.engine.config import Config
from seorap.engine.corpus import gold, load_corpus
from seorap.engine.run.runner import run
from seorap.engine.scoring import overrides, ruler_marks
from seorap.engine.scoring.journey import STAGES
from seorap.engine.scoring.report import build_report
from seorap.engine.scoring.report_text import summary_lines, to_csv, to_json, to_markdown
from seorap.engine.scoring.score import score_run
from seorap.engine.store.database import open_db
from seorap.engine.store.queries import verdicts as stored_verdicts

TRAJECTORIES = ["ko-c5-garam-db", "ko-c4-late-memo"]
MARK = f"[{ruler_marks.UNRELIABLE_MARK}]"


@pytest.fixture(scope="module")
def marked_db(tmp_path_factory):
    path = tmp_path_factory.mktemp("marks") / "runs.db"
    db = open_db(path)
    corpus = load_corpus("fixtures/ko-mini")
    offline = dict(offline=True, trajectories=TRAJECTORIES)
    [oracle] = run(corpus, ["oracle"], db, Config.offline(), score=False, **offline)
    unreliable = score_always_partial(db, oracle, corpus)
    score_run(db, oracle, Config.offline(), corpus=corpus)  # a second ruler: the lexical judge
    # a separate run of the same system, scored by the lexical judge: reliable
    [again] = run(corpus, ["oracle"], db, Config.offline(), label="again", **offline)
    gold.contest(corpus, TRAJECTORIES[0], "s0/c0", "모호하다", gold.default_ledger(path), who="t")
    verdict = stored_verdicts.select(db, oracle, unreliable)[0]
    overrides.add_override(db, verdict["id"], "YES", "a person read it", who="t")
    return db, oracle, again, unreliable


@pytest.fixture(scope="module")
def marked(marked_db):
    db, oracle, again, unreliable = marked_db
    report = build_report(db, [oracle, again], scoring=unreliable, resamples=50)
    u, r = report.runs
    assert u.aggregate.judge_unreliable and not r.aggregate.judge_unreliable
    assert u.gold and u.overrides.count and len(u.rulers) == 4 and u.read_time and u.journey
    return report


def test_json_lists_every_label_built_figure_beside_it(marked):
    data = json.loads(to_json(marked))
    u, r = data["runs"]
    assert u["aggregate"]["unreliable_ruler"] == list(ruler_marks.AGGREGATE)
    for name in ("intrinsic", "extrinsic", "benefit_tax", "baselines", "depth_curve"):
        assert name in u["aggregate"]["unreliable_ruler"]
    for t in u["trajectories"]:
        assert t["unreliable_ruler"] == list(ruler_marks.TRAJECTORY)
        assert {"miss_rate", "benefit_tax", "read_accuracy"} <= set(t["unreliable_ruler"])
        assert "lost at" not in t["diagnosis"]  # no loss point named from this judge
    assert u["read_time"]["unreliable_ruler"] == ["coverage", "accuracy", "stale_at_read", "gap"]
    # the journey's stages from stored on rest on the labels; said and extracted do not
    assert u["journey"]["unreliable_ruler"] == ["stored", "kept", "retrieved", "used", "credited"]
    assert u["gold"]["unreliable_ruler"] == ["figures", "by_trajectory"]
    assert u["overrides"]["unreliable_ruler"] == ["intrinsic", "extrinsic", "by_trajectory"]
    assert "matched" in u["similarity"]["unreliable_ruler"]
    # each ruler row by its own judge: the always-PARTIAL one flagged, the lexical one not
    assert {(x["judge"], tuple(x["unreliable_ruler"])) for x in u["rulers"]} == {
        ("always-partial", ("intrinsic", "extrinsic")),
        ("lexical", ()),
    }
    [c] = data["comparisons"]
    assert c["unreliable_ruler"] == ["candidate_minus_base", "mdd"]
    # every name listed is a field of the object it stands in (or a stage of the journey)
    for block in (u["aggregate"], u["read_time"], u["gold"], u["overrides"], u["similarity"]):
        assert set(block["unreliable_ruler"]) <= set(block)
    assert set(u["journey"]["unreliable_ruler"]) <= set(STAGES) & set(u["journey"]["stages"])
    # a reliable judge's run: nothing flagged anywhere
    flagged = [k for k, v in _walk(r) if k == "unreliable_ruler" and v]
    assert flagged == []


def _walk(node, key=None):
    yield key, node
    items = (
        node.items()
        if isinstance(node, dict)
        else enumerate(node)
        if isinstance(node, list)
        else ()
    )
    for k, v in items:
        yield from _walk(v, k)


def test_csv_has_a_flag_column_after_every_label_built_figure(marked):
    header, *body = list(csv.reader(io.StringIO(to_csv(marked))))
    rows = [dict(zip(header, line)) for line in body]
    for column in ruler_marks.CSV_COLUMNS:  # miss rate and benefit/tax included
        assert header[header.index(column) + 1] == f"{column}_ruler", column
    for stage in ruler_marks.JOURNEY_STAGES:
        at = header.index(f"run_journey_{stage}_high")
        assert header[at + 1] == f"run_journey_{stage}_ruler"
    assert "run_journey_said_ruler" not in header and "run_journey_extracted_ruler" not in header
    assert "run_gold_intrinsic_ruler" in header and "run_udr_ruler" not in header
    u_id, r_id = (run.run_id for run in marked.runs)
    for row in rows:
        want = "unreliable" if row["run_id"] == u_id else ""
        for flag in (c for c in header if c.endswith("_ruler")):
            base = flag.removesuffix("_ruler")
            has = any(row.get(c) not in (None, "") for c in (base, f"{base}_share", f"{base}_with"))
            assert row[flag] == (want if has else ""), (row["run_id"], flag)
        assert row["miss_rate_ruler"] == want and row["benefit_ruler"] == want
        assert row["read_accuracy_ruler"] == want and row["run_journey_stored_ruler"] == want
    assert {row["run_id"] for row in rows} == {u_id, r_id}


def test_text_lines_with_label_built_figures_end_in_the_mark(marked):
    u, r = marked.runs
    lines = summary_lines(u)
    starts = (
        "intrinsic full",
        "extrinsic compound",
        "signed",
        "baselines:",
        "depth curve:",
        "full → filter",
        "overrides:",
        "similarity",
        "read-time (",
        "read below write",
        "journey:",
        "journey survival:",
        "journey C",
        "journey L",
        "  intrinsic",  # the gold block's figures
    )
    for start in starts:
        found = [x for x in lines if x.startswith(start)]
        assert found, start
        assert all(MARK in x for x in found), found
    # figures not built on the labels stay unmarked: UDR/FUR, the judge's own PARTIAL share, cost
    for start in ("UDR", "PARTIAL share", "calls:"):
        assert all(MARK not in x for x in lines if x.startswith(start)), start
    journey = next(x for x in lines if x.startswith("journey:"))
    assert "lost at: withheld" in journey
    rulers = next(x for x in lines if x.startswith("rulers"))
    assert rulers.count(MARK) == 2  # the always-PARTIAL ruler only (full and filter)
    assert all(MARK not in x for x in summary_lines(r))


def test_markdown_and_terminal_table_carry_the_mark(marked):
    md = to_markdown(marked)
    u_section, r_section = md.split("\n## ")[1:3]
    assert f"| intrinsic_full {MARK} |" in u_section and f"naive_rag {MARK}" in u_section
    assert "| stale_facts |" in u_section  # read from the store lexically: not flagged
    assert f"with contested {MARK}" in u_section
    assert all(MARK in x for x in u_section.splitlines() if "(no quadrant)" in x)
    assert "lost at:" not in u_section.replace("lost at: withheld", "")
    assert MARK not in r_section.split("## Comparisons")[0]
    comparison = md.split("## Comparisons")[1]
    assert comparison.count(MARK) == 2  # the difference and its MDD
    buf = io.StringIO()
    render_table(marked, Console(file=buf, width=200, color_system=None))
    table = buf.getvalue()
    assert "int*" in table and "ext·c*" in table and f"intrinsic (full) {MARK}" in table
    assert "stale*" not in table


def test_the_apps_score_cards_carry_the_mark(marked):
    from seorap.tui.screens.scores_text import agreement_text, read_time_text, rulers_text
    from seorap.tui.widgets.funnel import funnel_text, gold_text

    u, r = marked.runs
    agreement = agreement_text(u).plain
    intrinsic = next(x for x in agreement.splitlines() if x.startswith("intrinsic"))
    assert intrinsic.endswith(MARK)
    read_line = next(x for x in read_time_text(u).plain.splitlines() if x.startswith("read time"))
    assert read_line.rstrip().endswith(MARK)  # the answer read path's lines follow it
    lines = rulers_text(u, None).plain.splitlines()
    assert next(x for x in lines if x.startswith("Seeds")).endswith(MARK)
    # the groups' figures under one heading that carries the mark (a pane holds one line each)
    assert next(x for x in lines if x.startswith("By category")).endswith(MARK)
    rulers = [x for x in lines if "+reader" in x]  # each by its own judge
    assert all(x.endswith(MARK) == x.startswith("  always-partial") for x in rulers)
    assert all(
        x.endswith(MARK)
        for x in gold_text(u.gold, ruler_marks.suffix(u)).plain.splitlines()[1:]
        if x
    )
    funnel = funnel_text(u.journey, unreliable=u.aggregate.judge_unreliable).plain
    assert "unreliable ruler" in funnel and "lost at" not in funnel
    assert MARK not in agreement_text(r).plain and MARK not in read_time_text(r).plain


def test_compare_flags_label_built_figures_and_names_no_loss_point(marked, marked_db, capsys):
    """`seorap compare` of a run judged by the always-PARTIAL judge against a reliable one: the
    figures built on the labels (intrinsic, extrinsic, miss rate) carry the mark, the others (UDR,
    stale facts…) do not; a note says whose judge and why; the claim funnel names no loss point."""
    from seorap.cli.compare_text import print_comparison
    from seorap.engine.scoring.gate import compare_runs
    from seorap.engine.scoring.rulers import compare as moved_verdicts
    from seorap.engine.scoring.rulers import parse_setup
    from seorap.engine.views import journey

    db, oracle, again, unreliable = marked_db
    u, r = marked.runs
    result = compare_runs(u, r, resamples=50)
    flagged = {d.figure for d in result.differences if d.ruler == "unreliable"}
    assert flagged == set(ruler_marks.COMPARE_FIGURES)
    assert any(x.startswith("base's judge is unreliable") for x in result.labels)
    sides = [parse_setup(db, oracle, unreliable), parse_setup(db, again, None)]
    funnels = journey.side_by_side(db, *((x.run_id, x.scoring) for x in sides))
    print_comparison(result, moved_verdicts(db, *sides), funnels, show_all=False, quiet=False)
    out = capsys.readouterr().out
    rows = {line.split()[0]: line for line in out.splitlines() if line.split()}
    assert {"miss_rate*", "intrinsic*", "extrinsic*", "intrinsic_filter*"} <= set(rows)
    assert {"udr", "stale_facts", "fur"} <= set(rows)  # not built on the labels: no mark
    assert MARK in rows["*"]  # the legend under the table
    assert "loss points withheld" in out and "loses what" not in out and "lost at" not in out
    same = compare_runs(r, r, resamples=50)  # two reliable sides: nothing flagged
    assert all(d.ruler == "" for d in same.differences) and same.labels == []
