"""Time limits that hold on a busy machine (the README's test command must pass at load 8 on 2 cores).

A limit in a test states what the product promises on a machine with a core to spare (Ctrl+C honoured
within 2 s, a fault noticed within its timeout). On a machine whose cores are all taken, every step
of the same work waits its turn for a core, so the same promise is measured against a clock that runs
``busy()`` times slower: :func:`within` scales a limit by that ratio. On a quiet machine it is the limit
itself, so a regression still fails there.
"""

from __future__ import annotations

import os


def busy() -> float:
    """How many runnable processes there are per core right now (the 1-minute load average over the
    cores), never below 1."""
    try:
        load = os.getloadavg()[0]
    except OSError:  # no load average on this platform: assume a quiet machine
        return 1.0
    return max(1.0, load / (os.cpu_count() or 1))


def within(seconds: float) -> float:
    """``seconds`` on a quiet machine, scaled by :func:`busy` on a loaded one."""
    return seconds * busy()
