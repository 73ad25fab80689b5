"""Regenerate docs/stepper.svg, the README's picture of the stepper.

    python docs/screenshot.py

Runs the offline reference systems on the bundled corpus into a temporary database, opens the
stepper on oracle · ko-c4-late-memo at the late January memo (doc 3): the corpus's reason beside
the system's operations, the late mark against the store's last change, and the lineage
f0001 → f0003; saves an SVG at 160x45.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from seorap.engine.corpus import load_corpus
from seorap.engine.run.runner import run
from seorap.engine.store.database import open_db
from seorap.tui.factory import bundled_corpus_path, make_app

OUT = Path(__file__).resolve().parent / "stepper.svg"


async def main() -> None:
    path = Path(tempfile.mkdtemp()) / "shot.db"
    db = open_db(path)
    ids = run(
        load_corpus(bundled_corpus_path()),
        ["oracle", "oracle-stale", "oracle-merged"],
        db,
        offline=True,
    )
    app = make_app(path, run_id=ids[0], trajectory_id="ko-c4-late-memo")
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("right", "right")
        app.sub_title = "runs.db"
        await app.workers.wait_for_complete()
        await pilot.pause()
        app.save_screenshot(filename=OUT.name, path=str(OUT.parent))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    asyncio.run(main())
