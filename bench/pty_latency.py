"""The app's keys on a real terminal, with the machine's cores kept busy (issue 36).

    python bench/app_latency.py --busy 2 [--launches 5] [--think 0.5] [--scale 100]

Each launch starts `seorap inspect` in a tmux session (a real pty: Textual's own input driver
reads the keys, which Pilot bypasses), polls `tmux capture-pane` until the runs view is on screen
(first paint), waits `--think` seconds, then types the keys of PTY_ROUND through `tmux send-keys`,
PACE_S apart. A key's time is from send-keys to the first capture that differs from the screen
before it ("answered"), and to the last change before the screen is still for SETTLE_S
("settled"). The harness's resolution is the time of one capture (reported: median and p95).

`--busy N` starts N busy processes (`while True: pass`, nice 0: the app's own priority) for the
whole measurement, as a local model generating would. Cold = a key's first press in a launch;
the worst of the launches is the figure for cold; warm = the later presses.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from _common import ROOT

PACE_S = 0.4
"""Seconds between a key's settled screen and the next key (a person reads what it showed)."""
SETTLE_S = 0.25
"""The screen unchanged this long after a key: it has drawn everything the key asked for."""
ANSWER_S = 15.0
"""A key unanswered after this long counts as lost (inf in the tables)."""
SETTLE_MOST_S = 3.0
"""A screen still changing this long after its key (an animation: compare's loading indicator)
is taken as settled at its last change so far."""

PTY_ROUND = [
    ("2", "2 stepper"),
    ("End", "End last document"),
    ("Home", "Home first document"),
    ("Right", "→ step"),
    ("Left", "← step"),
    ("j", "j judge"),
    ("e", "e observation"),
    ("k", "k fact version"),
    ("/", "/ search (stepper)"),
    ("Escape", "Esc search"),
    ("F1", "F1 help (stepper)"),
    ("Escape", "Esc help (stepper)"),
    ("3", "3 questions"),
    ("/", "/ search (questions)"),
    ("Escape", "Esc search"),
    ("F1", "F1 help"),
    ("Escape", "Esc help"),
    ("4", "4 score cards"),
    ("5", "5 compare"),
    ("7", "7 tour"),
    ("s", "s side by side"),
    ("Escape", "Esc back"),
    ("6", "6 live"),
    ("1", "1 runs"),
    ("Down", "↓ next row"),
    ("Enter", "Enter trajectory"),
    ("1", "1 runs"),
]
"""One round of keys from the runs view (tmux key names), ending there again so that the next
round's first key changes the screen too. Every key changes the screen (colours included: the
capture keeps them). F1 is pressed in the stepper (its help is the longest) and in
the questions view ("F1 help"), each the first F1 of that view in a launch."""


@dataclass
class Pane:
    """A tmux session on its own server socket running one command."""

    name: str
    size: tuple[int, int]
    captures: list[float] = field(default_factory=list)

    def tmux(self, *args: str) -> str:
        out = subprocess.run(
            ["tmux", "-L", self.name, *args], capture_output=True, text=True, check=False
        )
        return out.stdout

    def start(self, command: str) -> None:
        w, h = self.size
        self.tmux("new-session", "-d", "-s", "b", "-x", str(w), "-y", str(h), command)

    def capture(self) -> str:
        t0 = time.perf_counter()
        text = self.tmux("capture-pane", "-p", "-e", "-t", "b")
        self.captures.append(time.perf_counter() - t0)
        return text

    def send(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "b", *keys)

    def stop(self) -> None:
        self.tmux("kill-server")

    def wait_for(self, marker: str, since: float, most_s: float) -> tuple[float, str]:
        """Seconds from ``since`` to the first capture holding ``marker`` (inf when never)."""
        while time.perf_counter() - since < most_s:
            screen = self.capture()
            if marker in screen:
                return time.perf_counter() - since, screen
            time.sleep(0.005)
        return float("inf"), ""

    def key(self, key: str, before: str) -> tuple[float, float, str]:
        """Send ``key``; (answered ms, settled ms, the settled screen)."""
        t0 = time.perf_counter()
        self.send(key)
        answered = settled = float("inf")
        screen = before
        last_change = None
        while time.perf_counter() - t0 < (ANSWER_S if last_change is None else SETTLE_MOST_S):
            now = self.capture()
            t = time.perf_counter()
            if now != screen:
                screen, last_change = now, t
                if answered == float("inf"):
                    answered = t - t0
            elif last_change is not None and t - last_change >= SETTLE_S:
                settled = last_change - t0
                break
            time.sleep(0.003)
        if settled == float("inf") and last_change is not None:
            settled = last_change - t0
        return answered * 1000, settled * 1000, screen


