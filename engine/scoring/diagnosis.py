"""Why a trajectory landed in its quadrant, in words built from the run's own data (docs/metrics.md).

- compensation (extrinsic >= 0.5 > intrinsic): which stale or unsupported facts the answerer saw in
  its top-5 and still answered right, and which expected claims the store missed;
- bottleneck (intrinsic >= 0.5 > extrinsic): per question not answered YES, where the facts that
  hold part of the answer ranked (engine/scoring/holders.py) and what outranked them (with hybrid,
  BM25 and cosine figures); with the store's stale facts counted first.

Every fact a list names is marked stale when it is one of the trajectory's stale facts (an active
fact still stating a claim the corpus retired), wherever it is listed.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping

from seorap.engine.fmt import figure
from seorap.engine.scoring import lexical
from seorap.engine.scoring.extrinsic import TOP_K
from seorap.engine.scoring.stats import above

MAX_ITEMS = 3

UNRELIABLE = "judge unreliable — see audit"
"""What replaces a quadrant, MAD/DivRate and the tour's cases when the ruler cannot support them."""
UNVERIFIED = "judge unverified — not enough evidence"
"""What stands there instead when nothing shows the judge reliable or unreliable (fail closed:
the same figures are withheld and marked; the reason starts with ``UNVERIFIED_PREFIX``)."""
UNVERIFIED_PREFIX = "unverified:"
PARTIAL_LIMIT = 0.8
"""Saturated: more than this share of the parseable answer verdicts are PARTIAL."""
UNPARSEABLE_LIMIT = 0.2
"""Unreliable: more than this share of the answer verdicts could not be parsed."""
MIN_LABELS = 10
"""The label limits above apply to a question kind only from this many answer verdicts of it on
(docs/metrics.md): from 10 on, a judge giving PARTIAL to half its answers crosses PARTIAL_LIMIT by
chance at most 3.3 % of the time (n = 11), one failing to parse 1 in 20 crosses UNPARSEABLE_LIMIT
at most 3.0 % (n = 14); below, up to 50 % (one PARTIAL of one). Below it the audit decides."""
AUDIT_WRONG_PASS_LIMIT = 0.5
"""Cannot tell wrong from right: a deliberately wrong audit kind passes more often than this..."""
AUDIT_CONTROL_MIN = 0.5
"""... or the correct control passes less often than this..."""
AUDIT_SEPARATION_MIN = 0.5
"""... or the controls' pass rate exceeds the worst wrong kind's by less than this (separation)."""


def judge_unreliable(
    labels: Iterable[str] | Mapping[str, Iterable[str]],
    audit_pass_rates: Mapping[str, float | None] | None = None,
    control_kinds: Iterable[str] = ("correct", "paraphrase"),
    *,
    audit_partial_saturation: float | None = None,
    audit_separation: float | None = None,
    audit_ideal_rates: Mapping[str, float | None] | None = None,
) -> str | None:
    """Why the judge's verdicts cannot carry a diagnosis, or None when they can. The one place
    that decides it: the cards, the report and the app all show this decision.

    ``labels``: the run's answer verdicts that make the quadrants (memory, top-5), either one list or
    {question kind: labels}; the label limits apply to each kind on its own, and only to a kind
    with at least MIN_LABELS verdicts. ``audit_pass_rates``: {audit kind: pass rate} of the same
    judge when an audit was run, with its PARTIAL saturation and separation. Limits (strict; shares
    compared exactly, stats.above): PARTIAL share of the parseable labels > PARTIAL_LIMIT;
    unparseable share of all labels > UNPARSEABLE_LIMIT; no parseable label at all; an audit kind
    built to be wrong passing > AUDIT_WRONG_PASS_LIMIT; a control kind passing < AUDIT_CONTROL_MIN;
    a kind whose ideal verdict is PARTIAL (``missing-one``, in ``audit_ideal_rates``: {kind: share
    given its ideal verdict}, never among the pass rates) given it < 1 - AUDIT_WRONG_PASS_LIMIT;
    the audit's wrong answers given PARTIAL > PARTIAL_LIMIT; separation < AUDIT_SEPARATION_MIN.
    Kinds are named as the audit names them.

    A crossed limit makes the judge unreliable. Failing that, a kind with fewer than MIN_LABELS
    verdicts makes it **unverified** (a reason starting ``UNVERIFIED_PREFIX``, withheld alike)
    when none of them could be parsed, or when no audit measured the judge on both right and wrong
    answers (``audited``); otherwise the audit has spoken for it."""
    by_kind = labels if isinstance(labels, Mapping) else {"": list(labels)}
    groups = {kind: list(group) for kind, group in sorted(by_kind.items())}
    controls = set(control_kinds)
    rates = audit_pass_rates or {}
    reasons = [
        reason
        for kind, group in groups.items()
        if len(group) >= MIN_LABELS
        for reason in _label_reasons(group, f"{kind} " if kind else "")
    ]
    reasons += _audit_reasons(rates, controls, audit_ideal_rates or {})
    if audit_partial_saturation is not None and above(audit_partial_saturation, PARTIAL_LIMIT):
        reasons.append(
            f"audit: PARTIAL share of the wrong answers {audit_partial_saturation:.2f} > "
            f"{PARTIAL_LIMIT:.2f}"
        )
    if audit_separation is not None and above(AUDIT_SEPARATION_MIN, audit_separation):
        reasons.append(
            f"audit: separation {audit_separation:.2f} < {AUDIT_SEPARATION_MIN:.2f} (correct "
            f"answers pass barely more often than the worst kind of wrong answer)"
        )
    if reasons:
        return "; ".join(reasons)
    few = {kind: group for kind, group in groups.items() if 0 < len(group) < MIN_LABELS}
    has_audit = audited(rates, controls, audit_separation)
    unverified = [_unverified(group, kind, has_audit) for kind, group in few.items()]
    return "; ".join(x for x in unverified if x) or None


