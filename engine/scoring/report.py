"""Build the report from stored score cards: plain data (engine/scoring/schema.py), no rendering.

``build_report(db, run_ids)`` reads the ``scores``, ``verdicts``, ``overrides`` and ``calls``
tables; it never calls a model. Schema: engine/scoring/schema.py, documented in docs/report.md.
The figures pooled over a run's trajectories (the aggregate, CIs) are engine/scoring/aggregate.py.
``rows(report)`` flattens it to one dict per run x trajectory. The text formats (JSON, CSV, Markdown)
are in engine/scoring/report_text.py; the terminal table is drawn by cli/report_table.py.
"""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path
from typing import Unpack

from sqlite_utils import Database

from seorap.engine.corpus.gold import default_ledger, read, standing
from seorap.engine.errors import InputProblems
from seorap.engine.run import accounting
from seorap.engine.scoring import answer_path, audit, ruler_marks, stats
from seorap.engine.scoring import overrides as ov
from seorap.engine.scoring.aggregate import aggregate, interval, trajectory_report
from seorap.engine.scoring.gold import gold_figures
from seorap.engine.scoring.journey import figures as journey_figures
from seorap.engine.scoring.readtime import not_applicable, run_figures, withhold
from seorap.engine.scoring.rulers import full_vs_filter
from seorap.engine.scoring.schema import (
    Accounting,
    Aggregate,
    Calls,
    Comparison,
    GoldFigures,
    OverrideFigures,
    ReadTimeFigures,
    Report,
    RulerFigures,
    RunReport,
    SeedFigures,
    SimilarityFigures,
    TrajectoryReport,
)
from seorap.engine.scoring.similarity import DEFAULT_THRESHOLD
from seorap.engine.scoring.tables import ensure_tables, now, scorings
from seorap.engine.store.damage import stored_json
from seorap.engine.store.database import db_file
from seorap.engine.store.queries import calls as stored_calls
from seorap.engine.store.queries import runs as stored_runs
from seorap.engine.store.queries import scores as stored_scores
from seorap.engine.store.queries import verdicts as stored_verdicts
from seorap.engine.store.recording import recording_of
from seorap.engine.views.runs import system_label


def build_report(
    db: Database,
    run_ids: list[str] | None = None,
    *,
    scoring: str | None = None,
    resamples: int = stats.DEFAULT_RESAMPLES,
    seed: int = stats.DEFAULT_SEED,
    ledger: str | Path | None = None,
) -> Report:
    """``ledger``: the gold-error ledger to read (default: the one beside the database, when it
    exists; engine/corpus/gold.py)."""
    ensure_tables(db)
    if not run_ids:
        run_ids = stored_scores.scored_run_ids(db)
    found = [
        run_report(db, rid, scoring=scoring, resamples=resamples, seed=seed, ledger=ledger)
        for rid in run_ids
    ]
    runs = [r for r in found if r is not None]
    return Report(created_at=now(), runs=runs, comparisons=_comparisons(runs))


def run_report(
    db: Database,
    run_id: str,
    *,
    scoring: str | None = None,
    resamples: int = stats.DEFAULT_RESAMPLES,
    seed: int = stats.DEFAULT_SEED,
    ledger: str | Path | None = None,
) -> RunReport | None:
    names = scorings(db, run_id)
    if not names:
        return None
    name = scoring if scoring in names else names[0]
    run = db.table("runs").get(run_id)
    cards = {
        tid: stored_json(card, "score card", run_id, {})
        for tid, card in stored_scores.cards_in_order(db, run_id, name)
    }
    extras = cards.pop("", {})
    trajectories = [trajectory_report(tid, card) for tid, card in cards.items()]
    verdicts = stored_verdicts.select(db, run_id, name)
    boot = dict(resamples=resamples, seed=seed)
    agg = aggregate(
        trajectories, cards, verdicts, unreliable=extras.get("judge_unreliable"), **boot
    )
    agg.seeds = seed_figures(db, run_id, name)
    manifest = stored_json(run.get("manifest"), "manifest", run_id, {})
    na = not_applicable((manifest if isinstance(manifest, dict) else {}).get("capabilities"))
    withhold(trajectories, agg, na)
    rulers = ruler_figures(db, run_id)
    spread = [r.intrinsic for r in rulers if r.intrinsic is not None]
    built = RunReport(
        run_id=run_id,
        system=run["system"],
        standin=written_by_standin(run.get("manifest")),
        keep_ungrounded=kept_ungrounded(run.get("manifest")),
        recording=recording_of(db, run_id),
        scoring=name,
        filter_threshold=extras.get("filter_threshold"),
        trajectories=trajectories,
        aggregate=agg,
        overrides=override_figures(db, verdicts, **boot),
        calls=calls(db, run_id, extras),
        accounting=Accounting.model_validate(
            accounting.as_dict(accounting.run_accounting(db, run_id))
        ),
        full_vs_filter=full_vs_filter(db, run_id, name).counts(),
        rulers=rulers,
        rulers_spread=max(spread) - min(spread) if len(spread) > 1 else None,
        similarity=SimilarityFigures.model_validate(extras["similarity"])
        if extras.get("similarity")
        else None,
        **_audit(extras, agg),
        read_time=_read_time(run, cards, boot),
        not_applicable=na,
        **answer_path.fields(cards),
        journey=journey_figures(extras.get("journey")),
        gold=_gold(db, run, verdicts, ledger, boot),
    )
    return ruler_marks.mark(built)  # the judge's reliability beside every label-built figure


