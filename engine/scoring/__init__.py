"""Score cards: intrinsic (the store), extrinsic (questions), agreement, rulers (docs/metrics.md).

``score_run`` is imported lazily so that ``import seorap.engine.scoring`` stays light.
"""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from seorap.engine.config import Config


def score_run(db: Database, run_id: str, config: Config, **kwargs: Any) -> str:
    """Score one run in the store; see :func:`engine.scoring.score.score_run`."""
    # import cycle: the modules named import this package
    from seorap.engine.scoring.score import score_run as _score_run

    return _score_run(db, run_id, config, **kwargs)
