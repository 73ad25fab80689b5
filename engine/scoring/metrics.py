"""Score-card metrics as pure functions over verdict scores and store snapshots (docs/metrics.md).

Inputs are plain values (scores, action names, {fact_id: text} snapshots); nothing here touches the
database or a model. Every formula, with the FEB-30 equation number where there is one, is in
docs/metrics.md. ``None`` means "not defined here" and is never replaced by a guess.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from seorap.engine.scoring.stats import PASS_THRESHOLD, at_least, mean

UPDATE_ACTIONS = ("update", "supersede")
OPERATION_PRECEDENCE = ("supersede", "update", "create", "reinforce")
"""Strongest first: the effective operation of a state is the first of these applied in it."""
NONE_OP = "none"
ACCEPTED = {"conflict": {"update", "supersede"}}
"""Expected actions satisfied by more than one operation; any other action must match exactly."""
QUADRANTS = ("healthy", "compensation", "bottleneck", "both-low")


# --- coverage (eq. 1, 2) and misses -------------------------------------------------------------


def coverage(claim_scores: Sequence[float | None]) -> float | None:
    """Eq. 1: mean judged score of the state's expected claims (unparseable verdicts left out)."""
    return mean(claim_scores)


def fact_accuracy(state_coverages: Sequence[float | None]) -> float | None:
    """Eq. 2: mean coverage over the trajectory's states = its intrinsic score."""
    return mean(state_coverages)


def miss_rate(claim_scores: Iterable[float | None]) -> float | None:
    """Share of judged (state, claim) pairs not scored YES (PARTIAL counts as a miss)."""
    return mean([0.0 if at_least(s, 1.0) else 1.0 for s in claim_scores if s is not None])


# --- store changes, UDR (eq. 3), FUR (eq. 4) -----------------------------------------------------


@dataclass(frozen=True)
class Delta:
    """How the active store changed over one state's documents."""

    created: frozenset[str]
    rewritten: frozenset[str]
    """Facts active before and after whose text changed."""
    removed: frozenset[str]
    """Facts active before and no longer active (superseded or deleted)."""

    @property
    def changed(self) -> bool:
        return bool(self.created or self.rewritten or self.removed)

    @property
    def overwrote(self) -> bool:
        """Existing knowledge was rewritten or removed (creation alone does not count)."""
        return bool(self.rewritten or self.removed)


def store_delta(before: Mapping[str, str], after: Mapping[str, str]) -> Delta:
    """Compare two active-store snapshots {fact_id: text}."""
    common = before.keys() & after.keys()
    return Delta(
        frozenset(after.keys() - before.keys()),
        frozenset(f for f in common if before[f] != after[f]),
        frozenset(before.keys() - after.keys()),
    )


def retires(previous_claims: Sequence[str], claims: Sequence[str]) -> bool:
    """The ground truth retires a value at this state: a claim of the previous state is no longer
    current (an update that only adds claims gives the store nothing to change)."""
    current = set(claims)
    return any(c not in current for c in previous_claims)


def udr(
    actions: Sequence[str],
    deltas: Sequence[Delta],
    *,
    retiring: Sequence[bool] | None = None,
    append_only: bool = False,
) -> float | None:
    """Eq. 3: among update/supersede states (that retire a value, when ``retiring`` is given), the
    share where an existing fact was rewritten or removed. Creating a fact is not a change to what
    the store knew (an append-only store would otherwise score 1.0 by adding the new value next to
    the old one). None for an append-only system: it never changes a fact by design, so the
    question does not apply (reported as n/a)."""
    if append_only:
        return None
    retiring = retiring if retiring is not None else [True] * len(actions)
    hits = [
        1.0 if d.overwrote else 0.0
        for a, d, r in zip(actions, deltas, retiring)
        if a in UPDATE_ACTIONS and r
    ]
    return mean(hits)


def fur(actions: Sequence[str], deltas: Sequence[Delta]) -> float | None:
    """Eq. 4: among reinforce states, the share where existing facts were rewritten or removed."""
    hits = [1.0 if d.overwrote else 0.0 for a, d in zip(actions, deltas) if a == "reinforce"]
    return mean(hits)


# --- operation accuracy --------------------------------------------------------------------------


def effective_operation(operations: Iterable[str]) -> str:
    """The strongest operation applied in a state (supersede > update > create > reinforce), or
    ``none`` when the state's document produced no operation."""
    seen = set(operations)
    for op in OPERATION_PRECEDENCE:
        if op in seen:
            return op
    return NONE_OP


def op_correct(expected: str, effective: str) -> bool:
    return effective in ACCEPTED.get(expected, {expected})


def op_accuracy(expected: Sequence[str], effective: Sequence[str]) -> float | None:
    """Share of states whose effective operation matches the expected action."""
    return mean([1.0 if op_correct(e, o) else 0.0 for e, o in zip(expected, effective)])


def majority_baseline(expected: Sequence[str]) -> tuple[str | None, float | None]:
    """(most frequent expected action, accuracy of always predicting it); ties -> first seen."""
    if not expected:
        return None, None
    action, count = Counter(expected).most_common(1)[0]
    return action, count / len(expected)