APP_ROOT = ROOT
"""The checkout whose app is launched (--app-root: e.g. main's, for an A/B on the same bench)."""


def app_command(db_path: Path, run_id: str, home: Path) -> str:
    env = f"env HOME={home} PYTHONPATH={APP_ROOT.parent} TERM=xterm-256color"
    return (
        f"cd {APP_ROOT} && {env} {sys.executable} -c 'from seorap.cli.main import main; main()' "
        f"inspect --db {db_path} --run {run_id}"
    )


FIRST_PAINT_MARKER = "rows · "
"""The runs view's first line above its table: first paint."""


LAUNCHES: list[tuple[int, int]] = []


def launch(
    db_path: Path, run_id: str, size: tuple[int, int], think: float, keys, home: Path
) -> dict:
    """One launch: first paint, then ``keys`` ((tmux key, label) pairs) after ``think`` s."""
    LAUNCHES.append(size)
    pane = Pane(f"seorap-bench-{os.getpid()}-{len(LAUNCHES)}", size)  # a tmux server each
    t0 = time.perf_counter()
    pane.start(app_command(db_path, run_id, home))
    try:
        paint, screen = pane.wait_for(FIRST_PAINT_MARKER, t0, 60.0)
        out: dict = {"first paint": paint * 1000, "keys": [], "captures": pane.captures}
        if paint == float("inf"):
            print(f"no first paint in 60 s; the screen:\n{pane.capture()}", file=sys.stderr)
            return out
        time.sleep(max(0.0, t0 + paint + think - time.perf_counter()))
        for key, label in keys:
            answered, settled, screen = pane.key(key, screen)
            out["keys"].append((label, answered, settled))
            time.sleep(PACE_S)
            screen = pane.capture()
        return out
    finally:
        pane.stop()