def audited(
    audit_pass_rates: Mapping[str, float | None],
    control_kinds: Collection[str],
    separation: float | None = None,
) -> bool:
    """Whether an audit measured the judge on right and on wrong answers (a separation, or a pass
    rate of a control kind and of a wrong kind): one side alone cannot tell a judge that says YES
    (or NO) to everything from a good one."""
    measured = {k for k, rate in audit_pass_rates.items() if rate is not None}
    return separation is not None or (
        bool(measured & set(control_kinds)) and bool(measured - set(control_kinds))
    )


def _unverified(labels: list[str], kind: str, has_audit: bool) -> str:
    """Why a kind with fewer than MIN_LABELS verdicts leaves the judge unverified ('' when the
    audit speaks for it)."""
    n = len(labels)
    of = f"{n} answer verdict{'s' if n != 1 else ''}" + (f" of kind {kind}" if kind else "")
    if all(x == "UNPARSEABLE" for x in labels):
        return f"{UNVERIFIED_PREFIX} {of}, none parseable"
    if not has_audit:
        return f"{UNVERIFIED_PREFIX} only {of} and no audit (the label limits need {MIN_LABELS})"
    return ""


def is_unverified(reason: str | None) -> bool:
    """Whether a stored decision (``judge_unreliable``) says unverified rather than unreliable."""
    return bool(reason) and str(reason).startswith(UNVERIFIED_PREFIX)


def judge_headline(reason: str | None) -> str:
    """What stands where a quadrant would under this decision: UNVERIFIED or UNRELIABLE."""
    return UNVERIFIED if is_unverified(reason) else UNRELIABLE


def _audit_reasons(
    rates: Mapping[str, float | None],
    controls: Collection[str],
    ideal_rates: Mapping[str, float | None],
) -> list[str]:
    """The audit's pass-rate limits, per kind (controls, wrong kinds, the PARTIAL-ideal kinds)."""
    reasons = []
    for kind, rate in sorted(rates.items()):
        if rate is None:
            continue
        if kind in controls and above(AUDIT_CONTROL_MIN, rate):
            reasons.append(
                f"audit: '{kind}' answers (a control) pass {rate:.2f} < {AUDIT_CONTROL_MIN:.2f}"
            )
        elif kind not in controls and above(rate, AUDIT_WRONG_PASS_LIMIT):
            reasons.append(
                f"audit: wrong '{kind}' answers pass {rate:.2f} > {AUDIT_WRONG_PASS_LIMIT:.2f}"
            )
    for kind, rate in sorted(ideal_rates.items()):
        if rate is not None and above(1 - AUDIT_WRONG_PASS_LIMIT, rate):
            reasons.append(
                f"audit: '{kind}' answers get their ideal PARTIAL {rate:.2f} < "
                f"{1 - AUDIT_WRONG_PASS_LIMIT:.2f}"
            )
    return reasons


def _label_reasons(labels: list[str], kind: str) -> list[str]:
    """The saturation and parse limits over one question kind's answer verdicts (compound and
    single apart: three singles per compound must not dilute a saturated compound side)."""
    parseable = [x for x in labels if x != "UNPARSEABLE"]
    if labels and not parseable:
        return [f"all {len(labels)} {kind}answer verdicts unparseable"]
    if not parseable:
        return []
    out = []
    partial = sum(x == "PARTIAL" for x in parseable) / len(parseable)
    if above(partial, PARTIAL_LIMIT):
        out.append(f"{kind}PARTIAL share {partial:.2f} > {PARTIAL_LIMIT:.2f}")
    unparseable = (len(labels) - len(parseable)) / len(labels)
    if above(unparseable, UNPARSEABLE_LIMIT):
        out.append(f"{kind}unparseable share {unparseable:.2f} > {UNPARSEABLE_LIMIT:.2f}")
    return out


