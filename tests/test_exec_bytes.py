"""An ``exec:`` system's output is read as bytes (docs/store.md, "Another program's output"): an
invalid UTF-8 byte on stdout is one sentence naming the line, one on stderr changes nothing, a
program that logs far more than a pipe holds never blocks, a line past the cap is refused without
being held, a fact text past its cap is refused by name, and no process the program started
outlives the run — after a normal end, a fault, or Ctrl+C. tests/hostile_memory.py misbehaves."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from seorap.engine.config import Config
from seorap.engine.corpus import load_corpus
from seorap.engine.memory.foreign import SystemFault
from seorap.engine.memory.pipes import end_every_group, end_group, popen_group, split_lines
from seorap.engine.run.runner import run
from seorap.engine.store.database import open_db

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = f"exec:{sys.executable} {ROOT / 'tests' / 'hostile_memory.py'}"
ONE = "ko-c1-daon-backup"
SEORAP = str(Path(sys.executable).parent / "seorap")


def corpus():
    return load_corpus(ROOT / "fixtures" / "ko-mini")


def _run(tmp_path, mode: str, **config):
    db = open_db(tmp_path / "r.db")
    cfg = Config.offline().with_overrides(**config)
    return run(corpus(), [f"{HOSTILE} {mode}"], db, cfg, trajectories=[ONE], score=False)


def test_invalid_utf8_on_stdout_is_one_sentence_naming_the_line(tmp_path):
    start = time.monotonic()
    with pytest.raises(SystemFault) as err:
        _run(tmp_path, "badutf8", timeout_s=30)
    said = str(err.value)
    # hello (1), open (2), write (3): the third line it sent
    assert "sent invalid UTF-8 on line 3 of its output (byte 0xff" in said, said
    assert "\n" not in said
    assert time.monotonic() - start < 15  # not the silence limit


def test_invalid_utf8_and_much_logging_on_stderr_never_block_the_program(tmp_path):
    """> 64 KiB of stderr per document, after an invalid byte: the run finishes (on a reader that
    stops draining, the program blocks on a full pipe and the silence limit ends the run)."""
    [run_id] = _run(tmp_path, "noisy", timeout_s=10)
    db = open_db(tmp_path / "r.db")
    assert db.table("runs").get(run_id)["status"] == "done"


def test_a_failing_program_shows_its_last_stderr_lines_escaped(tmp_path):
    with pytest.raises(SystemFault) as err:
        _run(tmp_path, "noisycrash", timeout_s=10)
    said = str(err.value)
    assert "exited during write (exit code 3)" in said, said
    # its very last line, written just before it exited, is read too
    assert said.endswith("| hostile: giving up \\x1b[31mred"), said[-200:]
    assert "\x1b" not in said
    assert "로그" in said and len(said) < 2000  # the last lines, each cut, not 256 KiB


def test_a_line_past_the_cap_is_refused_without_being_held(tmp_path):
    """The program writes 300 MB without a newline; the reader holds at most the cap (8 MiB by
    default) and the program is ended: this process's peak memory grows by far less than 300 MB."""
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    start = time.monotonic()
    with pytest.raises(SystemFault) as err:
        _run(tmp_path, "longline", timeout_s=30)
    grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_before) / 1024
    said = str(err.value)
    assert "sent a line longer than 8 MiB on line 3 of its output (exec_line_max)" in said, said
    assert grown_mib < 100, grown_mib
    assert time.monotonic() - start < 30


def test_the_line_cap_is_configurable(tmp_path):
    with pytest.raises(SystemFault, match=r"longer than 1 MiB on line 3"):
        _run(tmp_path, "longline", timeout_s=30, exec_line_max=1024 * 1024)


def test_a_10_mb_fact_text_is_refused_by_name(tmp_path):
    start = time.monotonic()
    with pytest.raises(SystemFault) as err:  # its 30 MB line let through, to reach the fact
        _run(tmp_path, "bigfact", timeout_s=30, exec_line_max=64 * 1024 * 1024)
    said = str(err.value)
    assert "listed fact 'f1' with a text of 10,000,000 characters" in said, said
    assert "more than the 4,096 a fact may hold (fact_text_max)" in said
    assert time.monotonic() - start < 30
    with pytest.raises(SystemFault, match="longer than 8 MiB"):  # the default line cap first
        _run(tmp_path / "default", "bigfact", timeout_s=30)


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        ("badname", "gave a name of 8 characters that is not plain text of at most 64: 'evil\\x1b"),
        ("longname", "gave a name of 10000 characters"),
    ],
)
def test_a_name_that_would_start_every_run_id_is_plain_and_short(tmp_path, mode, words):
    with pytest.raises(SystemFault) as err:
        _run(tmp_path, mode)
    assert words in str(err.value), str(err.value)


@pytest.mark.parametrize(
    ("data", "cap", "lines"),
    [
        (b"a\nbb\n\nccc", 10, [(b"a", False), (b"bb", False), (b"", False), (b"ccc", False)]),
        (b"abcdefgh\nxy\n", 4, [(b"abcd", True), (b"xy", False)]),
        (b"abcdefghijkl", 4, [(b"abcd", True)]),
    ],
)
def test_split_lines_is_bounded(tmp_path, data, cap, lines):
    read, write = os.pipe()
    os.write(write, data)
    os.close(write)
    try:
        assert list(split_lines(read, cap)) == lines
    finally:
        os.close(read)


