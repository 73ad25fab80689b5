"""Adversarial probes: files we write (report -o, synth --out, stdout) never hurt a database or any
file that is not ours; a full disk, a file size limit, an unwritable folder or a closed pipe is one
sentence (exit 2) or a quiet stop, never a crash log and never a partial file."""

from __future__ import annotations

import os
import sqlite3

import pytest
from adversarial_support import (  # noqa: F401 - fixture
    digest,
    foreign,
    integrity,
    one_sentence,
    seorap,
    shell,
    small_corpus,
)


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    """A scored offline run of three bundled trajectories (its database is ours, read by probes)."""
    folder = tmp_path_factory.mktemp("scored")
    corpus = small_corpus(folder / "corpus")
    proc = seorap(
        folder,
        "run",
        "--corpus",
        corpus,
        "--system",
        "oracle",
        "--db",
        folder / "w.db",
        "--offline",
    )
    assert proc.returncode == 0, proc.stderr
    return folder / "w.db"


@pytest.fixture
def db(tmp_path, scored, foreign):
    """A copy of the scored database in this test's folder, hashed: a report must not change it."""
    path = tmp_path / "w.db"
    path.write_bytes(scored.read_bytes())
    foreign.add(path)
    return path


@pytest.mark.parametrize(
    "target",
    [
        "w.db",
        "w.db-wal",
        "w.db-shm",
        "w.db-journal",
        "./sub/../w.db-wal",
        "link",
        "link-wal",
        "hard",
    ],
)
def test_output_never_lands_on_a_database_file(tmp_path, db, foreign, target):
    (tmp_path / "sub").mkdir()
    (tmp_path / "link").symlink_to(db)
    os.link(db, tmp_path / "hard")
    proc = seorap(tmp_path, "report", "--db", db, "--format", "json", "-o", target)
    assert proc.returncode == 2, proc.stderr
    assert "never writes there" in proc.stderr
    assert not (tmp_path / "w.db-journal").exists()
    assert integrity(db) == "ok"


def test_output_refuses_the_journal_of_a_database_that_does_not_exist_yet(tmp_path, db, foreign):
    proc = seorap(tmp_path, "report", "--db", db, "-o", "later.db-wal")
    assert proc.returncode == 2 and not (tmp_path / "later.db-wal").exists()


def test_report_onto_a_foreign_sqlite_file_is_refused(tmp_path, db, foreign):
    target = foreign.folder / "other-app.sqlite"
    proc = seorap(tmp_path, "report", "--db", db, "-o", target)
    assert proc.returncode == 2, proc.stderr


def test_report_to_dev_full_is_one_sentence(tmp_path, db, foreign):
    proc = seorap(tmp_path, "report", "--db", db, "--format", "json", "-o", "/dev/full")
    assert proc.returncode == 2
    assert "disk is full" in one_sentence(proc.stderr)


def test_stdout_to_dev_full_is_one_sentence(tmp_path, db, foreign):
    proc = shell(tmp_path, f"seorap report --db {db} --format json > /dev/full")
    assert proc.returncode == 2
    assert "disk is full" in one_sentence(proc.stderr)


def test_a_file_size_limit_leaves_the_old_report_whole(tmp_path, db, foreign):
    out = tmp_path / "report.json"
    out.write_text("the previous report\n", encoding="utf-8")
    before = digest(out)
    proc = shell(tmp_path, f"ulimit -f 1; seorap report --db {db} --format json -o {out}")
    assert proc.returncode == 2, proc.stderr
    assert "ulimit -f" in one_sentence(proc.stderr)
    assert digest(out) == before  # not truncated, not half-written
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".report")) == []


def test_report_into_a_folder_that_cannot_be_written(tmp_path, db, foreign):
    # /proc cannot be written even by root: no chmod trick needed
    proc = seorap(tmp_path, "report", "--db", db, "--format", "json", "-o", "/proc/seorap.json")
    assert proc.returncode == 2
    one_sentence(proc.stderr)


def test_report_is_written_whole_through_a_link(tmp_path, db, foreign):
    real = tmp_path / "real.md"
    real.write_text("old\n")
    (tmp_path / "via").symlink_to(real)
    proc = seorap(tmp_path, "report", "--db", db, "--format", "md", "-o", "via")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "via").is_symlink() and real.read_text() != "old\n"


