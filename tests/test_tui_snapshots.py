"""SVG snapshots of the main views at a fixed size (pytest-textual-snapshot).

Nondeterminism removed: the subtitle (database path) is fixed, workers are awaited, run ids are
deterministic (corpus digest + config hash). Update with `pytest --snapshot-update`."""

from __future__ import annotations

import pytest
from test_tui_support import settle

from seorap.tui.factory import make_app

SIZE = (160, 45)
GARAM = "ko-c5-garam-db"


def _app(ref, system="oracle", trajectory=None):
    path, ids = ref
    return make_app(path, run_id=ids[system], trajectory_id=trajectory)


async def _settle(pilot) -> None:
    pilot.app.sub_title = "snapshot.db"
    await settle(pilot)  # workers a key's view starts after the key's turn too


def test_snapshot_runs(ref, snap_compare):
    assert snap_compare(_app(ref), terminal_size=SIZE, run_before=_settle)


def test_snapshot_stepper(ref, snap_compare):
    async def before(pilot):
        await pilot.press("right", "right", "right")
        await _settle(pilot)

    assert snap_compare(_app(ref, "oracle-stale", GARAM), terminal_size=SIZE, run_before=before)


def test_snapshot_questions(ref, snap_compare):
    async def before(pilot):
        await pilot.press("3")
        await _settle(pilot)

    assert snap_compare(_app(ref, "oracle", GARAM), terminal_size=SIZE, run_before=before)


def test_snapshot_score_cards(ref, snap_compare):
    async def before(pilot):
        await pilot.press("4")
        await _settle(pilot)

    assert snap_compare(_app(ref, "oracle-merged"), terminal_size=SIZE, run_before=before)


SMALL = {"100x30": (100, 30), "80x24": (80, 24)}
"""Laptop and smallest terminal sizes (docs/design.md, small terminals)."""
SMALL_VIEWS = {
    "runs": ("oracle", None, []),
    "stepper": ("oracle-stale", GARAM, ["right"]),
    "questions": ("oracle", GARAM, ["3"]),
    "scores": ("oracle-merged", None, ["4"]),
    "compare": ("oracle", None, ["5"]),
    "live": ("oracle", None, ["6"]),
    "tour": ("oracle-stale", None, ["7"]),
    "side-by-side": ("oracle-stale", None, ["7", "s"]),
}
"""view -> (system, trajectory, keys that open it)."""


# The heavy lane (-m slow): sixteen app launches, the pictures of every view at both small sizes
# (~4 s each at load 6 on 2 cores). What they guard is read as text in the README's lane:
# tests/test_tui_every_view_fits.py (every view at both sizes: cuts marked, F1 and q kept, no table
# past the edge) and tests/test_tui_small_sizes.py (each view's own small-size promises).
@pytest.mark.slow
@pytest.mark.parametrize("size", list(SMALL))
@pytest.mark.parametrize("view", list(SMALL_VIEWS))
def test_snapshot_small_sizes(ref, snap_compare, view, size):
    system, trajectory, keys = SMALL_VIEWS[view]

    async def before(pilot):
        await _settle(pilot)
        for key in keys:
            await pilot.press(key)
            await _settle(pilot)

    app = _app(ref, system, trajectory)
    assert snap_compare(app, terminal_size=SMALL[size], run_before=before)


def test_runs_keep_the_order_they_were_made_in_within_one_second(tmp_path):
    """The snapshots' run order must not depend on whether the systems' runs straddled a second
    (a busy machine): ties on created_at keep insertion order, not the ids' alphabetical order."""
    from seorap.engine.store.database import open_db
    from seorap.engine.views import list_runs

    db = open_db(tmp_path / "order.db")
    for run_id, created in (
        ("z-first", "2026-01-01T00:00:01"),
        ("b-second", "2026-01-01T00:00:01"),
        ("a-third", "2026-01-01T00:00:02"),
    ):
        db.table("runs").insert(
            {"run_id": run_id, "system": run_id, "status": "done", "created_at": created}
        )
    assert [r.run_id for r in list_runs(db)] == ["z-first", "b-second", "a-third"]
