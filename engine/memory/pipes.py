"""Another program's output, read as bytes (docs/store.md, "Another program's output").

An ``exec:`` system is a program we did not write: its stdout and stderr are read here as bytes,
split into lines with a bounded buffer, and decoded line by line, so no byte it sends can stop a
reader thread or grow our memory without bound:

- stdout (:func:`pump_replies`): each line is decoded as UTF-8; the first line that is not, or that
  grows past ``line_max`` bytes without a newline, is reported as a :class:`Garbled` sentence
  naming its line number, and reading stops (the caller then ends the program);
- stderr (:class:`StderrTail`): always read to its end, whatever it holds, so a program that logs
  a lot never blocks on a full pipe; only its last lines are kept, each cut to a bounded length
  and decoded with invalid bytes shown escaped.

The program runs in a process group of its own (:func:`popen_group`); :func:`end_group` ends the
whole group — the program and anything it started — and every group still alive when the
interpreter exits is ended too. The group's leader is a small guardian (engine/memory/guardian.py)
that ends it when seorap's process ends in a way no code of ours sees (``kill -9``).
"""

from __future__ import annotations

import atexit
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from seorap.engine.untrusted import visible

LINE_MAX = 8 * 1024 * 1024
"""Longest reply line (bytes) read from a program's stdout by default (``exec_line_max``)."""

CHUNK = 64 * 1024
"""Bytes read from a pipe at a time."""

STDERR_LINES = 5
"""The last lines of a program's stderr quoted when it fails."""

STDERR_LINE_CHARS = 300
"""Characters of one stderr line kept (a longer line is cut, and its rest read and dropped)."""


@dataclass(frozen=True)
class Garbled:
    """Why a program's stdout could not be read on (one sentence without the program's name)."""

    sentence: str


def mebibytes(n: int) -> str:
    return f"{n / 1024 / 1024:g} MiB" if n >= 1024 * 1024 else f"{n} bytes"


def split_lines(fd: int, line_max: int) -> Iterator[tuple[bytes, bool]]:
    """Lines read from ``fd`` until its end, without their newline: ``(line, False)``, or
    ``(first line_max bytes, True)`` for a line longer than ``line_max`` (its rest is read and
    dropped). Never holds more than ``line_max`` plus one chunk; a last line without a newline
    counts as a line."""
    buf = bytearray()
    skipping = False  # inside the rest of a line already reported as too long
    while chunk := _read(fd):
        scan = len(buf)
        buf += chunk
        start = 0
        while (nl := buf.find(b"\n", scan)) >= 0:
            if not skipping:
                yield _cut(bytes(buf[start:nl]), line_max)
            skipping, start = False, nl + 1
            scan = start
        del buf[:start]
        if skipping:
            buf.clear()
        elif len(buf) > line_max:
            yield bytes(buf[:line_max]), True
            buf.clear()
            skipping = True
    if buf and not skipping:
        yield _cut(bytes(buf), line_max)


def _cut(line: bytes, line_max: int) -> tuple[bytes, bool]:
    return (line[:line_max], True) if len(line) > line_max else (line, False)


def _read(fd: int) -> bytes:
    try:
        return os.read(fd, CHUNK)
    except OSError:  # a read error on a pipe: treated as its end
        return b""


def pump_replies(stream: IO[bytes], out: queue.Queue[str | Garbled | None], line_max: int) -> None:
    """Put each line of a program's stdout on ``out`` as text; the first line that is not UTF-8 or
    is longer than ``line_max`` becomes a :class:`Garbled` and reading stops; the end is ``None``.
    The stream is closed here, by its only reader, never under it (a closed descriptor's number
    can be reused at once by another file, which a late read would then steal from)."""
    with stream:
        _pump(stream.fileno(), out, line_max)


def _pump(fd: int, out: queue.Queue[str | Garbled | None], line_max: int) -> None:
    for number, (raw, cut) in enumerate(split_lines(fd, line_max), 1):
        if cut:
            out.put(
                Garbled(
                    f"sent a line longer than {mebibytes(line_max)} on line {number} of its "
                    "output (exec_line_max)"
                )
            )
            return
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            out.put(
                Garbled(
                    f"sent invalid UTF-8 on line {number} of its output (byte "
                    f"0x{raw[exc.start]:02x} at byte {exc.start + 1} of the line)"
                )
            )
            return
        out.put(text)
    out.put(None)