def test_a_closed_pipe_stops_quietly(tmp_path, foreign):
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text('{"expected": "서울 3층", "answer": "서울 3층"}\n' * 4000, encoding="utf-8")
    proc = shell(
        tmp_path, f"seorap judge --pairs {pairs} --json | head -1; echo rc=${{PIPESTATUS[0]}}"
    )
    assert proc.stdout.count("\n") == 2, proc.stdout
    assert proc.stderr == ""
    assert "rc=141" in proc.stdout  # as a Unix tool killed by SIGPIPE reports it


def test_runs_into_head_is_quiet(tmp_path, db, foreign):
    proc = shell(tmp_path, f"seorap runs --db {db} | head -1")
    assert proc.returncode == 0 and proc.stderr == ""


def test_synth_into_a_folder_that_cannot_be_made(tmp_path, foreign):
    proc = seorap(tmp_path, "synth", "--out", "/proc/seorap-corpus")
    assert proc.returncode == 2
    one_sentence(proc.stderr)


def test_synth_over_a_file_is_one_sentence(tmp_path, foreign):
    proc = seorap(tmp_path, "synth", "--out", foreign.folder / "notes.txt")
    assert proc.returncode == 2
    one_sentence(proc.stderr)


def test_synth_under_a_size_limit_leaves_no_partial_file(tmp_path, foreign):
    out = tmp_path / "syn"
    proc = shell(tmp_path, f"ulimit -f 8; seorap synth --out {out}")
    assert proc.returncode == 2, proc.stderr
    one_sentence(proc.stderr)
    assert not out.exists() or list(out.iterdir()) == []


def test_report_while_a_run_writes_never_touches_its_wal(tmp_path, foreign):
    """The probe that corrupted a database: `report -o w.db-wal` while a run writes w.db."""
    corpus = small_corpus(tmp_path / "corpus")
    env_db = tmp_path / "live.db"
    writer = shell(
        tmp_path,
        f"seorap run --corpus {corpus} --system A --db {env_db} --offline --concurrency 1 "
        f"> /dev/null 2>&1 & sleep 2; seorap report --db {env_db} -o {env_db}-wal; "
        "echo report=$?; wait $!; echo run=$?",
    )
    assert "report=2" in writer.stdout, writer.stdout
    assert "run=0" in writer.stdout, writer.stdout
    assert integrity(env_db) == "ok"
    with sqlite3.connect(env_db) as con:
        assert con.execute("SELECT status FROM runs").fetchall() == [("done",)]


def test_synth_never_writes_through_a_link_or_into_a_pipe(tmp_path, db, foreign):
    out = tmp_path / "syn"
    out.mkdir()
    (out / "syn-00000-c1.json").symlink_to(foreign.folder / "notes.txt")
    (out / "syn-00001-c1.json").symlink_to(db)
    os.mkfifo(out / "syn-00002-c2.json")
    proc = seorap(tmp_path, "synth", "--out", out, timeout=60)
    assert proc.returncode == 2 and "not a regular file" in one_sentence(proc.stderr)
    (out / "syn-00002-c2.json").unlink()
    proc = seorap(tmp_path, "synth", "--out", out, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert not (out / "syn-00000-c1.json").is_symlink()  # the link was replaced, not followed


def test_output_to_a_pipe_is_written_in_place(tmp_path, db, foreign):
    proc = shell(tmp_path, f"seorap report --db {db} --format json -o /dev/stdout | head -c 1")
    assert proc.stdout == "{" and "error" not in proc.stderr


@pytest.mark.parametrize("name", ["w.db", "w.db-wal", "w.db-journal", "link"])
def test_synth_never_takes_a_database_name(tmp_path, db, foreign, name):
    (tmp_path / "link").symlink_to(db)
    proc = seorap(tmp_path, "synth", "--out", name)
    assert proc.returncode == 2, proc.stderr
    one_sentence(proc.stderr)
    assert not (tmp_path / "w.db-wal").is_dir() and integrity(db) == "ok"


def test_a_new_database_never_makes_a_folder_named_like_a_journal(tmp_path, db, foreign):
    corpus = small_corpus(tmp_path / "corpus")
    proc = seorap(
        tmp_path, "run", "--corpus", corpus, "--system", "oracle", "--offline",
        "--db", "w.db-journal/inner.db",
    )  # fmt: skip
    assert proc.returncode == 2 and "journal" in one_sentence(proc.stderr)
    assert not (tmp_path / "w.db-journal").exists()
