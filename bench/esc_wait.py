"""How long Textual takes to report a lone Esc on a real pty, per ESCDELAY (docs/design.md, "Keys and
the terminal"; issue 36).

    python bench/esc_wait.py [ESCDELAY ...]      # default: 10 50 100 200, and the kitty encoding

A minimal Textual app runs on a pty (os.forkpty) with ESCDELAY set; the bench writes ESC (or
the kitty keyboard protocol's Esc, CSI 27 u, a terminal with that protocol sends) 15 times,
0.4 s apart, and the app appends the time of each key event to a file: the figure is from the
write to the event (median, min, max in ms). Measured on Textual 8.2.8, Linux: 10, 50 and 100 all
101-105 ms (its input thread checks the Esc timeout once per 100 ms poll), 200 gave 202 ms, CSI 27 u
2 ms.
"""

from __future__ import annotations

import os
import pty
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

APP = """
import sys, time
from textual.app import App
from textual.widgets import Static
class A(App):
    def compose(self):
        yield Static("ready")
    def on_mount(self):
        open(sys.argv[1] + ".ready", "w").write("1")
    def on_key(self, event):
        with open(sys.argv[1], "a") as f:
            f.write(f"{event.key} {time.time()}\\n")
A().run()
"""


def esc_wait(delay: str, key: bytes, tmp: Path, presses: int = 15) -> list[float]:
    out = tmp / f"keys-{delay}-{len(key)}"
    pid, fd = pty.fork()
    if pid == 0:
        env = dict(os.environ, ESCDELAY=delay, TERM="xterm-256color")
        os.execve(sys.executable, [sys.executable, "-c", APP, str(out)], env)
    done = False

    def drain() -> None:  # the app's output: read, else it blocks on a full pty
        while not done:
            try:
                os.read(fd, 65536)
            except OSError:
                return

    threading.Thread(target=drain, daemon=True).start()
    deadline = time.time() + 60
    while not Path(f"{out}.ready").exists() and time.time() < deadline:
        time.sleep(0.01)
    time.sleep(1.0)
    sent = []
    for _ in range(presses):
        sent.append(time.time())
        os.write(fd, key)
        time.sleep(0.4)
    time.sleep(0.5)
    done = True
    got = [float(t) for k, t in (line.split() for line in out.read_text().splitlines())]
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    return [(g - s) * 1000 for s, g in zip(sent, got)]


def main() -> None:
    delays = sys.argv[1:] or ["10", "50", "100", "200"]
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        runs = [(d, b"\x1b", "ESC") for d in delays] + [("100", b"\x1b[27u", "CSI 27 u")]
        for delay, key, what in runs:
            ms = esc_wait(delay, key, tmp)
            print(
                f"ESCDELAY={delay} {what}: {len(ms)} presses, median {statistics.median(ms):.0f} ms,"
                f" min {min(ms):.0f}, max {max(ms):.0f}"
            )


if __name__ == "__main__":
    main()
