"""`seorap diff` laid out for the width it gets: readable at 80 columns, Korean measured in cells."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.cells import cell_len

from seorap.cli.diff import clip_lines
from seorap.cli.main import cli
from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.run.runner import run
from seorap.engine.store.database import open_db

FILE = Path(__file__).resolve().parents[1] / "fixtures" / "ko-mini" / "ko-c3-hiring-plan.json"
QUESTION = "미리내소프트는 이번 하반기에 백엔드 개발자를 몇 명 뽑고"


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    path = tmp_path_factory.mktemp("diff") / "r.db"
    run(
        load_corpus(FILE), ["oracle-stale", "oracle"], open_db(path), Config.offline(), offline=True
    )
    return path


def diff(path, *args, columns="80"):
    out = CliRunner().invoke(
        cli,
        ["diff", "--db", str(path), "--run", "oracle-stale", "--run", "oracle", *args],
        env={"COLUMNS": columns},
    )
    assert out.exit_code == 0, out.output
    return out.output.splitlines()


def test_at_80_columns_every_line_fits_and_nothing_stacks_letters(two_runs):
    lines = diff(two_runs)
    assert all(cell_len(line) <= 80 for line in lines), max(lines, key=cell_len)
    assert not any(line.strip() in {"c", "h", "d", "credite", "0"} for line in lines)
    heads = [line for line in lines if line.startswith(("newly credited ·", "newly penalised ·"))]
    assert heads and all(" → " in h and "ko-c3-hiring-plan" in h for h in heads)
    assert any(line.startswith("unparseable ") for line in lines)  # the counts cut between figures


def test_texts_take_at_most_two_lines_and_a_cut_is_marked(two_runs):
    lines = diff(two_runs, "--all", "--kind", "question")
    blocks, current = [], None
    for line in lines:
        if line.startswith("    "):
            current.append(line)
        elif " · " in line and " → " in line:
            current = []
            blocks.append(current)
    assert blocks and all(1 <= len(b) <= 2 for b in blocks)
    assert any(QUESTION[:10] in " ".join(b) for b in blocks)


def test_wide_table_with_width_option(two_runs):
    lines = diff(two_runs, "--width", "160", columns="80")
    assert any("┃ change" in line and "claim / question" in line for line in lines)
    assert all(cell_len(line) <= 160 for line in lines)


def test_clip_lines_counts_korean_as_two_cells():
    text = "가나다라마바사아자차카타파하 " * 4
    clipped = clip_lines(text, 20)
    assert len(clipped) == 2 and clipped[-1].endswith("…")
    assert all(cell_len(line) <= 20 for line in clipped)
    assert clip_lines("짧은 글", 20) == ["짧은 글"]


def test_report_table_fits_the_width_it_is_given(two_runs):
    for args, env, limit in (([], "80", 80), (["--width", "100"], "200", 100)):
        out = CliRunner().invoke(
            cli, ["report", "--db", str(two_runs), "--format", "table", *args], env={"COLUMNS": env}
        )
        assert out.exit_code == 0, out.output
        lines = out.output.splitlines()
        assert all(cell_len(line) <= limit for line in lines), max(lines, key=cell_len)
        assert any(line.startswith("ko-c3-hiring-plan") for line in lines)
        assert any(f"not shown at width {limit}" in line for line in lines) == (limit == 80)