def confusion(expected: Sequence[str], effective: Sequence[str]) -> dict[str, dict[str, int]]:
    """{expected action: {effective operation: count}}."""
    table: dict[str, dict[str, int]] = {}
    for e, o in zip(expected, effective):
        row = table.setdefault(e, {})
        row[o] = row.get(o, 0) + 1
    return table


# --- confidence ----------------------------------------------------------------------------------


def confidence_mae(expected: Sequence[float], actual: Sequence[float | None]) -> float | None:
    """Mean |expected - actual| over states with an actual confidence."""
    return mean([abs(e - a) for e, a in zip(expected, actual) if a is not None])


# --- precision side (ours) -----------------------------------------------------------------------


def stale_claims_at(
    claims: Sequence[Sequence[str]], stale: Sequence[Sequence[str]], index: int
) -> list[str]:
    """Values that must not be held after state ``index``: every staleClaim of states 0..index
    that is not (again) one of the current claims."""
    current = set(claims[index])
    out: dict[str, None] = {}
    for values in stale[: index + 1]:
        for value in values:
            if value not in current:
                out.setdefault(value, None)
    return list(out)


Holds = Callable[[str, str], bool]
"""holds(claim, fact_text) -> does the fact state the claim."""


def stale_facts(facts: Mapping[str, str], stale: Sequence[str], holds: Holds) -> list[str]:
    """Ids of active facts that still state a stale value."""
    return [fid for fid, text in facts.items() if any(holds(s, text) for s in stale)]


def claim_precision(
    facts: Mapping[str, str],
    claims: Sequence[str],
    stale: Sequence[str],
    holds: Holds,
    related: Holds,
) -> float | None:
    """Share of active facts consistent with the current claims: related to at least one current
    claim and stating no stale value. None for an empty store."""
    if not facts:
        return None
    stale_ids = set(stale_facts(facts, stale, holds))
    good = [
        fid
        for fid, text in facts.items()
        if fid not in stale_ids and any(related(c, text) for c in claims)
    ]
    return len(good) / len(facts)


# --- agreement -----------------------------------------------------------------------------------


def quadrant(
    intrinsic: float | None, extrinsic: float | None, threshold: float = PASS_THRESHOLD
) -> str | None:
    """healthy (both >= t), compensation (e >= t > i), bottleneck (i >= t > e), both-low; the
    comparisons are exact (stats.at_least)."""
    if intrinsic is None or extrinsic is None:
        return None
    i_ok, e_ok = at_least(intrinsic, threshold), at_least(extrinsic, threshold)
    if i_ok and e_ok:
        return "healthy"
    if e_ok:
        return "compensation"
    if i_ok:
        return "bottleneck"
    return "both-low"


@dataclass(frozen=True)
class BenefitTax:
    n: int
    benefit: int
    """Memory right, naive RAG wrong."""
    tax: int
    """Naive RAG right, memory wrong."""
    both_right: int
    both_wrong: int

    @property
    def net(self) -> int:
        return self.benefit - self.tax

    @property
    def net_rate(self) -> float | None:
        return self.net / self.n if self.n else None


def benefit_tax(
    memory: Sequence[float | None], rag: Sequence[float | None], right: float = 1.0
) -> BenefitTax:
    """Per-question comparison against naive RAG; a question is 'right' when its score >= ``right``
    (YES by default). Questions with an unparseable verdict on either side are left out."""
    counts: Counter[tuple[bool, bool]] = Counter()
    for m, r in zip(memory, rag):
        if m is None or r is None:
            continue
        counts[(at_least(m, right), at_least(r, right))] += 1
    return BenefitTax(
        sum(counts.values()),
        counts[(True, False)],
        counts[(False, True)],
        counts[(True, True)],
        counts[(False, False)],
    )


def depth_curve(scores_by_k: Mapping[int, Sequence[float | None]]) -> dict[int, float | None]:
    """Mean judged score per retrieval depth k."""
    return {k: mean(v) for k, v in sorted(scores_by_k.items())}


# --- fact shape (ours) ---------------------------------------------------------------------------


@dataclass(frozen=True)
class FactShape:
    """What the store's facts look like: short single statements or long blobs."""

    n: int
    """Active facts measured."""
    mean_length: float | None
    """Mean characters per fact (whitespace runs counted as one)."""
    multi_share: float | None
    """Share of facts holding more than one statement."""


def statement_count(
    text: str, claims: Sequence[str], holds: Holds, split: Callable[[str], list[str]]
) -> int:
    """Statements a fact holds: the larger of its sentence count (``split``) and the number of
    distinct ground-truth claims it states (``holds``). The second catches a merged fact that joins
    claims with commas in one sentence ("A, B, C.")."""
    held = sum(1 for c in dict.fromkeys(claims) if holds(c, text))
    return max(len(split(text)), held)


def fact_shape(
    facts: Iterable[str], claims: Sequence[str], holds: Holds, split: Callable[[str], list[str]]
) -> FactShape:
    """Mean fact length and the share of facts holding more than one statement (a store of
    219-character blobs and a store of short facts can cover the same claims under ``full`` and
    part ways under ``filter``: this is the figure that explains such a gap)."""
    texts = [" ".join(t.split()) for t in facts]
    if not texts:
        return FactShape(0, None, None)
    multi = [1.0 if statement_count(t, claims, holds, split) > 1 else 0.0 for t in texts]
    return FactShape(len(texts), mean([float(len(t)) for t in texts]), mean(multi))
