"""Gold items that look wrong from the runs themselves (docs/metrics.md#gold-ledger).

Read from the scored runs of one corpus in a database (no model call):

- **failed by every system**: a claim no run's store was ever credited with (its full-mode verdict
  is YES at no state, in every run's latest scoring), or a question no run answered YES from memory
  (top-5) and whose full-context answer was never YES either. It counts as "every system" only
  when the runs include ``oracle-merged`` (and, for a question, a full-context answer): a gold item
  even the system that writes the gold back verbatim, one blob a state, cannot be credited with is
  the likeliest to be wrong; without it the item is listed as weaker evidence (``complete`` False).
- **judged differently by two judges**: the same verdict (run, claim and state, or question) given
  different labels by two scoring setups with different judges.

Each suspect carries the document lines that say the item (a claim: the lines of the documents
stating it; a question: the lines stating the claims its expected answer carries).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from sqlite_utils import Database

from seorap.engine.corpus import Corpus, Trajectory
from seorap.engine.scoring.extrinsic import TOP_K, questions
from seorap.engine.scoring.journey import needs
from seorap.engine.scoring.tables import scorings
from seorap.engine.store import gold as store
from seorap.engine.views.common import containment
from seorap.engine.views.doclines import doc_lines

FAILED_BY_ALL = "failed by every system"
JUDGES_DIFFER = "judged differently by two judges"
ORACLE = "oracle-merged"
MAX_LINES = 8
LINES_PER_CLAIM = 2


@dataclass
class Suspect:
    trajectory: str
    item: str
    """``s2/c0`` (a claim, its first state) or ``compound/0`` / ``single/1``."""
    kind: str
    """``claim`` or ``question``."""
    text: str
    why: str
    """:data:`FAILED_BY_ALL` or :data:`JUDGES_DIFFER`."""
    detail: str
    """What the runs did (labels per system or per judge)."""
    complete: bool = True
    """False when the runs lack oracle-merged (or a full-context answer): weaker evidence."""
    lines: list[str] = field(default_factory=list)
    """``doc id:line: text`` of the document lines that say the item."""


def _claim_items(trajectory: Trajectory) -> dict[str, str]:
    """claim text -> its item (first state it is expected at)."""
    out: dict[str, str] = {}
    for s in trajectory.states:
        for n, c in enumerate(s.claims):
            out.setdefault(c, f"s{s.index}/c{n}")
    return out


def evidence(trajectory: Trajectory, claims: Iterable[str]) -> list[str]:
    """The document lines stating each of ``claims`` (as a docClaim of their document), in arrival
    order: at most LINES_PER_CLAIM a claim, MAX_LINES in all."""
    wanted = set(claims)
    out, shown = [], dict.fromkeys(wanted, 0)
    for s in trajectory.states:
        said = [c for c in s.doc_claims if c in wanted]
        if not said:
            continue
        for n, line in enumerate(doc_lines(s.document.text, s.doc_claims), 1):
            claim = line.claim
            if claim is not None and claim in said and shown[claim] < LINES_PER_CLAIM:
                shown[claim] += 1
                out.append(f"{s.document.id}:{n}: {line.text.strip()}")
    return out[:MAX_LINES]


def suspects(db: Database, corpus: Corpus) -> list[Suspect]:
    """Every suspect of a corpus from the runs of it the database holds, in trajectory order."""
    runs = store.runs_of_corpus(db, corpus.digest)
    latest: dict[str, list[dict]] = {}  # system -> its latest scoring's judged items (last run)
    by_judge: dict[tuple, dict[str, str]] = {}  # verdict key -> {judge: label}
    for r in runs:
        names = scorings(db, r["run_id"])
        if not names:
            continue
        latest[r["system"]] = store.judged_items(db, r["run_id"], names[0], TOP_K)
        for name in reversed(names):  # oldest first: a judge's latest setup wins
            for v in store.judged_items(db, r["run_id"], name, TOP_K):
                if v["kind"] == "claim" or v["source"] == "memory":
                    key = (r["system"], v["trajectory_id"], v["kind"], v["state_index"], v["item"])
                    by_judge.setdefault(key, {})[v["judge"] or "?"] = v["label"]
    if not latest:
        return []
    per: dict[str, dict[str, list[dict]]] = {}  # trajectory -> system -> its rows
    for system, rows in latest.items():
        for v in rows:
            per.setdefault(v["trajectory_id"], {}).setdefault(system, []).append(v)
    complete = ORACLE in latest
    out: list[Suspect] = []
    for t in corpus.trajectories:
        out += _failed_by_all(t, per.get(t.id, {}), complete)
        out += _judges_differ(t, by_judge)
    return out


def _failed_by_all(
    trajectory: Trajectory, latest: dict[str, list[dict]], complete: bool
) -> list[Suspect]:
    """``latest``: system -> the trajectory's rows in that system's latest scoring."""
    return _claims_failed_by_all(trajectory, latest, complete) + _questions_failed_by_all(
        trajectory, latest, complete
    )


def _claims_failed_by_all(
    trajectory: Trajectory, latest: dict[str, list[dict]], complete: bool
) -> list[Suspect]:
    """Claims judged YES in no state by any system that judged them."""
    tid = trajectory.id
    out = []
    for claim, item in _claim_items(trajectory).items():
        got = {
            system: [
                v["label"]
                for v in rows
                if v["trajectory_id"] == tid and v["kind"] == "claim" and v["expected"] == claim
            ]
            for system, rows in latest.items()
        }
        judged = {s: labels for s, labels in got.items() if labels}
        if judged and all("YES" not in labels for labels in judged.values()):
            detail = "; ".join(
                f"{s}: never YES ({len(labels)} states)" for s, labels in judged.items()
            )
            out.append(
                Suspect(
                    tid,
                    item,
                    "claim",
                    claim,
                    FAILED_BY_ALL,
                    detail,
                    complete,
                    evidence(trajectory, [claim]),
                )
            )
    return out


def _questions_failed_by_all(
    trajectory: Trajectory, latest: dict[str, list[dict]], complete: bool
) -> list[Suspect]:
    """Questions every system answered from its memory short of YES, and the full-context
    baseline did not answer YES either."""
    tid = trajectory.id
    out = []
    for q in questions(trajectory):
        labels: dict[str, str] = {}
        full_context: list[str] = []
        for system, rows in latest.items():
            for v in rows:
                if v["trajectory_id"] != tid or v["item"] != q.item or v["kind"] != q.kind:
                    continue
                if v["source"] == "memory":
                    labels[system] = v["label"]
                else:
                    full_context.append(v["label"])
        if not labels or any(label == "YES" for label in labels.values()):
            continue
        if "YES" in full_context:
            continue
        detail = "; ".join(f"{s}: {label}" for s, label in labels.items())
        detail += f"; full-context: {', '.join(sorted(set(full_context))) or 'not run'}"
        needed = _carried(trajectory, q.question, q.answer)
        out.append(
            Suspect(
                tid,
                q.item,
                "question",
                q.question,
                FAILED_BY_ALL,
                detail,
                complete and bool(full_context),
                evidence(trajectory, needed),
            )
        )
    return out


def _judges_differ(trajectory: Trajectory, by_judge: dict[tuple, dict[str, str]]) -> list[Suspect]:
    tid = trajectory.id
    items = _claim_items(trajectory)
    texts = {q.item: q.question for q in questions(trajectory)}
    seen: set[str] = set()
    out = []
    for (system, t, kind, state, item), judges in sorted(by_judge.items(), key=str):
        if t != tid or len(set(judges.values())) < 2:
            continue
        if kind == "claim":
            s, c = (int(x[1:]) for x in item.split("/"))
            text = trajectory.states[s].claims[c]
            key, shown, lines = items[text], text, evidence(trajectory, [text])
        else:
            key, shown = item, texts.get(item, item)
            needed = _carried(trajectory, shown, _answer(trajectory, item))
            lines = evidence(trajectory, needed)
        if key in seen:
            continue
        seen.add(key)
        detail = (
            f"{system}"
            + (f" state {state}" if kind == "claim" else "")
            + ": "
            + ", ".join(f"{j} {label}" for j, label in sorted(judges.items()))
        )
        out.append(
            Suspect(
                tid,
                key,
                "claim" if kind == "claim" else "question",
                shown,
                JUDGES_DIFFER,
                detail,
                True,
                lines,
            )
        )
    return out


CARRIED = 0.5
"""Share of a claim's character bigrams the expected answer must hold for its lines to be shown
when the lexical judge reads no claim as stated by the answer (a negation such as 제한 없음)."""


def _carried(trajectory: Trajectory, question: str, answer: str) -> list[str]:
    """The claims the expected answer carries: those the lexical judge reads as stated by it
    (journey.needs), else those sharing most of their bigrams with it."""
    found = [c for c in trajectory.all_claims() if needs(c, question, answer)]
    return found or [c for c in trajectory.all_claims() if containment(c, answer) >= CARRIED]


def _answer(trajectory: Trajectory, item: str) -> str:
    return next((q.answer for q in questions(trajectory) if q.item == item), "")
