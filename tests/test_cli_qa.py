"""QA fixes of the command line: `inspect` refuses unknown runs/trajectories/corpora with one
clear message, `--run` takes a system name or a unique prefix, tables keep ids on one line."""

from __future__ import annotations

from click.testing import CliRunner

from seorap.cli.main import cli


def invoke(*args):
    """The CLI in a 100-column terminal (Rich reads COLUMNS)."""
    return CliRunner(env={"COLUMNS": "100"}).invoke(cli, list(args), terminal_width=100)


def test_inspect_unknown_trajectory_is_a_usage_error_listing_ids(ref):
    path, _ = ref
    result = invoke("inspect", "--db", str(path), "--trajectory", "nope")
    assert result.exit_code == 2
    assert "no trajectory 'nope'" in result.output and "ko-c4-late-memo" in result.output
    assert "Traceback" not in result.output


def test_inspect_unknown_run_names_the_runs(ref):
    path, ids = ref
    result = invoke("inspect", "--db", str(path), "--run", "nope")
    assert result.exit_code == 2
    assert "no run 'nope'" in result.output and ids["oracle"] in result.output


def test_inspect_refuses_a_corpus_the_run_was_not_made_from(ref, tmp_path):
    from test_tui_support import hostile_corpus

    path, _ = ref
    corpus = hostile_corpus(tmp_path)  # a one-trajectory corpus: another digest
    result = invoke("inspect", "--db", str(path), "--run", "oracle", "--corpus", str(corpus))
    assert result.exit_code == 2
    assert "was made from corpus" in result.output and "--corpus" in result.output


def test_resolve_run_by_system_and_prefix(ref):
    import click
    import pytest

    from seorap.cli.runref import resolve_run
    from seorap.engine.store.database import open_db

    path, ids = ref
    db = open_db(path)
    assert resolve_run(db, "oracle") == ids["oracle"]  # exact system wins over the prefix
    assert resolve_run(db, "oracle-m") == ids["oracle-merged"]
    assert resolve_run(db, ids["oracle-stale"]) == ids["oracle-stale"]
    with pytest.raises(click.BadParameter, match="matches 3 runs"):
        resolve_run(db, "ora")


def test_diff_accepts_a_system_name_and_keeps_ids_on_one_line(ref):
    path, ids = ref
    result = invoke("diff", "--db", str(path), "--run", "oracle-stale", "--run", "oracle", "--all")
    assert result.exit_code == 0, result.output
    assert ids["oracle-stale"] in result.output
    assert "ko-c2-byeolmuri-latency" in result.output  # not folded over two lines


def test_judge_audit_kind_names_are_not_cut():
    import tempfile
    from pathlib import Path

    from test_tui_support import CORPUS

    with tempfile.TemporaryDirectory() as tmp:
        result = CliRunner().invoke(
            cli,
            ["judge-audit", "--corpus", str(CORPUS), "--db", str(Path(tmp) / "a.db")],
            terminal_width=80,
        )
    assert result.exit_code == 0, result.output
    table = result.output.split("hedged: pass rate")[0]
    assert "│ context-free" in table and "│ wrong-date" in table