def _short(text: str, n: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def explain(
    quadrant: str | None,
    intrinsic: float | None,
    extrinsic: float | None,
    *,
    stale_ids: list[str],
    final_claims: list[str],
    final_missed: list[str],
    retrievals: list[dict],
    verdicts: list[dict],
) -> str:
    head = f"intrinsic {figure(intrinsic, 'n/a')}, extrinsic {figure(extrinsic, 'n/a')}"
    if quadrant == "compensation":
        return (
            head
            + " — "
            + _compensation(stale_ids, final_claims, final_missed, retrievals, verdicts)
        )
    if quadrant == "bottleneck":
        return head + " — " + _bottleneck(retrievals, verdicts, set(stale_ids))
    if quadrant == "healthy":
        return head + " — store and answers both pass."
    if quadrant == "both-low":
        return head + f" — both fail; the store misses {len(final_missed)} final claim(s)."
    return head + " — not enough data for a quadrant."


def unreliable_text(intrinsic: float | None, extrinsic: float | None, reason: str) -> str:
    """The diagnosis line of a trajectory whose quadrant is withheld."""
    return (
        f"intrinsic {figure(intrinsic, 'n/a')}, extrinsic {figure(extrinsic, 'n/a')} — "
        f"{judge_headline(reason)}: {reason}."
    )


def _memory_verdicts(verdicts: list[dict]) -> dict[tuple[str, str], dict]:
    return {
        (v["kind"], v["item"]): v for v in verdicts if v["source"] == "memory" and v["k"] == TOP_K
    }


def _compensation(
    stale_ids: Collection[str],
    final_claims: list[str],
    final_missed: list[str],
    retrievals: list[dict],
    verdicts: list[dict],
) -> str:
    answered = _memory_verdicts(verdicts)
    seen = []
    for r in retrievals:
        if r["source"] != "memory":
            continue
        v = answered.get((r["kind"], r["item"]))
        if v is None or v["score"] is None or above(0.5, v["score"]):
            continue
        for hit in json.loads(r["ranking"])[:TOP_K]:
            stale = hit["fact_id"] in stale_ids
            unsupported = not any(lexical.related(c, hit["text"]) for c in final_claims)
            if stale or unsupported:
                why = "stale" if stale else "not in the current claims"
                seen.append(f'rank {hit["rank"]} {why} fact "{_short(hit["text"])}" ({r["item"]})')
    parts = []
    if seen:
        parts.append(
            f"the answerer saw {len(seen)} stale/wrong fact(s) and still answered right: "
            + "; ".join(seen[:MAX_ITEMS])
        )
    if final_missed:
        parts.append(
            f'the store misses {len(final_missed)} final claim(s), e.g. "{_short(final_missed[0])}"'
        )
    return "; ".join(parts) or "answers passed although the store's coverage is below 0.5."


def _bottleneck(retrievals: list[dict], verdicts: list[dict], stale: Iterable[str] = ()) -> str:
    stale_ids = set(stale)
    answered = _memory_verdicts(verdicts)
    notes = []
    for r in retrievals:
        if r["source"] != "memory":
            continue
        v = answered.get((r["kind"], r["item"]))
        if v is None or v["score"] == 1.0:
            continue
        ranking = json.loads(r["ranking"])
        holders = set(json.loads(r["answer_fact_ids"]))
        held = [h for h in ranking if h["fact_id"] in holders]
        if not held:
            notes.append(f"{r['item']} ({v['label']}): no active fact holds the answer")
            continue
        above = [h for h in ranking if h["rank"] < held[0]["rank"]][:MAX_ITEMS]
        outranked = ", ".join(
            f'#{h["rank"]} "{_short(h["text"], 40)}" ({_stale(h, stale_ids)}{_scores(h)})'
            for h in above
        )
        ranks = ", ".join(
            f"{h['rank']}" + (" (stale)" if h["fact_id"] in stale_ids else "")
            for h in held[:MAX_ITEMS]
        )
        where = f"answer-holding fact(s) at rank {ranks}"
        notes.append(
            f"{r['item']} ({v['label']}): {where}"
            + (f"; outranked by {outranked}" if above else "")
        )
    text = (
        "; ".join(notes[: MAX_ITEMS + 1])
        or "every question passed at top-5 yet the compound score is low."
    )
    if stale_ids:
        text = f"the store holds {len(stale_ids)} stale fact(s); " + text
    return text


def _scores(hit: dict) -> str:
    """A ranked fact's scores: hybrid's parts, or the system's own search score."""
    if hit.get("hybrid") is None:
        return f"own search {float(hit.get('score') or 0.0):.2f}"
    return f"hybrid {hit['hybrid']:.2f}, bm25 {hit['bm25_norm']:.2f}, cos {hit['dense']:.2f}"


def _stale(hit: dict, stale_ids: set[str]) -> str:
    return "stale; " if hit["fact_id"] in stale_ids else ""
