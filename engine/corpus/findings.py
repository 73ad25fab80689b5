"""What `seorap validate` says about an imported set besides its problems: the dataset's own traps,
named rather than hidden (docs/corpus-format.md#imported-sets).

None of these makes a corpus invalid; each is a fact a reader of its scores needs: items excluded
from scoring (and why), questions dated before their haystack's last session, abstention items, and
the absence of expected claims (so the intrinsic figures are n/a), evidence ids that cite nothing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from seorap.engine.corpus.trajectory import Trajectory, parse_timestamp

SHOWN = 10
"""Located lines printed per finding; the rest are counted."""


@dataclass(frozen=True)
class Finding:
    message: str
    located: tuple[str, ...] = ()
    """``TRAJECTORY: singleQA[j]: ...`` lines, the first :data:`SHOWN` of them."""
    more: int = 0


def kind_label(q: Any) -> str:
    """``1 multi-hop``, ``abstention (temporal-reasoning)``, ``knowledge-update``."""
    kind, name = q.kind or "(none)", q.kind_name
    if not name or name == kind:
        return str(kind)
    return str(name) if name.startswith(kind) else f"{kind} {name}"


def imported_summary(trajectories: list[Trajectory]) -> dict[str, Any]:
    """Counts of an imported set for `seorap validate --json`."""
    imported = [t for t in trajectories if t.source is not None]
    questions = [q for t in imported for q in t.single_qa]
    return {
        "languages": dict(Counter(t.language for t in trajectories)),
        "datasets": dict(Counter(t.source.dataset for t in imported if t.source)),
        "by_kind": dict(sorted(Counter(kind_label(q) for q in questions).items())),
        "excluded": sum(q.excluded is not None for q in questions),
        "scored_questions": sum(q.excluded is None for q in questions),
        "abstention": sum(q.abstention for q in questions),
        "asked_before_last_session": len(_asked_early(imported)),
    }


def findings(trajectories: list[Trajectory]) -> list[Finding]:
    """The findings of a valid corpus (empty for a hand-written one)."""
    imported = [t for t in trajectories if t.source is not None]
    if not imported:
        return []
    out = [_excluded(imported), _asked(imported), _abstention(imported), _claims(imported)]
    out.append(_evidence(imported))
    return [f for f in out if f is not None]


def _n(count: int, noun: str) -> str:
    """``1 item``, ``2 items``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _finding(message: str, lines: list[str]) -> Finding:
    return Finding(message, tuple(lines[:SHOWN]), max(0, len(lines) - SHOWN))


def _excluded(ts: list[Trajectory]) -> Finding | None:
    reasons = Counter(q.excluded for t in ts for q in t.single_qa if q.excluded)
    if not reasons:
        return None
    total = sum(reasons.values())
    scored = sum(len(t.single_qa) for t in ts) - total
    why = "; ".join(f"{n}: {reason}" for reason, n in reasons.most_common())
    return Finding(f"{_n(total, 'item')} excluded from scoring, {scored} scored ({why})")


def _asked_early(ts: list[Trajectory]) -> list[str]:
    lines = []
    for t in ts:
        last = max(range(len(t.states)), key=lambda i: t.states[i].when)
        for j, q in enumerate(t.single_qa):
            if q.asked_at and parse_timestamp(q.asked_at) < t.states[last].when:
                lines.append(
                    f"{t.id}: singleQA[{j}]: asked {q.asked_at}, before states[{last}] of "
                    f"{t.states[last].timestamp}"
                )
    return lines


def _asked(ts: list[Trajectory]) -> Finding | None:
    lines = _asked_early(ts)
    if not lines:
        return None
    return _finding(
        f"{_n(len(lines), 'question')} dated before their last session; kept as the dataset has "
        "them (asked at their own date, the later sessions still written)",
        lines,
    )


def _abstention(ts: list[Trajectory]) -> Finding | None:
    n = sum(q.abstention for t in ts for q in t.single_qa)
    if not n:
        return None
    return Finding(
        f"{_n(n, 'abstention item')}, their own kind: the right answer is that the history does not say"
    )


def _claims(ts: list[Trajectory]) -> Finding | None:
    bare = [t for t in ts if not any(s.claims for s in t.states)]
    if not bare:
        return None
    return Finding(
        f"{len(bare)} of {len(ts)} imported trajectories state no expected claims: the intrinsic "
        "figures (claim recall, stale facts, operations) are n/a for them; score with questions"
    )


def _evidence(ts: list[Trajectory]) -> Finding | None:
    lines = []
    for t in ts:
        known = {turn.id for s in t.states for turn in s.document.turns if turn.id}
        known |= {s.document.source_id for s in t.states if s.document.source_id}
        for j, q in enumerate(t.single_qa):
            lines += [
                f"{t.id}: singleQA[{j}].evidence: {e!r} names no turn or session"
                for e in q.evidence
                if e not in known
            ]
    if not lines:
        return None
    return _finding(f"{_n(len(lines), 'evidence id')} citing nothing in its conversation", lines)