def ledger_of(db: Database, ledger: str | Path | None = None) -> Path | None:
    """The gold ledger a report reads: the one named, else the one beside the database (None for
    an in-memory database)."""

    if ledger is not None:
        return Path(ledger)
    path = db_file(db)
    return default_ledger(path) if path else None


def _gold(
    db: Database, run: dict, verdicts: list[dict], ledger: str | Path | None, boot: dict
) -> GoldFigures | None:
    """The ``gold`` block: contests of the run's corpus in the ledger (engine/scoring/gold.py)."""

    path = ledger_of(db, ledger)
    if path is None or not run.get("corpus_digest"):
        return None
    try:
        entries = read(path)
    except InputProblems as exc:
        if ledger is not None:
            raise  # named with --ledger: refused, one sentence
        return GoldFigures(ledger=str(path), problem=str(exc))
    contests = standing(entries, run["corpus_digest"])
    return gold_figures(verdicts, contests, str(path), **boot)


def written_by_standin(manifest: str | None) -> bool:
    """The run's manifest names the offline stand-in backend for a write-path model role."""
    try:
        models = (json.loads(manifest or "{}") or {}).get("models") or {}
    except (ValueError, AttributeError):
        return False
    return isinstance(models, dict) and any(
        isinstance(m, dict) and m.get("backend") == "standin" for m in models.values()
    )


def kept_ungrounded(manifest: str | None) -> bool:
    """The run was written with the quarantine off (``keep_ungrounded`` in its configuration)."""
    try:
        config = (json.loads(manifest or "{}") or {}).get("config") or {}
    except (ValueError, AttributeError):
        return False
    return isinstance(config, dict) and bool(config.get("keep_ungrounded"))


QUARANTINE_OFF = "quarantine off"


def run_label(run: RunReport) -> str:
    """The system as every format names it: 'A (stand-in)' for a stand-in run, 'A (recorded:
    MODEL (SIZE), MACHINE, DATE)' for a shipped recording (the views' own label); '(quarantine
    off)' added for a run written with ``--keep-ungrounded``."""
    label = system_label(run.system, run.standin, getattr(run, "recording", ""))
    return f"{label} ({QUARANTINE_OFF})" if run.keep_ungrounded else label


def _read_time(run: dict, cards: dict, boot: dict) -> ReadTimeFigures | None:
    """The ``read_time`` block (engine/scoring/readtime.py); None when no card has one."""

    if not any(c.get("read_time") for c in cards.values()):
        return None
    manifest = stored_json(run.get("manifest"), "manifest", run.get("run_id"), {})
    return run_figures(cards, manifest.get("capabilities"), **boot)


def override_figures(
    db: Database, verdicts: list[dict], **boot: Unpack[stats.Boot]
) -> OverrideFigures:
    items = ov.overrides_for(db, [v["id"] for v in verdicts])
    if not items:
        return OverrideFigures()
    labels = {o["verdict_id"]: o["label"] for o in items}
    figures = ov.figures(verdicts, labels)
    raw = {v["id"]: v for v in verdicts}
    listed = [
        {
            **o,
            "trajectory_id": raw[o["verdict_id"]]["trajectory_id"],
            "item": raw[o["verdict_id"]]["item"],
            "raw_label": raw[o["verdict_id"]]["label"],
        }
        for o in items
    ]
    raw_figures = ov.figures(verdicts, {})
    touched = sorted({raw[o["verdict_id"]]["trajectory_id"] for o in items})
    side_by_side = {
        tid: {
            "intrinsic_raw": raw_figures[tid][0],
            "intrinsic": figures[tid][0],
            "extrinsic_raw": raw_figures[tid][1],
            "extrinsic": figures[tid][1],
        }
        for tid in touched
    }
    return OverrideFigures(
        count=len(items),
        intrinsic=interval([f[0] for f in figures.values()], **boot),
        extrinsic=interval([f[1] for f in figures.values()], **boot),
        items=listed,
        by_trajectory=side_by_side,
    )


