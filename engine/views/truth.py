"""Stepper: the corpus's own change for a state beside the system's operations (docs/design.md).

- :class:`GroundTruth` — the expected action, the corpus's change reason, and the claims the state
  adds and the claims that became stale, computed from the corpus (a reason is optional there).
- :class:`OpCount` — the expected action against the operations the system applied on the state's
  own document, and how operation accuracy counts the state (engine.scoring.metrics rules).
- :class:`LateMark` — a late-arriving document's date against the store's last change before it,
  and what the temporal guard did with it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from sqlite_utils import Database

from seorap.engine.corpus import Trajectory
from seorap.engine.store.queries.facts import last_dated_change_before


@dataclass(frozen=True)
class GroundTruth:
    action: str
    """The expected operation of the state (create | update | reinforce | conflict | supersede)."""
    reason: str
    """The corpus's change reason for the state ("" where it gives none)."""
    added: list[str]
    """Claims of this state that the previous state did not have."""
    stale: list[str]
    """Claims that became stale here: the state's staleClaims and earlier claims it no longer has."""
    first: bool
    """The trajectory's first state (everything is new)."""


def ground_truth(t: Trajectory, state_index: int) -> GroundTruth:
    state = t.states[state_index]
    prev = t.states[state_index - 1].claims if state_index > 0 else []
    added = [c for c in state.claims if c not in prev]
    stale = list(
        dict.fromkeys(list(state.stale_claims) + [c for c in prev if c not in state.claims])
    )
    return GroundTruth(
        state.action or "", state.change_reason or "", added, stale, state_index == 0
    )


@dataclass(frozen=True)
class OpCount:
    expected: str
    applied: dict[str, int]
    """Operation -> how many times the system applied it on the state's own document."""
    effective: str
    """The operation the state counts as: the strongest applied (engine.scoring.metrics)."""
    accepted: tuple[str, ...]
    """The operations that count as right for the expected action."""
    correct: bool | None
    """How operation accuracy counts the state; None: not counted here (distractor, not written)."""

    def sentence(self) -> str:
        """'expected update · applied create ×2, supersede ×1 → counts as supersede (strongest of
        supersede > update > create > reinforce) → op accuracy: miss (needs update)'."""
        # start-up: numpy loads only when this runs
        from seorap.engine.scoring import metrics

        applied = ", ".join(f"{op} ×{n}" for op, n in self.applied.items()) or "nothing"
        order = " > ".join(metrics.OPERATION_PRECEDENCE)
        verdict = "hit" if self.correct else f"miss (needs {' or '.join(self.accepted)})"
        return (
            f"expected {self.expected} · applied {applied} → counts as {self.effective} "
            f"(strongest of {order}) → op accuracy: {verdict}"
        )


def op_count(expected: str, operations: list[str], counted: bool) -> OpCount:
    """``operations``: those applied on the state's own document; ``counted``: False for a
    distractor or a document not written yet."""
    # start-up: numpy loads only when this runs
    from seorap.engine.scoring import metrics

    applied = dict(Counter(op for op in operations if op))
    effective = metrics.effective_operation(operations)
    accepted = tuple(sorted(metrics.ACCEPTED.get(expected, {expected})))
    return OpCount(
        expected,
        applied,
        effective,
        accepted,
        metrics.op_correct(expected, effective) if counted else None,
    )


@dataclass(frozen=True)
class LateMark:
    doc_date: str
    store_date: str
    """Document date of the store's last change (create, update or supersede) before this document."""
    store_position: int | None
    """Arrival position of that change (None: the store was empty)."""
    guard: str
    """The run's temporal guard (off | downgrade | merge; reference systems: off)."""
    effects: list[str]
    """What the guard changed on this document (empty: nothing)."""

    def sentence(self) -> str:
        when = (
            f"the store's last change ({self.store_date[:10]}, doc {self.store_position + 1})"
            if self.store_position is not None
            else "anything in the store"
        )
        text = f"late document: dated {self.doc_date[:10]}, older than {when}; "
        if self.effects:
            return text + "guard " + "; ".join(self.effects)
        if self.guard in ("", "off"):
            return text + "guard off: nothing held it back"
        return text + f"guard {self.guard}: no operation needed changing"


def late_mark(
    db: Database,
    run_id: str,
    trajectory_id: str,
    position: int,
    doc_date: str,
    guards: list[tuple[str, str]],
) -> LateMark:
    """``guards``: (guard, guard_effect) of this document's decisions."""
    row = last_dated_change_before(db, run_id, trajectory_id, position)
    guard = next((g for g, _ in guards if g), "off")
    effects = list(dict.fromkeys(e for _, e in guards if e))
    return LateMark(
        doc_date, row["doc_date"] if row else "", row["position"] if row else None, guard, effects
    )
