"""The bundled corpus by name (`seorap validate ko-mini`, `--corpus ko-mini`) from any folder, and
one word for folders in every message."""

from __future__ import annotations

import errno
import sqlite3

import pytest
from click.testing import CliRunner

from seorap.cli.main import cli
from seorap.engine.corpus.bundled import FIXTURES, bundled_corpus, corpus_location
from seorap.engine.outfile import why


@pytest.fixture
def elsewhere(tmp_path, monkeypatch):
    """A current folder with no fixtures/ in it (as for an installed package)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_bundled_corpus_is_found_beside_the_package_not_the_current_folder(elsewhere):
    from pathlib import Path

    import seorap

    assert FIXTURES == Path(seorap.__file__).resolve().parent / "fixtures"
    assert bundled_corpus("ko-mini") == FIXTURES / "ko-mini"
    assert bundled_corpus("fixtures/ko-mini/") == FIXTURES / "ko-mini"
    for not_a_name in ("ko", "../ko-mini", "x/ko-mini", "", "fixtures"):
        assert bundled_corpus(not_a_name) is None


def test_a_path_that_exists_wins_over_the_name(elsewhere):
    (elsewhere / "ko-mini").mkdir()
    assert corpus_location("ko-mini") == "ko-mini"


def test_validate_by_name_from_another_folder(elsewhere):
    for name in ("ko-mini", "fixtures/ko-mini"):
        result = CliRunner().invoke(cli, ["validate", name])
        assert result.exit_code == 0, result.output
        assert "ok: 12 trajectories valid" in result.output


def test_run_takes_the_name_and_records_the_real_path(elsewhere):
    db = elsewhere / "r.db"
    result = CliRunner().invoke(
        cli, ["run", "--corpus", "ko-mini", "--system", "oracle", "--db", str(db), "--offline"]
    )
    assert result.exit_code == 0, result.output
    with sqlite3.connect(db) as conn:
        [(corpus,)] = conn.execute("SELECT corpus FROM runs").fetchall()
    assert corpus == str(FIXTURES / "ko-mini")


def test_an_unknown_name_is_one_located_sentence(elsewhere):
    result = CliRunner().invoke(
        cli, ["run", "--corpus", "ko-maxi", "--system", "oracle", "--db", "x.db"]
    )
    assert result.exit_code == 2
    assert (
        "'ko-maxi' is no file or folder here, nor a bundled corpus (bundled: ko-mini)"
        in result.output
    )
    assert "Traceback" not in result.output


def test_help_names_the_bundled_corpus():
    for command in (["run"], ["validate"], ["judge-audit"], ["inspect"], ["demo"]):
        text = " ".join(CliRunner().invoke(cli, [*command, "--help"]).output.split())
        assert "ko-mini" in text, command


def test_folder_not_directory_in_messages(elsewhere):
    (elsewhere / "d").mkdir()
    runner = CliRunner()
    for args in (
        ["models", "--config", "d"],
        ["report", "--db", "d"],
        ["judge", "--pairs", "d"],
        ["validate", "nowhere"],
    ):
        out = runner.invoke(cli, args).output
        assert "director" not in out.lower(), (args, out)
        assert "folder" in out, (args, out)
    assert why(OSError(errno.ENOENT, "No such file or directory")) == "no such file or folder"
    assert why(OSError(errno.EISDIR, "Is a directory")) == "it is a folder"
    assert "folder" in why(OSError(errno.ENOTDIR, "Not a directory"))


def test_inspect_help_says_what_the_app_writes():
    text = " ".join(CliRunner().invoke(cli, ["inspect", "--help"]).output.split())
    assert "read-only" not in text and "verdict override" in text