class Busy:
    """N processes spinning at nice 0 while the block runs."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.procs: list[subprocess.Popen] = []

    def __enter__(self) -> Busy:
        self.procs = [
            subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(self.n)
        ]
        return self

    def __exit__(self, *exc) -> None:
        for p in self.procs:
            p.kill()
            p.wait()


def q(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def summarise(launches: list[dict]) -> dict[str, dict[str, float]]:
    """Per key label: cold (worst first press over launches) and warm (later presses): p50, p95
    of answered, and the worst settled."""
    cold: dict[str, list[tuple[float, float]]] = {}
    warm: dict[str, list[tuple[float, float]]] = {}
    for got in launches:
        seen: set[str] = set()
        for label, answered, settled in got["keys"]:
            (warm if label in seen else cold).setdefault(label, []).append((answered, settled))
            seen.add(label)
    out = {}
    for label in cold:
        c, w = cold[label], warm.get(label, [])
        out[label] = {
            "cold p50": statistics.median(a for a, _ in c),
            "cold worst": max(a for a, _ in c),
            "cold settled worst": max(s for _, s in c),
            "warm p50": statistics.median(a for a, _ in w) if w else float("nan"),
            "warm p95": q([a for a, _ in w], 0.95) if w else float("nan"),
        }
    return out


def report(title: str, launches: list[dict]) -> None:
    captures = [c * 1000 for got in launches for c in got["captures"]]
    paints = [got["first paint"] for got in launches]
    print(
        f"\n{title}: {len(launches)} launches; first paint {', '.join(f'{p:.0f}' for p in paints)} ms"
    )
    print(
        f"harness: one capture-pane {statistics.median(captures):.1f} ms median, "
        f"{q(captures, 0.95):.1f} ms p95 (a key's time is late by up to one capture)"
    )
    print("| key | cold p50 | cold worst (settled) | warm p50 | warm p95 |")
    print("|---|---|---|---|---|")
    for label, s in summarise(launches).items():
        print(
            f"| {label} | {s['cold p50']:.0f} | **{s['cold worst']:.0f}** "
            f"({s['cold settled worst']:.0f}) | {s['warm p50']:.0f} | **{s['warm p95']:.0f}** |"
        )


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def first_launch(size: tuple[int, int], home: Path) -> dict[str, float]:
    """`seorap demo` with a fresh HOME (no demo database): seconds to the runs view showing the
    shipped recording's row, to a key answered there (↓), and until the first start's reference
    runs are listed (its progress line gone)."""
    LAUNCHES.append(size)
    pane = Pane(f"seorap-bench-{os.getpid()}-{len(LAUNCHES)}", size)
    env = f"env HOME={home} PYTHONPATH={APP_ROOT.parent} TERM=xterm-256color OLLAMA_HOST=http://127.0.0.1:9"
    t0 = time.perf_counter()
    pane.start(
        f"cd {APP_ROOT} && {env} {sys.executable} -c 'from seorap.cli.main import main; main()' demo"
    )
    out = {}
    try:
        out["runs view with the recording (s)"], screen = pane.wait_for("recorded: ", t0, 180.0)
        answered, _, _ = pane.key("Down", screen)
        out["↓ answered (ms)"] = answered
        out["progress line (s)"], _ = pane.wait_for("First start:", t0, 120.0)
        while time.perf_counter() - t0 < 400.0 and "First start:" in pane.capture():
            time.sleep(0.1)
        out["reference runs listed (s)"] = time.perf_counter() - t0
        return out
    finally:
        pane.stop()


def corpora(which: list[str], tmp: Path, scale: int, build) -> dict[str, tuple[Path, str]]:
    """name -> (database, run id) of the oracle-stale run of each corpus asked for."""
    out = {}
    if "bundled" in which:
        db = tmp / "mini.db"
        out["bundled"] = (db, build(ROOT / "fixtures" / "ko-mini", db, True))
    if "100x" in which:
        synth, db = tmp / "synth", tmp / "synth.db"
        subprocess.run(
            [sys.executable, "-c", "from seorap.cli.main import main; main()", "synth"]
            + ["--scale", str(scale), "--out", str(synth)],
            check=True,
            cwd=ROOT,
            capture_output=True,
        )
        out[f"{scale}x"] = (db, build(synth, db, False))
    return out


def main(args, build) -> None:
    import tempfile  # bench script: only the pty mode needs it

    global APP_ROOT
    if args.app_root:
        APP_ROOT = Path(args.app_root).resolve()
    print(f"app from {APP_ROOT}")
    sizes = [tuple(int(n) for n in s.split("x")) for s in args.sizes.split(",")]
    which = args.corpora.split(",")
    print(f"busy processes: {args.busy}; load at the start {loadavg()}")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        home = tmp / "home"
        home.mkdir()
        if args.first_launch:
            with Busy(args.busy):
                for n in range(args.launches):
                    fresh = tmp / f"fresh{n}"
                    fresh.mkdir()
                    got = first_launch((160, 45), fresh)
                    print(f"first launch {n + 1}: {got} (load {loadavg()})")
            return
        dbs = corpora(which, tmp, args.scale, build)
        with Busy(args.busy):
            time.sleep(1.0)  # the busy processes are running
            for name, (db, run_id) in dbs.items():
                for size in sizes:
                    label = f"{name} {size[0]}x{size[1]}"
                    if args.first_keys:
                        for think in (0.2, 0.5, 1.0):
                            got = [
                                launch(db, run_id, size, think, [("2", "2 stepper")], home)
                                for _ in range(args.launches)
                            ]
                            keys = ", ".join(f"{g['keys'][0][1]:.0f}" for g in got if g["keys"])
                            print(
                                f"{label}: the first key (2) {think:g} s after first paint: {keys} ms (load {loadavg()})"
                            )
                    if args.rounds:
                        got = [
                            launch(db, run_id, size, args.think, PTY_ROUND * args.rounds, home)
                            for _ in range(args.launches)
                        ]
                        report(f"{label}, load {loadavg()}", got)
