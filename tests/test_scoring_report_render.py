"""The terminal table of `seorap report`: readable at 100 and 160 columns (no folded ids or headers)."""

import pytest
from click.testing import CliRunner
from rich.console import Console

from seorap.cli.report_table import DROP_ORDER, TABLE_COLUMNS, pack, render_table
from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.run.runner import run
from seorap.engine.scoring.report import Report, build_report
from seorap.engine.scoring.report_text import to_csv, to_markdown
from seorap.engine.store.database import open_db

CORPUS = "fixtures/ko-mini"
SYSTEMS = ["oracle", "oracle-stale"]
HEADERS = [c.header for c in TABLE_COLUMNS]


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    path = tmp_path_factory.mktemp("render") / "runs.db"
    db = open_db(path)
    ids = run(load_corpus(CORPUS), SYSTEMS, db, Config.offline(), offline=True, corpus_label=CORPUS)
    return path, build_report(db, ids, resamples=50)


def render(report, width: int) -> list[str]:
    console = Console(width=width, record=True, file=open("/dev/null", "w"), color_system=None)
    render_table(report, console)
    return console.export_text().splitlines()


def header_line(lines: list[str]) -> str:
    return next(line for line in lines if line.startswith("trajectory"))


@pytest.mark.parametrize("width", [100, 160])
def test_ids_and_headers_never_wrap(scored, width):
    _, report = scored
    assert all(len(line.rstrip()) <= width for line in render(report, width))
    for run_report in report.runs:
        lines = render(Report(runs=[run_report]), width)
        header = header_line(lines)
        words = header.split()
        assert words[0] == "trajectory" and words[-1] == "quad" and set(words) <= set(HEADERS)
        # no header fragment spills onto the line below: that is the rule
        assert set(lines[lines.index(header) + 1].strip()) == {"─"}
        body = lines[
            lines.index(header) + 2 : lines.index(header) + 2 + len(run_report.trajectories)
        ]
        for t, line in zip(run_report.trajectories, body):
            # one line per trajectory holding its whole id, category, difficulty and quadrant
            cells = line.split()
            assert cells[0] == t.id, (t.id, width, line)
            assert cells[-1] == (t.quadrant or "—")
            if "cat" in words:
                assert cells[1] == t.category and cells[2] == t.difficulty
        below = lines[lines.index(header) + 2 + len(run_report.trajectories)]
        assert below.startswith("int = ") or below.startswith("cat = "), below


def test_wide_terminal_shows_every_column_and_legend(scored):
    _, report = scored
    lines = render(report, 160)
    assert header_line(lines).split() == HEADERS
    text = "\n".join(lines)
    for legend in (
        "int = intrinsic (full)",
        "ext·c = extrinsic compound",
        "prec = claim precision",
        "RAG = naive-RAG baseline",
        "quad = quadrant",
    ):
        assert legend in text
    assert "not shown" not in text


def test_narrow_terminal_drops_least_important_columns_and_says_so(scored):
    _, report = scored
    # 95 columns: narrower than the full table (about 99 with the shortest quadrant names)
    lines = render(report, 95)
    shown = header_line(lines).split()
    dropped = [c for c in TABLE_COLUMNS if c.header not in shown]
    assert dropped, "the full table does not fit 95 columns; something must be left out"
    keys = [c.key for c in dropped]
    assert keys == DROP_ORDER[: len(keys)]  # the least important go first
    text = "\n".join(lines)
    assert "not shown at width 95: " + dropped[0].header in text
    for c in dropped:
        assert f"{c.header} ({c.legend})" in text
    # numbers are right-aligned: a numeric header ends where its values end
    ints = [line for line in lines if line.startswith(report.runs[0].trajectories[0].id + " ")]
    end = header_line(lines).index("int") + len("int")
    assert ints[0][end - 4 : end].replace(".", "").isdigit()


def test_very_narrow_terminal_keeps_the_core_columns(scored):
    _, report = scored
    shown = header_line(render(report, 60)).split()
    assert shown[0] == "trajectory" and {"int", "ext·c", "quad"} <= set(shown)
    assert not {"prec", "ext·s", "RAG"} & set(shown)


def test_pack_never_splits_an_item():
    items = ["aa = alpha", "bb = beta", "cc = gamma delta"]
    assert pack(items, 25) == ["aa = alpha · bb = beta", "cc = gamma delta"]
    assert pack(items, 5) == items


def test_markdown_and_csv_keep_full_names(scored):
    _, report = scored
    md, csv = to_markdown(report), to_csv(report)
    assert "| trajectory | category | difficulty | intrinsic_full |" in md
    assert csv.splitlines()[0].startswith(
        "run_id,system,standin,trajectory,category,difficulty,intrinsic_full"
    )


def test_cli_table_uses_columns_env(scored):
    from seorap.cli.main import cli

    path, report = scored
    result = CliRunner(env={"COLUMNS": "100"}).invoke(
        cli, ["report", "--db", str(path), "--format", "table"]
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert all(len(line.rstrip()) <= 100 for line in lines)
    assert any(line.startswith(report.runs[0].trajectories[0].id + " ") for line in lines)


def test_run_level_udr_fur_mae_and_the_audit_in_every_format(scored):
    import csv
    import io
    import json

    from seorap.engine.scoring import stats

    _, report = scored
    run = report.runs[0]
    a = run.aggregate
    # the run-level mean is the mean of the per-trajectory values (UDR n/a for append-only)
    udr = [None if t.append_only else t.udr for t in run.trajectories]
    assert a.udr.mean == pytest.approx(stats.mean(udr))
    assert a.fur.mean == pytest.approx(stats.mean([t.fur for t in run.trajectories]))
    assert a.confidence_mae.mean == pytest.approx(
        stats.mean([t.confidence_mae for t in run.trajectories])
    )
    assert a.udr.ci_low is not None and a.udr.ci_low <= a.udr.mean <= a.udr.ci_high
    data = json.loads(report.model_dump_json())
    assert data["runs"][0]["aggregate"]["confidence_mae"]["mean"] == a.confidence_mae.mean
    assert "confidence MAE" in to_markdown(report)
    text = "\n".join(render(report, 160))
    assert "UDR" in text and "confidence MAE" in text
    [row, *_] = list(csv.DictReader(io.StringIO(to_csv(report))))
    assert float(row["run_udr"]) == pytest.approx(a.udr.mean)
    assert row["run_udr_low"] and row["run_confidence_mae_high"]
    assert run.audit is not None
    for kind, figures in run.audit.kinds.items():
        assert float(row[f"run_audit_{kind}"]) == pytest.approx(figures.pass_rate)
    assert row["run_audit_judge"] == run.audit.judge
