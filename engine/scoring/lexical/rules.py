"""The rules: a verdict and its rationale from one :class:`Match` (docs/metrics.md)."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from seorap.engine.scoring.lexical.limits import (
    LENIENT_PARTIAL_RECALL,
    LENIENT_YES_RECALL,
    PARTIAL_RECALL,
    YES_RECALL,
)
from seorap.engine.scoring.lexical.measure import Match

ALTERNATIVES = ("또는", "혹은", "아니면", "거나", "나", "이나", "인가")
"""Hedge words that offer another value beside the expected one: a hedge with one is NO."""

# ---- the rules --------------------------------------------------------------------------------------

RULES = (
    "polarity",
    "state",
    "contrast",
    "wrong-value",
    "wrong-subject",
    "substituted",
    "hedge",
    "multi-value",
    "unresolved-date",
    "no-value",
    "low-recall",
    "missing-value",
    "missing-clause",
    "unverified",
    "values-anchored",
    "partial-recall",
    "all-found",
)
"""Rule names, in the order they are applied (docs/metrics.md lists each with its test)."""


def _frac(f: Fraction) -> str:
    return f"{f.numerator}/{f.denominator}"


Graded = tuple[Literal["YES", "PARTIAL", "NO"], str]
"""(label, rationale) of one lexical verdict."""


def grade(match: Match, *, check_hedge: bool) -> Graded:
    """(label, rationale) by the rules in docs/metrics.md. ``check_hedge``: the answer rules
    (hedge words, two values for one slot) apply — stored facts are not answers."""
    elements = f"{match.found}/{match.total} expected elements found"
    ratio = f"{match.found}/{match.total}" if match.total else "1/1"
    return (
        _contradicted(match, elements)
        or (_answer_faults(match, elements) if check_hedge else None)
        or _unsupported(match, elements, ratio)
        or _incomplete(match, elements, check_hedge)
        or _supported(match, elements, ratio)
    )


def _contradicted(match: Match, elements: str) -> Graded | None:
    """polarity, contrast, wrong-value, wrong-subject: the candidate says otherwise."""
    if match.polarity:
        seg, mine, theirs = match.polarity[0]
        return "NO", (
            f"NO [polarity]: for «{seg}» the expected statement has {mine} while the "
            f"candidate has {theirs}"
        )
    if match.state is not None:
        want, got = match.state
        return "NO", (
            f"NO [state]: the expected statement says the matter is {want}, the candidate's "
            f"clause stating it says {got}; {elements}"
        )
    if match.contrast:
        want, word = match.contrast[0]
        return "NO", (
            f"NO [contrast]: the candidate sets {want} aside («{word}»: another value takes its "
            f"place); {elements}"
        )
    if match.wrong:
        want, got = match.wrong[0]
        return (
            "NO",
            f"NO [wrong-value]: expected {want}, the candidate states {got} instead; {elements}",
        )
    if match.subject:
        want, got = match.subject[0]
        return "NO", (
            f"NO [wrong-subject]: the value is stated about «{got}», not «{want}»; {elements}"
        )
    if match.substituted:
        want, got, where = match.substituted[0]
        return "NO", (
            f"NO [substituted]: the answer has «{got}» where {where} has «{want}» "
            f"(before the same word): it speaks of something else; {elements}"
        )
    return None


def _answer_faults(match: Match, elements: str) -> Graded | None:
    """hedge, multi-value: an answer that will not commit to one value."""
    if match.hedges:
        said = ", ".join(match.hedges)
        offers = any(h == w or f"({w})" in h for h in match.hedges for w in ALTERNATIVES)
        too_little = match.recall < PARTIAL_RECALL and not match.anchored  # as low-recall
        nothing = match.values_expected and not match.values_stated  # as no-value
        if offers or nothing or too_little or match.rivalled:
            return "NO", f"NO [hedge]: the answer hedges ({said}); {elements}"
        return "PARTIAL", (
            f"PARTIAL [hedge]: the answer states expected values but hedges them ({said}); "
            f"{elements}"
        )
    if match.multi:
        want, other = match.multi[0]
        return "NO", (
            f"NO [multi-value]: the answer gives {want} and {other} for one slot, neither "
            f"marked as former; {elements}"
        )
    return None


def _unsupported(match: Match, elements: str, ratio: str) -> Graded | None:
    """unresolved-date, no-value, low-recall: too little of the expected statement to credit."""
    if match.unresolved and not match.wrong:
        return "PARTIAL", (
            f"PARTIAL [unresolved-date]: «{match.unresolved[0]}» cannot be read as a day "
            f"(no reference date, or a period); {elements}"
        )
    if match.values_expected and not match.values_stated:
        return (
            "NO",
            f"NO [no-value]: none of the {match.values_expected} expected value(s) is stated; {elements}",
        )
    if match.recall < PARTIAL_RECALL and not match.segment_complete and not match.anchored:
        return "NO", f"NO [low-recall]: {elements} ({ratio} < {_frac(PARTIAL_RECALL)})"
    return None


def _incomplete(match: Match, elements: str, check_hedge: bool) -> Graded | None:
    """missing-value, missing-clause, unverified: stated in part."""
    if match.missing:
        return "PARTIAL", (
            f"PARTIAL [missing-value]: {', '.join(match.missing)} not stated (no other value "
            f"given for it); {elements}"
        )
    if match.missing_clauses:
        return "PARTIAL", (
            f"PARTIAL [missing-clause]: nothing of «{match.missing_clauses[0]}» is stated; "
            f"{elements}"
        )
    said = " ".join(match.unverified)
    words = [*match.unverified, *(w for w in match.unaccounted if w.rstrip("-") not in said)]
    if check_hedge and words:
        return "PARTIAL", (
            f"PARTIAL [unverified]: every expected value stated, but unverified: "
            f"«{', '.join(words[:8])}»; {elements}"
        )
    return None


def _supported(match: Match, elements: str, ratio: str) -> Graded:
    """values-anchored, partial-recall, all-found."""
    if match.values_expected and match.anchored:
        return "YES", (
            f"YES [values-anchored]: every expected value stated in a clause about the same "
            f"thing, nothing unverified next to them; {elements}"
        )
    if match.recall < YES_RECALL:
        lacking = ", ".join(match.missing_nouns[:5])
        return "PARTIAL", (
            f"PARTIAL [partial-recall]: {elements} ({ratio} < {_frac(YES_RECALL)}); "
            f"missing: {lacking}"
        )
    return "YES", (
        f"YES [all-found]: every expected value stated; {elements} ({ratio} >= {_frac(YES_RECALL)})"
    )


def grade_lenient(match: Match) -> Graded:
    """The lenient rules (mirroring engine/prompts/judge_lenient.txt): element recall only — no
    value, polarity or hedge rule — YES at recall >= 1/2, PARTIAL at >= 1/4. It exists to show
    offline what a generous grader lets through."""
    elements = f"{match.found}/{match.total} expected elements found"
    ratio = f"{match.found}/{match.total}" if match.total else "1/1"
    if match.recall >= LENIENT_YES_RECALL:
        return "YES", f"YES [lenient]: {elements} ({ratio} >= {_frac(LENIENT_YES_RECALL)})"
    if match.recall >= LENIENT_PARTIAL_RECALL:
        return "PARTIAL", (
            f"PARTIAL [lenient]: {elements} ({ratio} < {_frac(LENIENT_YES_RECALL)}, "
            f">= {_frac(LENIENT_PARTIAL_RECALL)})"
        )
    return "NO", f"NO [lenient]: {elements} ({ratio} < {_frac(LENIENT_PARTIAL_RECALL)})"
