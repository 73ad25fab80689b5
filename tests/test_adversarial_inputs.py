"""Adversarial probes: inputs. Pair files that never end, nest without end or block; corpus folders
with links that loop, dangle or lead to devices; unknown trajectory ids; a failed preflight; text
that would reorder a terminal. Each is one sentence (or a located list), no database is left behind
and no file that is not ours changes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from adversarial_support import (  # noqa: F401 - fixture
    SEORAP,
    assert_clean,
    env_for,
    foreign,
    one_sentence,
    seorap,
    small_corpus,
)
from timing_support import within


def test_pairs_from_dev_zero_stop_at_the_first_megabyte(tmp_path, foreign):
    started = time.monotonic()
    proc = seorap(tmp_path, "judge", "--pairs", "/dev/zero", timeout=60)
    assert proc.returncode == 1
    assert "longer than 1024 KB" in one_sentence(proc.stderr)
    assert time.monotonic() - started < 30


def test_pairs_nested_without_end_are_a_located_problem(tmp_path, foreign):
    pairs = tmp_path / "deep.jsonl"
    pairs.write_text("[" * 100_000 + "\n" + '{"expected": "a", "answer": "a"}\n')
    proc = seorap(tmp_path, "judge", "--pairs", pairs)
    assert proc.returncode == 1
    assert "deep.jsonl:1: JSON nested too deeply" in proc.stderr


def test_a_long_line_is_refused_with_its_number(tmp_path, foreign):
    pairs = tmp_path / "long.jsonl"
    line = json.dumps({"expected": "가" * 600_000, "answer": "a"}, ensure_ascii=False)
    pairs.write_text('{"expected": "a", "answer": "a"}\n' + line + "\n", encoding="utf-8")
    proc = seorap(tmp_path, "judge", "--pairs", pairs)
    assert proc.returncode == 1 and "long.jsonl:2:" in one_sentence(proc.stderr)


def _until_idle(pid: int, limit_s: float = 120.0) -> None:
    """Wait until the process sleeps (state S: blocked, here on the pipe) in two looks 0.25 s
    apart. A signal that lands while a native call holds the interpreter (the morpheme analyser's
    first load, seconds of C++, state R even while it waits for a core) waits for that call to
    return, which is not what this test measures."""
    stat = Path(f"/proc/{pid}/stat")
    if not stat.exists():  # no procfs: give it the old fixed wait
        time.sleep(1.5)
        return
    deadline, still = time.monotonic() + limit_s, 0
    while time.monotonic() < deadline and still < 2:
        state = stat.read_text().rsplit(")", 1)[1].split()[0]
        still = still + 1 if state == "S" else 0
        time.sleep(0.25)


def test_ctrl_c_while_reading_a_pipe_that_never_ends(tmp_path, foreign):
    fifo = tmp_path / "pairs.jsonl"
    os.mkfifo(fifo)
    proc = subprocess.Popen(
        [SEORAP, "judge", "--pairs", str(fifo)],
        stderr=subprocess.PIPE,
        text=True,
        env=env_for(tmp_path),
    )
    feeder = open(fifo, "w")  # noqa: SIM115 - kept open: the reader waits for more
    feeder.write('{"expected": "a", "answer": "a"}\n')
    feeder.flush()
    _until_idle(proc.pid)  # it has read the line and waits on the pipe (no native call under way)
    proc.send_signal(signal.SIGINT)
    try:
        assert proc.wait(timeout=within(5)) == 130
    finally:
        feeder.close()
    assert_clean(tmp_path, proc.stderr.read())


# The heavy lane (-m slow): a corpus at scale 100 written and validated (24 s at load 6.5 on 2
# cores). The README's lane keeps synth and validate together at scale 2
# (tests/test_synth_corpus.py::test_valid_and_counts_per_block); this one adds that scale 100's
# files stay under validate's input bound.
@pytest.mark.slow
def test_the_100x_synthetic_corpus_is_not_refused(tmp_path, foreign):
    out = tmp_path / "syn100"
    assert seorap(tmp_path, "synth", "--scale", "100", "--out", out).returncode == 0
    proc = seorap(tmp_path, "validate", out)
    assert proc.returncode == 0, proc.stderr[-500:]


def test_unknown_trajectory_is_refused_before_any_work(tmp_path, foreign):
    corpus = small_corpus(tmp_path / "corpus")
    db = tmp_path / "never.db"
    proc = seorap(
        tmp_path, "run", "--corpus", corpus, "--system", "oracle", "--db", db, "--offline",
        "--trajectory", "nosuch-id",
    )  # fmt: skip
    assert proc.returncode == 2 and "nosuch-id" in proc.stderr
    assert not db.exists()


def test_a_failed_preflight_leaves_no_database(tmp_path, foreign):
    corpus = small_corpus(tmp_path / "corpus")
    db = tmp_path / "never.db"
    proc = seorap(
        tmp_path, "run", "--corpus", corpus, "--system", "A", "--db", db,
        "--host", "http://127.0.0.1:9", "--embedder", "hashing",
    )  # fmt: skip
    assert proc.returncode == 2
    one_sentence(proc.stderr)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("never")) == []


def test_a_failed_preflight_keeps_an_existing_database(tmp_path, foreign):
    corpus = small_corpus(tmp_path / "corpus")
    db = tmp_path / "kept.db"
    ok = seorap(tmp_path, "run", "--corpus", corpus, "--system", "oracle", "--db", db, "--offline")
    assert ok.returncode == 0
    proc = seorap(
        tmp_path, "run", "--corpus", corpus, "--system", "A", "--db", db,
        "--host", "http://127.0.0.1:9", "--embedder", "hashing",
    )  # fmt: skip
    assert proc.returncode == 2 and db.exists()


def test_judge_db_is_not_left_empty_when_the_judge_fails(tmp_path, foreign):
    db = tmp_path / "calls.db"
    env = env_for(tmp_path, OLLAMA_HOST="http://127.0.0.1:9")
    proc = seorap(
        tmp_path, "judge", "--expected", "a", "--answer", "a", "--judge", "m:1", "--db", db, env=env
    )
    assert proc.returncode == 2
    assert not db.exists()


@pytest.fixture
def hostile_corpus(tmp_path, foreign):
    corpus = small_corpus(tmp_path / "corpus")
    (corpus / "loop.json").symlink_to("loop.json")
    (corpus / "dangle.json").symlink_to("nowhere.json")
    (corpus / "zero.json").symlink_to("/dev/zero")
    (corpus / "tty.json").symlink_to("/dev/tty")
    os.mkfifo(corpus / "fifo.json")
    (corpus / "folder.json").mkdir()
    return corpus


def test_a_corpus_folder_reports_every_odd_entry(tmp_path, hostile_corpus):
    proc = seorap(tmp_path, "validate", hostile_corpus, timeout=60)
    assert proc.returncode == 1
    for name, words in [
        ("loop.json", "loops"),
        ("dangle.json", "does not exist"),
        ("zero.json", "a device"),
        ("tty.json", "a device"),
        ("fifo.json", "a pipe"),
        ("folder.json", "a folder"),
    ]:
        line = next(ln for ln in proc.stderr.splitlines() if name in ln)
        assert words in line, line
    db = tmp_path / "never.db"
    run = seorap(
        tmp_path, "run", "--corpus", hostile_corpus, "--system", "oracle", "--db", db, "--offline"
    )
    assert run.returncode == 1 and not db.exists()


def test_json_on_stdout_escapes_bidi_and_keeps_hangul(tmp_path, foreign):
    pairs = tmp_path / "bidi.jsonl"
    row = {"id": "x\u202ey", "expected": "서울\u200b 3층", "answer": "서울 3층\x1b[2J"}
    pairs.write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    proc = seorap(tmp_path, "judge", "--pairs", pairs, "--json")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "\u202e" not in out and "\u200b" not in out and "\x1b" not in out
    assert "\\u202e" in out and "서울" in out
    assert json.loads(out)["id"] == "x\u202ey"  # the same value, escaped


def test_runs_json_escapes_a_hostile_system_name(tmp_path, foreign):
    corpus = small_corpus(tmp_path / "corpus")
    folder = tmp_path / "variants"
    folder.mkdir()
    (folder / "evil.toml").write_text(
        'name = "evil\u202e서랍"\npolicy = "append"\n', encoding="utf-8"
    )
    db = tmp_path / "r.db"
    run = seorap(
        tmp_path, "run", "--corpus", corpus, "--system", "evil\u202e서랍", "--variants-dir",
        folder, "--db", db, "--offline", "--no-score",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    proc = seorap(tmp_path, "runs", "--db", db, "--json")
    assert proc.returncode == 0
    assert "\u202e" not in proc.stdout and "서랍" in proc.stdout
    assert json.loads(proc.stdout.splitlines()[0])["system"] == "evil\u202e서랍"


@pytest.mark.parametrize("command", ["report", "runs", "run"])
def test_a_pipe_or_device_as_the_database_is_refused_not_waited_on(tmp_path, foreign, command):
    os.mkfifo(tmp_path / "pipe.db")
    corpus = small_corpus(tmp_path / "corpus")
    extra = ["--corpus", corpus, "--system", "oracle", "--offline"] if command == "run" else []
    for db in (tmp_path / "pipe.db", "/dev/null", "/dev/zero"):
        proc = seorap(tmp_path, command, "--db", db, *extra, timeout=60)
        assert proc.returncode == 2 and "not a regular file" in one_sentence(proc.stderr)


def test_a_new_database_another_connection_holds_is_kept(tmp_path, foreign):
    """Two commands that both found no file: the one that fails must not delete what the other,
    still working, has open."""
    from seorap.engine.store.database import open_db
    from seorap.engine.store.lease import discard_if_unused

    path = tmp_path / "shared.db"
    mine, other = open_db(path), open_db(path)
    with pytest.raises(RuntimeError), discard_if_unused(mine, created=True):
        raise RuntimeError("preflight failed")
    assert path.exists()
    other.conn.close()
    mine.conn.close()
    alone = open_db(path)
    with pytest.raises(RuntimeError), discard_if_unused(alone, created=True):
        raise RuntimeError("preflight failed")
    assert not path.exists()
