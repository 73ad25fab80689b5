"""What a run cost: model calls, cache hits, tokens, latency, throughput and trouble, per role.

Most figures come from the call log (``calls``: one row per backend call, failed ones included).
What the call log cannot hold is stored here, so it survives the process (a resumed or re-scored
run keeps its figures):

- ``call_counters``: counters per (run, phase, role, model, name) — ``cached`` (calls served from
  the call log instead of the model), ``retries`` (re-asks after an invalid or cut reply),
  ``repairs`` (replies accepted after stripping fences or prose), ``failures`` (structured calls
  that gave up), ``salvaged`` (complete items kept from a cut reply), ``loops`` (replies stopped
  because they repeated themselves);
- ``phases``: wall time per (run, phase), summed over sessions when a run is resumed.

Read it back with :func:`run_accounting` (the report and the app show it).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime

from sqlite_utils import Database

from seorap.engine.store.queries import accounting as queries
from seorap.engine.store.queries import runs as stored_runs
from seorap.engine.store.queries.accounting import SLOTS_PREFIX
from seorap.engine.store.queries.calls import call_costs
from seorap.engine.store.queries.writes import failures_by_stage
from seorap.engine.store.txn import checked

COUNTER_NAMES = tuple(
    "cached retries repairs failures salvaged loops queued ungrounded template_loops quarantined".split()
)


def ensure_tables(db: Database) -> None:
    queries.ensure_tables(db)


def bump(
    db: Database, run_id: str | None, phase: str, role: str, model: str, name: str, n: int = 1
) -> None:
    """Add ``n`` to one counter (a no-op for calls outside a run, or n == 0)."""
    if run_id is None or n == 0:
        return
    with checked(db):  # under the writer lease when one is held
        queries.add_to_counter(db, run_id, phase or "", role or "", model or "", name, int(n))


def set_slots(db: Database, run_id: str, host: str, n: int) -> None:
    """Record that ``host`` streams ``n`` of our requests at once (learned during the run)."""
    with checked(db):
        queries.set_slots(db, run_id, host, int(n))


def record_phase(
    db: Database,
    run_ids: Iterable[str],
    phase: str,
    wall_s: float,
    units: int = 0,
    started_at: str | None = None,
) -> None:
    """Add one session of ``phase`` (``wall_s`` seconds, ``units`` documents/trajectories done)."""
    finished = _now()
    with checked(db):  # every run's row, under the writer lease when one is held
        for run_id in dict.fromkeys(run_ids):
            queries.add_phase_session(
                db, run_id, phase, started_at or finished, finished, float(wall_s), int(units)
            )


@contextmanager
def phase_timer(
    db: Database | None, run_ids: Iterable[str], phase: str, units: int = 0
) -> Iterator[None]:
    """Time a phase and record it for every run it served, also when it is cancelled or fails."""
    run_ids = list(run_ids)
    started_at, started = _now(), time.perf_counter()
    try:
        yield
    finally:
        if db is not None and run_ids:
            try:
                record_phase(db, run_ids, phase, time.perf_counter() - started, units, started_at)
            except Exception:  # noqa: BLE001 - accounting must never hide the real outcome
                pass


# ---- reading ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RoleAccounting:
    """One role (and model) of one run: a row of the report's ``accounting`` (engine/scoring/schema.py
    uses this class itself). Latencies and rates cover successful model calls only."""

    role: str
    """extractor | synthesizer | answerer | judge (``all`` in :attr:`RunAccounting.total`)."""
    model: str = ""
    """The model that served the role."""
    calls: int = 0
    """Model calls that returned a reply (cache hits excluded)."""
    cached: int = 0
    """Calls answered from the call log instead of the model (stored, so re-scoring counts too)."""
    failed: int = 0
    """Model calls that raised (connection, timeout, server error); each was retried or fatal."""
    tokens_in: int = 0
    """Prompt tokens reported by the server."""
    tokens_out: int = 0
    """Generated tokens reported by the server."""
    busy_s: float = 0.0
    """Summed call durations in seconds (parallel calls overlap, so this can exceed wall time)."""
    p50_ms: float | None = None
    """Median call latency (nearest rank), ms."""
    p95_ms: float | None = None
    """95th percentile call latency (nearest rank), ms."""
    tokens_per_s: float | None = None
    """Generated tokens per second of call time (tokens_out / busy_s)."""
    retries: int = 0
    """Re-asks after an invalid or cut reply."""
    repairs: int = 0
    """Replies accepted after stripping fences or surrounding prose."""
    failures: int = 0
    """Structured calls that gave up after the re-ask."""
    cut: int = 0
    """Replies cut at the token limit (done_reason "length")."""
    salvaged: int = 0
    """Complete items kept from cut replies."""
    loops: int = 0
    """Replies stopped because they repeated themselves."""
    truncated: int = 0
    """Prompts that reached num_ctx (the server may have cut them)."""
    write_failures: int = 0
    """write_failures rows of the run charged to this role (extract -> extractor, synthesize ->
    synthesizer)."""
    queued: int = 0
    """Calls that waited in line behind another of ours on the same host (not failed for it)."""
    ungrounded: int = 0
    """Extracted observations flagged ``ungrounded``: a value they state (number, time, date,
    amount, name) is not in the document, or none of their content words is."""
    template_loops: int = 0
    """Of ``loops``: replies stopped for repeating one template with a changing number or name."""
    quarantined: int = 0
    """Extracted observations kept out of the store: members of a stopped loop or ungrounded
    (engine/memory/quarantine.py); 0 when the run keeps them (``keep_ungrounded``)."""


@dataclass(frozen=True)
class PhaseTime:
    """Wall time of one phase of one run (the report's ``accounting.phases``)."""

    phase: str
    """extract | write | score."""
    wall_s: float = 0.0
    """Wall time in seconds, summed over sessions (a resumed run adds its sessions). The extract
    phase serves every system of one command at once, so each of their runs shows its full time."""
    units: int = 0
    """Documents done in the phase (extract, write)."""
    sessions: int = 0
    """How many times the phase ran (resume, re-scoring)."""


SUMMED = tuple(
    "calls cached failed tokens_in tokens_out retries repairs failures cut salvaged loops truncated "
    "write_failures queued ungrounded template_loops quarantined".split()
)
"""The figures of :class:`RoleAccounting` that add up over roles."""


@dataclass(frozen=True)
class RunAccounting:
    run_id: str
    roles: list[RoleAccounting] = field(default_factory=list)
    phases: list[PhaseTime] = field(default_factory=list)
    slots: dict[str, int] = field(default_factory=dict)
    """Generation slots learned per host during the run (empty: none learned)."""
    plan: dict[str, float] = field(default_factory=dict)
    """Seconds per phase planned before the run (engine/run/replan.py; empty: not planned)."""

    @property
    def total(self) -> RoleAccounting:
        """Every role summed; latency percentiles are not additive, so they are left out."""
        rs = self.roles
        busy = sum(r.busy_s for r in rs)
        out = sum(r.tokens_out for r in rs)
        sums = {name: sum(getattr(r, name) for r in rs) for name in SUMMED}
        return RoleAccounting(
            "all", "", busy_s=busy, tokens_per_s=out / busy if busy > 0 else None, **sums
        )

    @property
    def wall_s(self) -> float:
        return sum(p.wall_s for p in self.phases)

    @property
    def empty(self) -> bool:
        return not self.roles and not self.phases


WRITE_FAILURE_ROLE = {"extract": "extractor", "synthesize": "synthesizer"}
ROLE_ORDER = ("extractor", "synthesizer", "answerer", "judge", "embedder")


def run_accounting(db: Database, run_id: str) -> RunAccounting:
    """The accounting of one run, read from the database (works on a read-only connection and on
    databases made before the accounting tables existed)."""
    tables = set(db.table_names()) | set(db.view_names())  # calls is a view over calls_data
    by_key: dict[tuple[str, str], dict] = {}

    def entry(role: str, model: str) -> dict:
        return by_key.setdefault((role or "", model or ""), {"durations": []})

    if "calls" in tables:
        for r in call_costs(db, run_id):
            role, model, failed, tin, tout, ms, reason, trunc = r
            e = entry(role, model)
            if failed:
                e["failed"] = e.get("failed", 0) + 1
                continue
            e["calls"] = e.get("calls", 0) + 1
            e["tokens_in"] = e.get("tokens_in", 0) + (tin or 0)
            e["tokens_out"] = e.get("tokens_out", 0) + (tout or 0)
            e["durations"].append(float(ms or 0.0))
            e["cut"] = e.get("cut", 0) + (reason == "length")
            e["loops"] = e.get("loops", 0) + (reason == "loop")
            e["truncated"] = e.get("truncated", 0) + bool(trunc)
    slots = _counters(db, run_id, entry) if "call_counters" in tables else {}
    if "write_failures" in tables:
        models = {role: model for role, model in by_key}
        for stage, n in failures_by_stage(db, run_id):
            role = WRITE_FAILURE_ROLE.get(stage, stage or "")
            e = entry(role, models.get(role, ""))
            e["write_failures"] = e.get("write_failures", 0) + n
    roles = [_role(role, model, e) for (role, model), e in by_key.items()]
    roles.sort(
        key=lambda r: (
            ROLE_ORDER.index(r.role) if r.role in ROLE_ORDER else len(ROLE_ORDER),
            r.role,
            r.model,
        )
    )
    phases = []
    if "phases" in tables:
        phases = [
            PhaseTime(p, w or 0.0, u or 0, s or 0) for p, w, u, s in queries.phase_times(db, run_id)
        ]
    plan = stored_runs.manifest_field(db, run_id, "plan") if "runs" in tables else None
    planned = {str(k): float(v) for k, v in plan.items()} if isinstance(plan, dict) else {}
    return RunAccounting(run_id, roles, phases, slots, planned)


def _counters(db: Database, run_id: str, entry: Callable[[str, str], dict]) -> dict[str, int]:
    """Add the stored counters to each role's ``entry``; returns the slots learned per host."""
    slots: dict[str, int] = {}
    for role, model, name, n in queries.counter_sums(db, run_id):
        if name.startswith(SLOTS_PREFIX):
            slots[name[len(SLOTS_PREFIX) :]] = int(n or 0)
        elif name in COUNTER_NAMES:
            e = entry(role, model)
            e[name] = e.get(name, 0) + int(n or 0)
    return slots


def _role(role: str, model: str, e: dict) -> RoleAccounting:
    durations = sorted(e.pop("durations"))
    busy = sum(durations) / 1000
    out = e.get("tokens_out", 0)
    return RoleAccounting(
        role,
        model,
        p50_ms=percentile(durations, 50),
        p95_ms=percentile(durations, 95),
        busy_s=busy,
        tokens_per_s=out / busy if busy > 0 and out else None,
        **e,
    )


def percentile(sorted_values: list[float], q: float) -> float | None:
    """Nearest-rank percentile of already sorted values (None when empty): the smallest value with
    at least q % of the values at or below it."""
    if not sorted_values:
        return None
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def as_dict(acc: RunAccounting) -> dict:
    """Plain data (the report's ``accounting`` field, engine/scoring/schema.py ``Accounting``)."""

    return {
        "roles": [asdict(r) for r in acc.roles],
        "total": asdict(acc.total),
        "phases": [asdict(p) for p in acc.phases],
        "wall_s": acc.wall_s,
        "slots": dict(acc.slots),
        "plan": dict(acc.plan),
    }


# ---- one table for every screen (report table, Markdown, the app) -----------------------------
TABLE_HEADERS = (
    "role",
    "model",
    "calls",
    "cached",
    "failed",
    "tok in",
    "tok out",
    "p50 s",
    "p95 s",
    "tok/s",
    "retries",
    "cut",
    "salvaged",
    "loops",
    "trunc",
    "w-fail",
)
TABLE_LEGEND = (
    "calls: model calls made · cached: served from the call log · failed: calls that "
    "raised (retried or fatal) · p50/p95: call latency · tok/s: generated tokens per "
    "second of call time · retries: re-asks · cut: replies cut at the token limit · "
    "salvaged: items kept from cut replies · loops: replies stopped for repeating · "
    "trunc: prompts at num_ctx · w-fail: write failures"
)


def table(acc: RunAccounting) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """(headers, rows) as text: one row per role and model, then the total when there are several."""
    rows = [_row(r) for r in acc.roles]
    if len(acc.roles) > 1:
        rows.append(_row(acc.total))
    return TABLE_HEADERS, rows


def phase_line(acc: RunAccounting) -> str:
    """``wall time: extract 1.2 s (plan 2.0 s) · write 3.4 s (plan 1 h 02 min) · score 5.6 s =
    10.2 s`` (the plan: as made before the run, when it was planned)."""
    if not acc.phases:
        return "wall time: not recorded"
    parts = []
    for p in acc.phases:
        extra = f" ×{p.sessions}" if p.sessions > 1 else ""
        if p.phase in acc.plan:
            extra += f" (plan {seconds(acc.plan[p.phase])})"
        parts.append(f"{p.phase} {seconds(p.wall_s)}{extra}")
    return "wall time: " + " · ".join(parts) + f" = {seconds(acc.wall_s)}"


def _row(r: RoleAccounting) -> tuple[str, ...]:
    ms: Callable[[float | None], str] = lambda v: "–" if v is None else f"{v / 1000:.2f}"  # noqa: E731
    rate = "–" if r.tokens_per_s is None else f"{r.tokens_per_s:.1f}"
    return (
        r.role,
        r.model,
        str(r.calls),
        str(r.cached),
        str(r.failed),
        str(r.tokens_in),
        str(r.tokens_out),
        ms(r.p50_ms),
        ms(r.p95_ms),
        rate,
        str(r.retries),
        str(r.cut),
        str(r.salvaged),
        str(r.loops),
        str(r.truncated),
        str(r.write_failures),
    )


def seconds(s: float) -> str:
    if s < 60:
        return f"{s:.1f} s"
    if s < 3600:
        return f"{int(s // 60)} min {int(s % 60):02d} s"
    return f"{int(s // 3600)} h {int(s % 3600 // 60):02d} min"


def from_dict(data: dict | None) -> RunAccounting:
    """The inverse of :func:`as_dict` (the report's ``accounting`` field, JSON or pydantic dump)."""
    data = data or {}
    fields = set(RoleAccounting.__dataclass_fields__)
    roles = [
        RoleAccounting(**{k: v for k, v in r.items() if k in fields}) for r in data.get("roles", [])
    ]
    phases = [
        PhaseTime(p["phase"], p.get("wall_s", 0.0), p.get("units", 0), p.get("sessions", 0))
        for p in data.get("phases", [])
    ]
    plan = {str(k): float(v) for k, v in (data.get("plan") or {}).items()}
    return RunAccounting(data.get("run_id", ""), roles, phases, dict(data.get("slots") or {}), plan)


TROUBLE = tuple(
    "failed retries cut salvaged loops template_loops truncated write_failures queued ungrounded "
    "quarantined".split()
)
TROUBLE_LABEL = {
    "failed": "failed",
    "retries": "retries",
    "cut": "cut",
    "salvaged": "salvaged",
    "loops": "loops",
    "truncated": "truncated prompts",
    "write_failures": "write failures",
    "template_loops": "of them template loops",
    "queued": "queued behind our own",
    "ungrounded": "ungrounded",
    "quarantined": "quarantined",
}


def lines(acc: RunAccounting) -> list[str]:
    """The accounting in a few lines that fit a narrow pane: one per role and model, trouble only
    when there is some, then the wall time per phase."""
    out = []
    for r in acc.roles:
        ms: Callable[[float | None], str] = lambda v: "–" if v is None else f"{v / 1000:.1f} s"  # noqa: E731
        rate = "" if r.tokens_per_s is None else f" · {r.tokens_per_s:.1f} tok/s"
        trouble = [f"{TROUBLE_LABEL[t]} {getattr(r, t)}" for t in TROUBLE if getattr(r, t)]
        out.append(
            f"{r.role} {r.model}: {r.calls} calls, {r.cached} cached · tokens {r.tokens_in:,} in, "
            f"{r.tokens_out:,} out · p50 {ms(r.p50_ms)}, p95 {ms(r.p95_ms)}{rate}"
            + (" · " + ", ".join(trouble) if trouble else "")
        )
    if not acc.roles:
        out.append("no model call (reference system or offline stand-ins with no log)")
    if acc.slots:
        out.append(
            "learned slots: " + ", ".join(f"{h} streams {n} at once" for h, n in acc.slots.items())
        )
    out.append(phase_line(acc))
    return out


def markdown_lines(acc: RunAccounting) -> list[str]:
    """The accounting as a Markdown table (every column) and the wall-time line."""
    headers, rows = table(acc)
    if not rows:
        return [
            "no model call (reference system or offline stand-ins with no log)",
            "",
            phase_line(acc),
        ]
    out = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    out += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
    held = acc.total.quarantined
    if held:
        out += ["", f"quarantined observations (kept out of the store): {held}"]
    return out + ["", phase_line(acc)]


CSV_FIELDS = ("calls", "cached", "tokens_in", "tokens_out", "wall_s", "quarantined")
"""Per-run accounting columns of the CSV report (``run_calls``, ``run_cached``, ...)."""


def csv_fields(acc: RunAccounting) -> dict:
    total = acc.total
    return {
        f"run_{k}": (round(acc.wall_s, 3) if k == "wall_s" else getattr(total, k))
        for k in CSV_FIELDS
    }
