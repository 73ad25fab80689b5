"""The morpheme analyser (kiwipiepy) in a process of its own, for a program that must keep answering.

Building kiwipiepy's model and analysing its first sentence hold the Python interpreter for
seconds (2.7 s and 5.2 s measured on a shared 2-core machine, in one uninterrupted hold each): in a
thread of the app, every key waited for them. ``AnalyserProcess`` runs the same analyser in a
child process instead: the app's threads only wait on a pipe, which lets the interpreter go.

The child is the plain kiwipiepy analyser with the same options as in process, so its morphemes
are the same (tests/test_lexical_analyser.py). It reads one JSON string a line and answers one
JSON list of ``[form, tag, start, length]`` a line; it says ``ready`` once warm and ends when its
input closes. ``pause`` stops it (SIGSTOP) while a person types, ``resume`` lets it go on; every
request resumes it first. It is in a process group of its own: if the app dies while it is
stopped, the kernel sends the orphaned group SIGHUP and SIGCONT, and it ends.

It runs at a lower priority than the app (``NICE``): its warm-up is work ahead, and on a machine
whose cores are busy (a local model generating) it took the share of a core a key needed. With two
processes spinning on two cores, End 0.65 s after opening the stepper was answered in 33-136 ms on
a pty at the app's priority (24 launches) and in 28-60 ms at nice 5 (8 launches; 29-59 at nice
10, 16); the warm-up then takes 8 s instead of 3 (docs/benchmarks.md, section (h)). On an idle
machine it makes no difference.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading

NICE = 5
"""How much lower the child's priority is than the app's (os.nice: the kernel gives a core to the
app first when both want it; at 10 the warm-up took 23-25 s under the same load)."""

CHILD = f"""
import json, os, sys
if hasattr(os, "nice"):
    os.nice({NICE})
from kiwipiepy import Kiwi
kiwi = Kiwi()
kiwi.tokenize("서랍을 열었다")
out = sys.stdout
out.write("ready\\n")
out.flush()
for line in sys.stdin:
    tokens = kiwi.tokenize(json.loads(line))
    out.write(json.dumps([[t.form, t.tag, t.start, t.len] for t in tokens], ensure_ascii=False))
    out.write("\\n")
    out.flush()
"""
"""The child's program: nothing of seorap is imported there (its start-up is kiwipiepy's)."""


class AnalyserGone(RuntimeError):
    """The analyser process ended (or could not start): its stderr's last line says why."""


class AnalyserProcess:
    """One kiwipiepy analyser in a child process; ``tokenize`` is safe from any thread."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", CHILD],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            encoding="utf-8",
            process_group=0,
        )
        self.ready = threading.Event()
        """Set once the child has built its model and analysed its first sentence."""
        self.lock = threading.Lock()
        self.replies: queue.Queue[str | None] = queue.Queue()
        self.paused = False
        threading.Thread(target=self._read, name="analyser reader", daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None, "started with stdout=PIPE"
        for line in self.proc.stdout:
            if line == "ready\n" and not self.ready.is_set():
                self.ready.set()
            else:
                self.replies.put(line)
        self.replies.put(None)

    def tokenize(self, text: str) -> list[tuple[str, str, int, int]]:
        """kiwipiepy's tokens of ``text`` as (form, tag, start, length); waits for the child to be
        ready (on a pipe: other threads run meanwhile)."""
        with self.lock:
            self.resume()
            assert self.proc.stdin is not None, "started with stdin=PIPE"
            try:
                self.proc.stdin.write(json.dumps(text, ensure_ascii=False) + "\n")
                self.proc.stdin.flush()
            except (BrokenPipeError, ValueError):
                raise AnalyserGone(self._why()) from None
            line = self.replies.get()
        if line is None:
            raise AnalyserGone(self._why())
        return [(form, tag, start, length) for form, tag, start, length in json.loads(line)]

    def _why(self) -> str:
        self.proc.wait(timeout=5)
        err = (self.proc.stderr.read() if self.proc.stderr else "").strip().splitlines()
        return f"the morpheme analyser process ended (exit {self.proc.returncode})" + (
            f": {err[-1]}" if err else ""
        )

    def _signal(self, sig: signal.Signals) -> None:
        if self.proc.poll() is None:
            try:
                os.kill(self.proc.pid, sig)
            except ProcessLookupError:
                pass

    def pause(self) -> None:
        """Stop the child while it warms up (a person is typing); a request resumes it. Never
        while a request waits for it (that thread holds the lock): stopped under a request, the
        child would keep every later request (the event loop's too) waiting."""
        if self.ready.is_set() or self.paused or not self.lock.acquire(blocking=False):
            return
        try:
            self.paused = True
            self._signal(signal.SIGSTOP)
        finally:
            self.lock.release()

    def resume(self) -> None:
        if self.paused:
            self.paused = False
            self._signal(signal.SIGCONT)

    def close(self) -> None:
        """End the child (its input closes; it is resumed first so that it can see that)."""
        self.resume()
        if self.proc.stdin is not None:
            try:
                self.proc.stdin.close()
            except BrokenPipeError:
                pass
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