# ---- rulers (docs/metrics.md) and repeated runs ------------------------------------------------


def _cards(db: Database, run_id: str, scoring: str) -> tuple[dict, list[dict]]:
    """(the scoring pass's extras, the trajectory cards) of one run and scoring setup."""
    extras, cards = {}, []
    for tid, card in stored_scores.cards_in_order(db, run_id, scoring):
        if tid == "":
            extras = stored_json(card, "score card", run_id, {})
        else:
            cards.append(stored_json(card, "score card", run_id, {}))
    return extras, cards


def ruler_figures(db: Database, run_id: str) -> list[RulerFigures]:
    """One row per (scoring setup, candidate mode) stored for the run: the spread of the rulers."""
    out = []
    for name in sorted(scorings(db, run_id)):
        extras, cards = _cards(db, run_id, name)
        extrinsic = stats.mean([(c.get("extrinsic") or {}).get("compound") for c in cards])
        for mode, key in (("full", "intrinsic_full"), ("filter", "intrinsic_filter")):
            values = [c.get(key) for c in cards if mode in (c.get("intrinsic") or {})]
            if not values:
                continue
            threshold = extras.get("filter_threshold") or next(
                (c.get("filter_threshold") for c in cards if c.get("filter_threshold")),
                DEFAULT_THRESHOLD,
            )
            auto = "auto" if extras.get("filter_auto") else ""
            label = (
                mode
                if mode == "full"
                else (f"filter@auto({threshold:.2f})" if auto else f"filter@{threshold:.2f}")
            )
            out.append(
                RulerFigures(
                    scoring=name,
                    mode=label,
                    judge=extras.get("judge"),
                    intrinsic=stats.mean(values),
                    extrinsic=extrinsic,
                    n=len(values),
                    # each setup's own judge decision (the extras of its scoring pass)
                    unreliable_ruler=list(ruler_marks.RULER)
                    if extras.get("judge_unreliable")
                    else [],
                )
            )
    return out


def _seedless(config_json: str | None) -> tuple[str, int | None]:
    config = json.loads(config_json) if config_json else {}
    seed = config.pop("seed", None) if isinstance(config, dict) else None
    return json.dumps(config, sort_keys=True), seed


def seed_figures(db: Database, run_id: str, scoring: str) -> SeedFigures | None:
    """Mean ± sd over runs of the same system, corpus and configuration except the seed; each run
    contributes its mean intrinsic (full) and extrinsic (compound) under ``scoring`` (its latest
    setup when it lacks that one). Null when fewer than two such runs are scored."""
    me = db.table("runs").get(run_id)
    key = (me["system"], me["corpus_digest"], _seedless(me["config"])[0])
    group = []
    for r in stored_runs.runs_of_system(db, me["system"]):
        config, seed = _seedless(r["config"])
        if (r["system"], r["corpus_digest"], config) != key:
            continue
        names = scorings(db, r["run_id"])
        if not names:
            continue
        _, cards = _cards(db, r["run_id"], scoring if scoring in names else names[0])
        group.append(
            (
                r["run_id"],
                seed,
                stats.mean([c.get("intrinsic_full") for c in cards]),
                stats.mean([(c.get("extrinsic") or {}).get("compound") for c in cards]),
            )
        )
    if len(group) < 2:
        return None
    group.sort(key=lambda g: (g[1] is None, g[1] or 0, g[0]))
    im, isd = stats.mean_sd([g[2] for g in group])
    em, esd = stats.mean_sd([g[3] for g in group])
    return SeedFigures(
        n=len(group),
        run_ids=[g[0] for g in group],
        seeds=[g[1] for g in group],
        intrinsic_mean=im,
        intrinsic_sd=isd,
        extrinsic_mean=em,
        extrinsic_sd=esd,
    )


