"""Full garbage collections off the key path.

A full (generation 2) collection walks every tracked object: the corpus, the stores read so far and
every mounted widget. On this app's heap it takes 100-400 ms on a shared core, and CPython starts one
whenever enough objects have survived, i.e. inside whichever key press happens to allocate them: that
was most of the p95 of every view key (docs/benchmarks.md, section (h)). Instead:

- after the first paint, everything alive (modules, corpus, the first screen) is frozen
  (``gc.freeze``): it lives as long as the app, and later collections no longer walk it;
- automatic full collections are off (``THRESHOLD_2``); the young generations are still collected
  as usual (a few ms each);
- a full collection runs when the app has been idle (no key, no click) for ``IDLE_S`` seconds and
  the young generations have been collected since the last one, i.e. garbage may be waiting.
"""

from __future__ import annotations

import gc
import time

IDLE_S = 2.0
"""Seconds without input before a full collection may run."""
CHECK_S = 1.0
THRESHOLD_2 = 1_000_000
"""Generation-1 collections before CPython would start a full one on its own: never, in practice."""


class IdleCollector:
    def __init__(self) -> None:
        self.last_input = time.monotonic()
        self.previous: tuple[int, int, int] | None = None
        self.collections = 0

    def start(self) -> None:
        """Freeze what is alive now and take full collections off the automatic schedule."""
        gc.freeze()
        self.previous = gc.get_threshold()
        gen0, gen1, _ = self.previous
        gc.set_threshold(gen0, gen1, THRESHOLD_2)

    def freeze(self) -> None:
        """Freeze what is alive now (e.g. views built ahead, which live as long as the app)."""
        if self.previous is not None:
            gc.freeze()

    def stop(self) -> None:
        if self.previous is not None:
            gc.set_threshold(*self.previous)
            self.previous = None
        gc.unfreeze()

    def touched(self) -> None:
        """An input event arrived."""
        self.last_input = time.monotonic()

    def idle(self, seconds: float = IDLE_S) -> bool:
        """No input for ``seconds``."""
        return time.monotonic() - self.last_input >= seconds

    def tick(self) -> bool:
        """Collect when idle long enough and young collections happened since the last full one
        (generation 2's count); True when it collected."""
        if not self.idle() or gc.get_count()[2] == 0:
            return False
        gc.collect()
        self.collections += 1
        return True
