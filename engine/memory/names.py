"""The reference systems' names and descriptions, apart from their code: the CLI's help text reads
them at start-up, and this module imports nothing (the systems themselves need the store)."""

from __future__ import annotations

REFERENCE_DESCRIPTIONS = {
    "oracle": "the store is exactly each state's expected claims",
    "oracle-stale": "expected claims added, never removed",
    "oracle-merged": "all current claims in one long fact",
    "raw": "every document sentence appended as a fact",
}
"""Every reference system by name, in the order the app and the CLI list them."""

ORACLES = ("oracle", "oracle-stale", "oracle-merged")
"""The reference systems that calibrate the rulers, run offline by `seorap demo` and the app's live
view (``raw`` is a baseline, not an oracle)."""