class StderrTail:
    """Reads a program's stderr to its end on a thread of its own, keeping its last lines."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.lines: deque[str] = deque(maxlen=STDERR_LINES)
        self.thread = threading.Thread(target=self._drain, args=(stream,), daemon=True)
        self.thread.start()

    def _drain(self, stream: IO[bytes]) -> None:
        with stream:  # closed by its reader, as in pump_replies
            for raw, cut in split_lines(stream.fileno(), STDERR_LINE_CHARS * 4):  # <= 4 B a char
                text = raw.decode("utf-8", errors="backslashreplace").rstrip()
                if cut or len(text) > STDERR_LINE_CHARS:
                    text = text[:STDERR_LINE_CHARS] + " …"
                if text:
                    self.lines.append(visible(text))

    def text(self) -> str:
        """The kept lines, joined with `` | `` (each escaped: nothing the program wrote is raw)."""
        return " | ".join(self.lines)


# ---- the program's process group -----------------------------------------------------------------
_LIVE: set[subprocess.Popen[bytes]] = set()
_LIVE_LOCK = threading.Lock()


GUARDIAN = Path(__file__).with_name("guardian.py")
"""Started as the leader of each program's group: it ends the group when seorap's process ends,
however it ends (``kill -9`` included), which nothing inside seorap can do."""

_LIVE_PIPES: dict[int, int] = {}
"""The write end of each guardian's liveness pipe, by the guardian's pid (closed with its group)."""


def popen_group(argv: list[str]) -> subprocess.Popen[bytes]:
    """Start ``argv`` with byte pipes in a new session (its own process group: a Ctrl+C at the
    terminal reaches us, not it, and we end the whole group), under engine/memory/guardian.py, so
    the group ends with seorap's process even when it is killed outright. Raises OSError as Popen
    does when the program cannot be started."""
    live_r, live_w = os.pipe()
    err_r, err_w = os.pipe()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-I", "-S", str(GUARDIAN), str(live_r), str(err_w), *argv],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            pass_fds=(live_r, err_w),
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    except BaseException:
        os.close(live_w)
        os.close(err_r)
        raise
    finally:
        os.close(live_r)
        os.close(err_w)
    with os.fdopen(err_r, "rb") as failed:
        errno = failed.read()  # ends when the program execs, or the guardian reports it could not
    if errno:
        os.close(live_w)
        proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
        code = int(errno)
        raise OSError(code, os.strerror(code), argv[0])
    with _LIVE_LOCK:
        _LIVE.add(proc)
        _LIVE_PIPES[proc.pid] = live_w
    return proc


def wait_exit(proc: subprocess.Popen[bytes], timeout_s: float) -> bool:
    """Wait up to ``timeout_s`` for the program to exit WITHOUT reaping it: while it is unreaped
    its pid (the group's id) cannot be reused, so ending the group afterwards is safe."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            info = os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:  # already reaped
            return True
        if info is not None:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)


def end_group(proc: subprocess.Popen[bytes]) -> None:
    """End the program and every process of its group (SIGKILL), then reap the program. Called
    before the program is reaped (:func:`wait_exit` does not reap) the group id cannot have been
    reused; after, it still names the group while any process of it lives."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):  # nothing of the group is left
        pass
    try:
        proc.wait(timeout=2)
    except subprocess.TimeoutExpired:  # a process stuck in the kernel: left to the system
        pass
    try:  # stdout and stderr are closed by their readers when the group's end reaches them
        if proc.stdin is not None:
            proc.stdin.close()
    except OSError:
        pass
    with _LIVE_LOCK:
        _LIVE.discard(proc)
        live = _LIVE_PIPES.pop(proc.pid, None)
    if live is not None:
        os.close(live)


@atexit.register
def end_every_group() -> None:
    """End every program still running, with its group. Runs when the interpreter leaves (a normal
    end, an uncaught Ctrl+C); a signal handler calls it before ``os._exit``, which skips atexit
    (so it never waits for the lock another frame of the same thread may hold)."""
    got = _LIVE_LOCK.acquire(timeout=0.5)
    try:
        live = list(_LIVE)
    except RuntimeError:  # changed while we read it without the lock: read again
        live = list(_LIVE)
    finally:
        if got:
            _LIVE_LOCK.release()
    for proc in live:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
