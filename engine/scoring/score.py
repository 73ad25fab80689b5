"""Score one run in the store: both score cards, baselines and diagnosis (docs/metrics.md).

``score_run`` reads the run's store and its corpus, judges, and writes the ``verdicts``,
``answers``, ``retrievals`` and ``scores`` tables (replacing an earlier pass with the same scoring
setup). Model calls go through ModelClient, so re-scoring the same store is served from the call
log: zero model calls.

A scoring setup is named after the judge (``lexical``, ``lexical/lenient`` or ``MODEL/PROMPT``) plus
the answerer, plus the candidate modes when they are not the default pair (full + filter@0.80):
``lexical+reader`` (default modes), ``lexical+reader+full,filter@0.85``,
``lexical/lenient+reader+full``. One run carries several setups side by side (that is how
rulers are compared, docs/metrics.md): scoring again under another setup adds rows, it never replaces
another setup's.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from sqlite_utils import Database

from seorap.engine.config import Config
from seorap.engine.corpus import Corpus, Trajectory, load_corpus
from seorap.engine.errors import NoSuggestedThreshold as NoSuggestedThreshold
from seorap.engine.errors import RunCancelled, UsageError
from seorap.engine.models.base import Embedder
from seorap.engine.models.embedders import make_embedder
from seorap.engine.run.progress import NullProgress, Progress
from seorap.engine.scoring import audit as audit_mod
from seorap.engine.scoring import (
    diagnosis,
    extrinsic,
    figures,
    glossary,
    holding,
    intrinsic,
    journey,
    journey_story,
    metrics,
    readtime,
    saving,
    similarity,
    token_f1,
)
from seorap.engine.scoring.answer_path import load as own_search_rankings
from seorap.engine.scoring.answerers import OFFLINE as OFFLINE_ANSWERERS
from seorap.engine.scoring.answerers import Answerer, make_answerer
from seorap.engine.scoring.audit import AuditFigures
from seorap.engine.scoring.extrinsic import language_na
from seorap.engine.scoring.judges import Judge, LexicalJudge, make_judge
from seorap.engine.scoring.schema import SimilarityFigures
from seorap.engine.scoring.tables import ensure_tables
from seorap.engine.store.damage import stored_json
from seorap.engine.store.database import transaction
from seorap.engine.store.queries import scores as stored_scores
from seorap.engine.store.queries import verdicts as stored_verdicts
from seorap.engine.store.queries.writes import document_written

if TYPE_CHECKING:
    from seorap.engine.models.client import ModelClient

JUDGE_MODES = ("full", "filter")
DEFAULT_THRESHOLD = similarity.DEFAULT_THRESHOLD


def mode_label(mode: intrinsic.ClaimJudging) -> str:
    """``full``, ``filter@0.80`` (two decimals, more when the threshold needs them) or
    ``filter@auto(0.63)`` (a threshold suggested from the run's cosines, shown to two decimals)."""
    if mode.threshold is None:
        return mode.setup
    if mode.auto:
        return f"{mode.setup}@auto({mode.threshold:.2f})"
    t = mode.threshold
    return f"{mode.setup}@{t:.2f}" if round(t, 2) == t else f"{mode.setup}@{t:g}"


def scoring_name(
    judge: Judge, answerer: Answerer, modes: Sequence[intrinsic.ClaimJudging] | None = None
) -> str:
    """``JUDGE+ANSWERER``, plus ``+MODE,MODE`` unless the modes are the default full + filter@0.80."""
    name = f"{judge.name}+{answerer.name}"
    if modes is None:
        return name
    labels = [mode_label(m) for m in modes]
    if labels == ["full", f"filter@{DEFAULT_THRESHOLD:.2f}"]:
        return name
    return f"{name}+{','.join(labels)}"


def _stop_if_cancelled(cancel: threading.Event | None, run_id: str, done: int, total: int) -> None:
    """Raise RunCancelled when ``cancel`` is set: scoring stops between trajectories."""
    if cancel is not None and cancel.is_set():
        raise RunCancelled(
            f"scoring of {run_id} stopped after {done} of {total} trajectories; the run is "
            "written — `seorap score` scores it"
        )


def score_run(
    db: Database,
    run_id: str,
    config: Config,
    *,
    judge_mode: Sequence[str] | str = JUDGE_MODES,
    progress: Progress | None = None,
    corpus: Corpus | None = None,
    client: ModelClient | None = None,
    embedder: Embedder | None = None,
    judge_prompt: str | None = None,
    auto_threshold: bool = False,
    cancel: threading.Event | None = None,
) -> str:
    """Score ``run_id``; returns the scoring setup name under which the results are stored
    (``cancel`` set: RunCancelled after the trajectory being scored; the run stays written).

    ``auto_threshold``: the filter mode uses the threshold suggested from this run's own cosines
    (engine/scoring/similarity.py: Youden's J over matched vs unmatched pairs of the full-mode
    verdicts, with this run's embedder) instead of ``config.judging.filter_threshold``; the setup is
    named ``filter@auto(θ)``. Raises NoSuggestedThreshold when nothing separates the pairs."""
    progress = progress or NullProgress()
    ensure_tables(db)
    run = db.table("runs").get(run_id)
    corpus = corpus or load_corpus(run["corpus"])
    client = client if client is not None else _client(config, db, run_id)
    aliases = glossary.for_corpus(corpus.root)  # its glossary.tsv (none: no aliases)
    judge = make_judge(config, client, prompt=judge_prompt, glossary=aliases)
    answerer = make_answerer(config, client, glossary=aliases)
    embed = similarity.EmbedFn(embedder or _embedder(config, db))
    modes = _modes(judge_mode, config.judging.filter_threshold)
    calls_before = saving.counters(client)
    trajectories = [t for t in corpus.trajectories if _written(db, run_id, t.id)]
    full_rows: dict[str, list[dict]] = {}
    if auto_threshold and any(m.threshold is not None for m in modes):
        full_rows = _full_rows(db, run_id, trajectories, judge, embed)
        modes = _auto_modes(modes, _suggest(full_rows, embed, judge, config))
    name = scoring_name(judge, answerer, modes)
    progress.start_phase(f"score {run_id}", len(trajectories))
    scored = (judge, answerer, embed, modes, config)
    for n, trajectory in enumerate(trajectories):
        _stop_if_cancelled(cancel, run_id, n, len(trajectories))
        rows = _score_trajectory(
            db, run_id, trajectory, name, *scored, full_rows.get(trajectory.id), aliases
        )
        if rows is not None:
            full_rows[trajectory.id] = rows
        progress.advance(trajectory.id, 1, "scored")
    progress.finish_phase()
    audit = _audit(db, run_id, name, corpus, judge, answerer, trajectories)
    unreliable = _mark_from_audit(db, run_id, name, audit)
    sim = _similarity(full_rows, embed, judge, modes, config)
    funnel = journey.run_funnel(saving.trajectory_cards(db, run_id, name))
    with transaction(db):
        saving.save_run_extras(
            db, run_id, name, judge, answerer, client, calls_before, modes, sim, unreliable, audit
        )
        saving.add_extra(db, run_id, name, "journey", funnel)
        figures.save(db, run_id, name)
    return name


def _mark_from_audit(db: Database, run_id: str, name: str, audit: AuditFigures) -> str | None:
    """Record the judge's reliability from the run's judge audit (see mark_reliability)."""
    partial = audit_mod.PARTIAL_KINDS  # judged against their ideal PARTIAL, not as wrong answers
    rates = {k: f.pass_rate for k, f in audit.kinds.items() if k not in partial}
    ideal = {k: f.ideal_rate for k, f in audit.kinds.items() if k in partial}
    with transaction(db):
        return mark_reliability(
            db,
            run_id,
            name,
            rates,
            partial_saturation=audit.partial_saturation,
            separation=audit.separation,
            ideal_rates=ideal,
        )


def _similarity(
    full_rows: dict[str, list[dict]],
    embed: similarity.EmbedFn,
    judge: Judge,
    modes: Sequence[intrinsic.ClaimJudging],
    config: Config,
) -> SimilarityFigures | None:
    """The run's cosine figures from its full-mode claim verdicts, at the filter mode's threshold
    (None when no full-mode rows were judged)."""
    threshold = next(
        (m.threshold for m in modes if m.threshold is not None), config.judging.filter_threshold
    )
    return (
        similarity.from_rows(
            [r for rows in full_rows.values() for r in rows],
            embed,
            filter_threshold=threshold,
            judge=judge.name,
        )
        if full_rows
        else None
    )


def mark_reliability(
    db: Database,
    run_id: str,
    name: str,
    audit_pass_rates: dict[str, float | None] | None = None,
    *,
    partial_saturation: float | None = None,
    separation: float | None = None,
    ideal_rates: dict[str, float | None] | None = None,
) -> str | None:
    """Decide whether the judge of this scoring pass can carry a diagnosis (diagnosis.judge_unreliable
    over the run's memory top-5 answer verdicts, plus the audit's figures when given: below
    diagnosis.MIN_LABELS verdicts of a kind the audit decides, and with no audit the judge is
    unverified). When it cannot, every card of the pass loses its quadrant (kept as
    ``quadrant_raw``) and its diagnosis says "judge unreliable — see audit" (or "judge unverified —
    …") with the reason. Returns the reason (None: reliable)."""
    labels: dict[str, list[str]] = {}
    for r in stored_verdicts.answer_labels(db, run_id, name, extrinsic.TOP_K):
        labels.setdefault(r["kind"], []).append(r["label"])
    reason = diagnosis.judge_unreliable(
        labels,
        audit_pass_rates,
        audit_mod.CONTROL_KINDS,
        audit_partial_saturation=partial_saturation,
        audit_separation=separation,
        audit_ideal_rates=ideal_rates,
    )
    for trajectory_id, text in stored_scores.cards_by_trajectory(db, run_id, name).items():
        card = json.loads(text)
        card["judge_unreliable"] = reason
        if reason:
            card["quadrant_raw"] = card.get("quadrant_raw", card.get("quadrant"))
            card["quadrant"] = None
            card["diagnosis"] = diagnosis.unreliable_text(
                card.get("intrinsic_full"), (card.get("extrinsic") or {}).get("compound"), reason
            )
        stored_scores.set_card(
            db, run_id, trajectory_id, name, json.dumps(card, ensure_ascii=False)
        )
    return reason


def _audit(
    db: Database,
    run_id: str,
    name: str,
    corpus: Corpus,
    judge: Judge,
    answerer: Answerer,
    trajectories: list[Trajectory],
) -> AuditFigures:
    """The judge audit for the judge this scoring used, always (docs/metrics.md#judge-audit): every
    item for the lexical judge, a seeded sample per kind for a model judge. Verdicts are stored under
    run ``audit:<run_id>`` (so they never mix with the run's own), figures in the run's extras."""
    sample = None if isinstance(judge, LexicalJudge) else audit_mod.DEFAULT_SAMPLE
    read = [t for t in trajectories if "judge" not in language_na(judge.name, "", t.language)]
    result = audit_mod.run_audit(  # a judge is audited only in a language it reads
        corpus, judge, answerer, seed=0, sample=sample, trajectory_ids={t.id for t in read}
    )
    audit_mod.save_audit(db, result, f"audit:{run_id}", scoring=name)
    return result.figures()


def _full_rows(
    db: Database,
    run_id: str,
    trajectories: list[Trajectory],
    judge: Judge,
    embed: similarity.EmbedFn,
) -> dict[str, list[dict]]:
    full = intrinsic.ClaimJudging("full")
    return {
        t.id: intrinsic.judge_claims(t, intrinsic.load_store(db, run_id, t), judge, full, embed)
        for t in trajectories
    }


def _suggest(
    full_rows: dict[str, list[dict]], embed: similarity.EmbedFn, judge: Judge, config: Config
) -> float:
    sim = similarity.from_rows(
        [r for rows in full_rows.values() for r in rows],
        embed,
        filter_threshold=config.judging.filter_threshold,
        judge=judge.name,
    )
    if sim.suggested_threshold is None:
        raise NoSuggestedThreshold(
            f"--threshold auto: no threshold separates the {sim.matched.n} matched from the "
            f"{sim.unmatched.n} unmatched pairs with {sim.embedder or 'this embedder'}; give a number"
        )
    return sim.suggested_threshold


def _auto_modes(
    modes: Sequence[intrinsic.ClaimJudging], threshold: float
) -> list[intrinsic.ClaimJudging]:
    """The filter mode takes the suggested threshold (marked auto); the full mode stays."""
    return [
        intrinsic.ClaimJudging(m.setup, threshold, auto=True) if m.threshold is not None else m
        for m in modes
    ]


def _modes(judge_mode: Sequence[str] | str, threshold: float) -> list[intrinsic.ClaimJudging]:
    wanted = [judge_mode] if isinstance(judge_mode, str) else list(judge_mode)
    if "both" in wanted:
        wanted = list(JUDGE_MODES)
    wanted = [m for m in JUDGE_MODES if m in wanted] + [m for m in wanted if m not in JUDGE_MODES]
    out = []
    for mode in wanted:
        if mode == "full":
            out.append(intrinsic.ClaimJudging("full"))
        elif mode == "filter":
            out.append(intrinsic.ClaimJudging("filter", threshold))
        else:
            raise UsageError(f"unknown judge mode {mode!r}: use full, filter or both")
    return out


def _client(config: Config, db: Database, run_id: str) -> ModelClient | None:
    if config.models.judge == "lexical" and config.models.answerer in OFFLINE_ANSWERERS:
        return None
    # start-up: httpx, ollama load only when this runs
    from seorap.engine.models.client import ModelClient

    return ModelClient.from_config(config, db, run_id=run_id)


def _embedder(config: Config, db: Database) -> Embedder:
    return make_embedder(config, db)


APPEND_ONLY_REFERENCES = frozenset({"raw"})
"""Reference systems that only ever add facts."""


def append_only(db: Database, run_id: str) -> bool:
    """True when the run's system never rewrites or removes a fact by design: its declared
    capabilities say so (``updates_at_write`` false); for a run written before systems declared
    them, the ``raw`` reference system or a variant with ``policy = "append"``."""
    row = db.table("runs").get(run_id)
    manifest = stored_json(row.get("manifest"), "manifest", run_id, {})
    if manifest.get("capabilities"):
        return not manifest["capabilities"].get("updates_at_write", True)
    spec = manifest.get("system_spec") or {}
    if spec.get("kind") == "variant":
        return spec.get("policy") == "append"
    return (spec.get("name") or row["system"]) in APPEND_ONLY_REFERENCES


def _written(db: Database, run_id: str, trajectory_id: str) -> bool:
    return document_written(db, run_id, trajectory_id)


def _score_trajectory(
    db: Database,
    run_id: str,
    trajectory: Trajectory,
    name: str,
    judge: Judge,
    answerer: Answerer,
    embed: similarity.EmbedFn,
    modes: Sequence[intrinsic.ClaimJudging],
    config: Config,
    full_rows: list[dict] | None = None,
    aliases: glossary.Glossary | None = None,
) -> list[dict] | None:
    """Score one trajectory and save it; returns its full-mode claim rows (None without full).
    Every (claim, text) verdict it decides is recorded and stored with it (engine/scoring/
    holding.py), with the stepper's stale pairs of every arrival position."""
    with holding.recording(holding.dating(db, run_id, trajectory), aliases) as pairs:
        store = intrinsic.load_store(db, run_id, trajectory)
        claim_rows = {
            m.setup: full_rows
            if m.setup == "full" and full_rows is not None
            else intrinsic.judge_claims(trajectory, store, judge, m, embed)
            for m in modes
        }
        intr = intrinsic.card(
            trajectory,
            store,
            claim_rows,
            append_only=append_only(db, run_id),
            observed=journey.reports_observations(db, run_id),
        )
        asker = extrinsic.Asker(answerer, judge, embed, config.retrieval)
        own = own_search_rankings(db, run_id, trajectory, store.final_position)
        asker.run(trajectory, store.final, store.final_recency, own)
        extr = extrinsic.card(asker.verdicts) | asker.path()
        if token_f1.applies(trajectory):  # LoCoMo's own metric, beside the judge's verdicts
            graded = asker.verdicts + asker.ungraded
            extr["token_f1"] = token_f1.card(trajectory, graded, extrinsic.TOP_K)
            extr["token_f1"]["not_applicable"] = asker.not_applicable
        verdicts = [r for rows in claim_rows.values() for r in rows] + asker.verdicts
        card = _card(trajectory, intr, extr, modes, claim_rows, asker, store)
        _read_and_journey(
            db, run_id, trajectory, card, answerer, judge, embed, config, claim_rows, asker, store
        )
        holding.cover_steps(db, run_id, trajectory)
    with transaction(db):  # one trajectory's rows at once, under the writer lease
        saving.save_trajectory(db, run_id, trajectory.id, name, judge, verdicts, asker, card)
        saving.save_holdings(db, run_id, trajectory.id, name, pairs)
    return claim_rows.get("full")


def _read_and_journey(
    db: Database,
    run_id: str,
    trajectory: Trajectory,
    card: dict,
    answerer: Answerer,
    judge: Judge,
    embed: similarity.EmbedFn,
    config: Config,
    claim_rows: dict[str, list[dict]],
    asker: extrinsic.Asker,
    store: intrinsic.StoreView,
) -> None:
    """The card's read-time block, and its journey with the diagnosis retold from it."""
    card["read_time"] = readtime.card(
        db,
        run_id,
        trajectory,
        answerer,
        judge,
        lookup=readtime.relookup(embed, config.retrieval),
        store=store,
        claim_rows=claim_rows.get("full"),
    )
    if "full" in claim_rows:  # the journey reuses the full-mode claim verdicts
        card["journey"] = journey.card(db, run_id, trajectory, store, claim_rows["full"], asker)
        card["diagnosis"] = journey_story.retell(
            card["diagnosis"], card["quadrant"], card["journey"]
        )


def _card(
    trajectory: Trajectory,
    intr: dict,
    extr: dict,
    modes: Sequence[intrinsic.ClaimJudging],
    claim_rows: dict[str, list[dict]],
    asker: extrinsic.Asker,
    store: intrinsic.StoreView,
) -> dict:
    full = (intr.get("full") or {}).get("fact_accuracy")
    filt = (intr.get("filter") or {}).get("fact_accuracy")
    compound = extr["compound"]
    quadrant = metrics.quadrant(full, compound)
    last = max((r["state_index"] for r in claim_rows.get("full", [])), default=None)
    missed = [
        r["expected"]
        for r in claim_rows.get("full", [])
        if r["state_index"] == last and r["score"] != 1.0
    ]
    reason = diagnosis.explain(
        quadrant,
        full,
        compound,
        stale_ids=intr["stale_fact_ids"],
        final_claims=trajectory.final.claims,
        final_missed=missed,
        retrievals=asker.retrievals,
        verdicts=asker.verdicts,
    )
    threshold = next((m.threshold for m in modes if m.threshold is not None), None)
    return {
        "category": trajectory.category or "",  # an imported set has none
        "difficulty": trajectory.difficulty or "",
        "intrinsic": intr,
        "intrinsic_full": full,
        "intrinsic_filter": filt,
        "filter_threshold": threshold,
        "extrinsic": extr,
        "quadrant": quadrant,
        "diagnosis": reason,
        "signed_diff": None if full is None or compound is None else full - compound,
    }