def _audit(extras: dict, aggregate: Aggregate) -> dict:
    """The scoring pass's judge audit and what it says about the judge's reliability."""
    if not extras.get("audit"):
        return {}
    figures = audit.AuditFigures.model_validate(extras["audit"])
    return {
        "audit": figures,
        "judge_reliability": audit.Reliability.from_reason(extras.get("judge_unreliable")),
    }


def calls(db: Database, run_id: str, extras: dict) -> Calls:
    total, tokens_in, tokens_out = stored_calls.answered_totals(db, run_id)
    return Calls(
        total=total,
        cached=extras.get("scoring_cached", 0),
        by_role=stored_calls.answered_by_role(db, run_id),
        tokens_in=tokens_in,
        tokens_out=tokens_out,
    )


def _comparisons(runs: list[RunReport]) -> list[Comparison]:
    out = []
    for base, candidate in combinations(runs, 2):
        ib = {t.id: t.intrinsic.full for t in base.trajectories}
        ic = {t.id: t.intrinsic.full for t in candidate.trajectories}
        shared = sorted(ib.keys() & ic.keys())
        xs, ys = [ic[t] for t in shared], [ib[t] for t in shared]
        out.append(
            Comparison(
                base=base.run_id,
                candidate=candidate.run_id,
                candidate_minus_base=stats.signed_mean(xs, ys),  # mean of candidate - base
                mdd=stats.min_detectable_difference(xs, ys),
                unreliable_ruler=list(ruler_marks.COMPARISON)
                if ruler_marks.unreliable(base) or ruler_marks.unreliable(candidate)
                else [],
            )
        )
    return out


COLUMNS = [
    "run_id",
    "system",
    "standin",
    "trajectory",
    "category",
    "difficulty",
    "intrinsic_full",
    "intrinsic_filter",
    "extrinsic_compound",
    "extrinsic_single",
    "full_context",
    "naive_rag",
    "no_context",
    "miss_rate",
    "benefit",
    "tax",
    "net",
    "udr",
    "fur",
    "op_accuracy",
    "confidence_mae",
    "final_fact_count",
    "stale_facts",
    "claim_precision",
    "quadrant",
    "write_failures",
    "partial_write_failures",
    "fact_mean_length",
    "fact_multi_share",
    # read-time state
    "read_coverage",
    "read_accuracy",
    "stale_at_read",
    # a shipped recording: 'recorded: MODEL (SIZE), MACHINE, DATE' ('' for any other run)
    "recording",
    "keep_ungrounded",
]


def token_f1_columns(t: TrajectoryReport) -> dict[str, object]:
    """An imported set's token F1 columns (LoCoMo's metric) for its CSV rows; none otherwise."""
    if t.token_f1 is None:
        return {}
    f1 = t.token_f1
    out: dict[str, object] = {"token_f1": f1.memory, "token_f1_full_context": f1.full_context}
    out |= {"token_f1_naive_rag": f1.naive_rag, "token_f1_no_context": f1.no_context}
    return out


def rows(report: Report) -> list[dict]:
    out = []
    for run in report.runs:
        for t in run.trajectories:
            out.append(
                token_f1_columns(t)
                | dict(
                    zip(
                        COLUMNS,
                        [
                            run.run_id,
                            run.system,
                            run.standin,
                            t.id,
                            t.category,
                            t.difficulty,
                            t.intrinsic.full,
                            t.intrinsic.filter,
                            t.extrinsic.compound,
                            t.extrinsic.single,
                            t.baselines.full_context,
                            t.baselines.naive_rag,
                            t.baselines.no_context,
                            t.miss_rate,
                            t.benefit_tax.benefit,
                            t.benefit_tax.tax,
                            t.benefit_tax.net,
                            "n/a" if t.append_only else t.udr,
                            t.fur,
                            "n/a" if "op_accuracy" in run.not_applicable else t.op_accuracy,
                            "n/a" if "confidence_mae" in run.not_applicable else t.confidence_mae,
                            t.final_fact_count,
                            t.stale_facts,
                            t.claim_precision,
                            t.quadrant,
                            t.write_failures,
                            t.partial_write_failures,
                            t.fact_shape.mean_length if t.fact_shape else None,
                            t.fact_shape.multi_share if t.fact_shape else None,
                            t.read_coverage,
                            t.read_accuracy,
                            t.stale_at_read,
                            run.recording,
                            run.keep_ungrounded,
                        ],
                    )
                )
            )
    return out
