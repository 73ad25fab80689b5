"""Shared constants and small helpers of the views, and the readers of the scoring tables."""

from __future__ import annotations

import re
import weakref
from functools import lru_cache

import sqlite_utils
from sqlite_utils import Database

from seorap.engine.memory import reference
from seorap.engine.scoring.diagnosis import UNRELIABLE, UNVERIFIED, judge_headline
from seorap.engine.scoring.metrics import quadrant
from seorap.engine.store.damage import stored_json
from seorap.engine.store.queries import scores
from seorap.engine.store.queries.catalog import columns, content_state, readable_names
from seorap.engine.store.queries.verdicts import overrides_of

__all__ = ["quadrant", "UNRELIABLE", "UNVERIFIED", "judge_headline"]
"""``quadrant`` is the engine's (exact comparisons, engine/scoring/metrics.py): the app never
recomputes one its own way. ``UNRELIABLE`` (or ``UNVERIFIED``: nothing shows the judge either way)
stands where a quadrant would when the run's judge cannot carry one; ``judge_headline(reason)`` picks which
from the stored decision (engine/scoring/diagnosis.py decides)."""


NOT_SCORED = "not scored yet — run `seorap score`"
REFERENCE_SYSTEMS = tuple(reference.REFERENCE_SYSTEMS)
QUADRANTS = ("healthy", "compensation", "bottleneck", "both-low")
JUDGE_MODES = ("full", "filter")
"""`full`: the judge sees every active fact; `filter`: only facts above the similarity θ."""
DELTA_LABEL = "Δ (int−ext)"
"""The signed difference everywhere in the app: intrinsic − extrinsic."""
MARKS = {"create": "NEW", "update": "UPDATED", "reinforce": "REINFORCED", "supersede": "UPDATED"}


# ---------------------------------------------------------------------------------------------
# small pure helpers


@lru_cache(maxsize=65536)
def bigrams(text: str) -> frozenset[str]:
    """Character bigrams per whitespace token, punctuation stripped (single chars kept); cached
    (the stepper compares the same claims and lines on every step)."""
    out: set[str] = set()
    for token in re.sub(r"[^\w]+", " ", text.lower()).split():
        out.update(token[i : i + 2] for i in range(len(token) - 1)) if len(token) > 1 else out.add(
            token
        )
    return frozenset(out)


def containment(needle: str, haystack: str) -> float:
    """Share of ``needle``'s bigrams found in ``haystack`` (0..1): a cheap lexical 'states it'."""
    grams = bigrams(needle)
    return len(grams & bigrams(haystack)) / len(grams) if grams else 0.0


# ---------------------------------------------------------------------------------------------
# scoring tables (owned by engine.scoring; read defensively, absent = not scored)


def latest_scoring(db: sqlite_utils.Database, run_id: str) -> str | None:
    """The most recent scoring setup name of a run (e.g. ``lexical+extractive``), or None."""
    if "scores" not in readable_names(db):
        return None
    return scores.latest_scoring(db, run_id)


def latest_card(db: sqlite_utils.Database, run_id: str, trajectory_id: str) -> dict:
    """A trajectory's score card under the run's latest scoring; empty when unscored."""
    scoring = latest_scoring(db, run_id)
    if scoring is None:
        return {}
    card = scores.card(db, run_id, trajectory_id, scoring)
    return stored_json(card, "score card", run_id, {}) or {}


_CARDS: weakref.WeakKeyDictionary[
    sqlite_utils.Database, tuple[object, tuple[int, int], dict[tuple[str, str], dict]]
] = weakref.WeakKeyDictionary()
"""database -> (its connection, its content_state, the cards read then): see score_cards. Gone with the
database object."""


def score_cards(db: sqlite_utils.Database) -> dict[tuple[str, str], dict]:
    """(run, trajectory) -> the latest score card (engine.scoring's JSON), for every scored
    trajectory. Read once per state of the database (engine/store: ``content_state``): the runs
    view, the tour and the side by side ask for them in turn, and each read parses every card
    (issue 36: ~5 ms a time on the bundled corpus). The result is shared: callers read it, never
    change it."""
    kept = _CARDS.get(db)
    state = content_state(db)
    if kept is not None and kept[0] is db.conn and kept[1] == state:
        return kept[2]
    out: dict[tuple[str, str], dict] = {}
    if {"run_id", "trajectory_id", "card"} <= columns(db, "scores"):
        for r in scores.trajectory_score_rows(db):
            out[(r["run_id"], r["trajectory_id"])] = {
                **(stored_json(r["card"], "score card", r["run_id"], {}) or {}),
                "scoring": r["scoring"],
            }
    _CARDS[db] = (db.conn, state, out)
    return out


def _scores_table(
    db: sqlite_utils.Database,
) -> dict[tuple[str, str], tuple[float | None, float | None]]:
    """(run, trajectory) -> (intrinsic full, extrinsic compound), as the quadrant uses them."""
    return {
        key: (card.get("intrinsic_full"), (card.get("extrinsic") or {}).get("compound"))
        for key, card in score_cards(db).items()
    }


def judge_withheld(db: sqlite_utils.Database) -> dict[tuple[str, str], str]:
    """(run, trajectory) -> why its quadrant is withheld (the card's ``judge_unreliable``: the
    scoring pass's judge cannot carry a diagnosis), for the trajectories where it is."""
    return {
        key: card["judge_unreliable"]
        for key, card in score_cards(db).items()
        if card.get("judge_unreliable")
    }


def human_overrides(db: Database, verdict_ids: list[str]) -> dict[str, dict]:
    """verdict id -> its latest human override (the `overrides` table, engine/scoring/overrides.py), if any."""
    if not verdict_ids or "verdict_id" not in columns(db, "overrides"):
        return {}
    return {r["verdict_id"]: r for r in overrides_of(db, verdict_ids)}


def item_label(item: str) -> str:
    """A stored item id in words, counted from 1: 's2/c0' → 'state 3, claim 1',
    'compound/0' → 'compound question 1', 'single/1' → 'single question 2'."""
    m = re.fullmatch(r"s(\d+)/c(\d+)", item or "")
    if m:
        return f"state {int(m[1]) + 1}, claim {int(m[2]) + 1}"
    m = re.fullmatch(r"(compound|single)/(\d+)", item or "")
    if m:
        return f"{m[1]} question {int(m[2]) + 1}"
    return item or ""


_ITEM = re.compile(r"(?<![\w/])(?:s\d+/c\d+|(?:compound|single)/\d+)(?![\w/])")


def items_in_words(text: str) -> str:
    """Every stored item id in a stored sentence (a diagnosis, a journey's evidence) in the
    words of :func:`item_label`, counted from 1 as everywhere on screen: 'compound/0 (NO): …' →
    'compound question 1 (NO): …'. The stored text is unchanged (JSON and reports keep it)."""
    return _ITEM.sub(lambda m: item_label(m[0]), text)