def test_split_lines_skips_the_rest_of_a_long_line_across_pieces():
    """A line of 1 MB (many 64 KiB reads) past a 1,000-byte cap: its head once, then the next line;
    the writer never blocks (everything is read)."""
    read, write = os.pipe()
    data = b"x" * 1_000_000 + b"\n" + "다음 줄".encode() + b"\nend"

    def feed():
        with os.fdopen(write, "wb") as out:
            out.write(data)

    writer = threading.Thread(target=feed)
    writer.start()
    try:
        got = list(split_lines(read, 1000))
    finally:
        writer.join(timeout=10)
        os.close(read)
    assert got == [(b"x" * 1000, True), ("다음 줄".encode(), False), (b"end", False)]


# ---- processes the program started ------------------------------------------------------------------
def _alive(pid: int) -> bool:
    """Running (a zombie waiting to be reaped by init has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def _left(pidfile: Path, grace_s: float = 3.0, at_least: int = 4) -> list[int]:
    pids = [int(p) for p in pidfile.read_text().split()]
    assert len(pids) >= at_least  # the program and its three children, at least once
    deadline = time.monotonic() + grace_s
    while (alive := [p for p in pids if _alive(p)]) and time.monotonic() < deadline:
        time.sleep(0.05)
    for pid in alive:  # the test leaves nothing behind either
        os.kill(pid, signal.SIGKILL)
    return alive


def test_no_process_outlives_a_normal_run(tmp_path):
    pidfile = tmp_path / "pids"
    [run_id] = _run(tmp_path, f"spawn {pidfile}")
    assert open_db(tmp_path / "r.db").table("runs").get(run_id)["status"] == "done"
    assert _left(pidfile) == []


def _spawning_run(tmp_path: Path, pidfile: Path, stderr: int) -> subprocess.Popen[bytes]:
    """`seorap run` of a system whose programs start children, once they are all running (the
    probe's and a memory's: eight pids at least)."""
    env = dict(os.environ, SEORAP_LOG_DIR=str(tmp_path / "crash-logs"))
    proc = subprocess.Popen(
        [SEORAP, "run", "--system", f"{HOSTILE} spawn {pidfile}", "--offline", "--no-score"]
        + ["--corpus", str(ROOT / "fixtures" / "ko-mini"), "--db", str(tmp_path / "r.db")],
        stdout=subprocess.DEVNULL,
        stderr=stderr,
        env=env,
        cwd=tmp_path,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(_pids(pidfile)) < 8:
        time.sleep(0.05)
    return proc


def test_no_process_outlives_ctrl_c_and_ctrl_c_is_honoured_at_once(tmp_path):
    pidfile = tmp_path / "pids"
    proc = _spawning_run(tmp_path, pidfile, subprocess.PIPE)
    assert proc.poll() is None, "the run ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    interrupted = time.monotonic()
    _, err = proc.communicate(timeout=60)
    took = time.monotonic() - interrupted
    assert proc.returncode == 130, err.decode()
    assert b"Traceback" not in err
    assert _left(pidfile) == []
    print(f"Ctrl+C to exit: {took:.2f} s")
    assert took < 10, took  # 2 s in our own code; generous for a loaded machine


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_no_process_outlives_seorap_killed_outright(tmp_path, sig):
    """kill -9 (and a SIGTERM, which Python does not turn into an exception) runs none of our
    code: the group's guardian (engine/memory/guardian.py) sees seorap's end and ends the group."""
    pidfile = tmp_path / "pids"
    proc = _spawning_run(tmp_path, pidfile, subprocess.DEVNULL)
    assert proc.poll() is None, "the run ended before it could be killed"
    proc.send_signal(sig)
    proc.wait(timeout=60)
    assert _left(pidfile, grace_s=10.0) == []


def test_a_program_that_cannot_start_is_the_oserror_popen_gives(tmp_path):
    with pytest.raises(FileNotFoundError):
        popen_group([str(tmp_path / "no-such-program")])
    (tmp_path / "plain.txt").write_text("not a program")
    with pytest.raises(PermissionError):  # no execute bit (root too)
        popen_group([str(tmp_path / "plain.txt")])


def test_every_group_is_ended_before_a_hard_exit(tmp_path):
    """A second Ctrl+C leaves with os._exit, which skips atexit: cli/run.py ends every program's
    group first (end_every_group), grandchildren included."""
    pidfile = tmp_path / "pids"
    script = (
        f"sleep 300 & echo $! >> {pidfile}; sleep 300 & echo $! >> {pidfile}; echo $$ >> {pidfile}"
    )
    script += "; wait"
    proc = popen_group(["sh", "-c", script])
    deadline = time.monotonic() + 30
    while len(_pids(pidfile)) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    end_every_group()
    try:
        assert _left(pidfile, at_least=3) == []
    finally:
        end_group(proc)


def _pids(pidfile: Path) -> list[str]:
    return pidfile.read_text().split() if pidfile.exists() else []


def test_the_fact_cap_holds_for_every_foreign_system_and_is_configurable(tmp_path):
    """A Python-factory system (each document's text one fact) meets the same cap."""
    db = open_db(tmp_path / "r.db")
    config = Config.offline().with_overrides(fact_text_max=40)
    with pytest.raises(SystemFault, match=r"characters after document .*more than the 40 a fact"):
        run(corpus(), ["systems_support:append_only"], db, config, trajectories=[ONE], score=False)


def test_no_memory_opens_after_a_stop():
    """A worker that reaches a new trajectory after the stop must not start a program the stop
    can no longer end."""
    from seorap.engine.errors import RunCancelled
    from seorap.engine.memory import get_system

    system = get_system(f"{HOSTILE} quiet")
    system.cancel()
    with pytest.raises(RunCancelled):
        system.session("r", ONE)
