"""The gold-error ledger: a person contests an expected claim or question of a corpus, with who,
when and why (docs/metrics.md#gold-ledger).

The ledger is a JSON Lines file, one contest per line, each keyed by the digest of the corpus it was
made against (``Corpus.digest``), so one ledger can hold several corpora and a contest made against
an older version of a corpus is told apart from one made against this version. It is never written
inside the corpus: the bundled corpus is read-only once installed, and the gold a run is scored
against must stay what it was. By default it lives beside the run database
(``runs.db`` → ``runs.gold.jsonl``); ``--ledger FILE`` names another.

An item is a claim (``s2/c0``: claim 0 of state 2, the claim's text wherever it recurs in the
trajectory) or a question (``compound/0``, ``single/1``). The latest line of an item counts: a
contest puts it in force, a **withdrawal** (a line with ``withdrawn`` true, with its own who, when
and why) takes the item's earlier contest back. Nothing is ever removed from the file.
"""

from __future__ import annotations

import getpass
import json
import os
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from seorap.engine.errors import InputProblems, UsageError
from seorap.engine.jsonl import LineTooLong, read_lines
from seorap.engine.outfile import OutputError, append_line

if TYPE_CHECKING:
    from seorap.engine.corpus import Corpus, Trajectory

SUFFIX = ".gold.jsonl"
_CLAIM = re.compile(r"^s(\d+)/c(\d+)$")
_QUESTION = re.compile(r"^(compound|single)/(\d+)$")


@dataclass(frozen=True)
class Contest:
    corpus: str
    """Digest of the corpus the contest was made against."""
    trajectory: str
    item: str
    """``s2/c0`` (a claim) or ``compound/0`` / ``single/1`` (a question)."""
    kind: str
    """``claim`` or ``question``."""
    text: str
    """The claim or question as it read when contested (to tell a changed corpus)."""
    reason: str
    who: str
    at: str
    withdrawn: bool = False

    @property
    def key(self) -> tuple[str, str, str, str]:
        """What a later line of the same key replaces: a claim is its text (``s0/c2`` and ``s1/c2``
        of one recurring claim are one item), a question its item."""
        return (
            self.corpus,
            self.trajectory,
            self.kind,
            self.text if self.kind == "claim" else self.item,
        )


def default_ledger(db_path: str | Path) -> Path:
    """The ledger beside a run database: ``runs.db`` → ``runs.gold.jsonl``."""
    path = Path(db_path)
    return path.with_name(path.stem + SUFFIX)


def resolve_item(trajectory: Trajectory, item: str) -> tuple[str, str]:
    """(kind, text) of an item of a trajectory; UsageError naming what exists when it is unknown."""
    item = item.strip()
    if m := _CLAIM.match(item):
        s, c = int(m[1]), int(m[2])
        if s < len(trajectory.states) and c < len(trajectory.states[s].claims):
            return "claim", trajectory.states[s].claims[c]
        raise UsageError(
            f"{trajectory.id} has no claim {item} ({len(trajectory.states)} states; "
            "an item is sSTATE/cCLAIM, counted from 0)"
        )
    if m := _QUESTION.match(item):
        n = int(m[2])
        if m[1] == "compound" and n < len(trajectory.extrinsic_qa):
            return "question", trajectory.extrinsic_qa[n].question
        if m[1] == "single" and n < len(trajectory.single_qa):
            return "question", trajectory.single_qa[n].question
        raise UsageError(f"{trajectory.id} has no question {item}")
    raise UsageError(
        f"{item!r} is not an item: give a claim as s2/c0 or a question as compound/0 or single/1"
    )


def refuse_database(ledger: str | Path) -> None:
    """UsageError when ``ledger`` is a database or one of its sidecars (-wal, -shm, -journal),
    through links: JSON appended there would damage the runs."""
    # start-up: sqlite_utils loads only when this runs
    from seorap.engine.store.database import database_of

    owner = database_of(ledger)
    if owner is not None:
        raise UsageError(
            f"{ledger} belongs to the database {owner}: the gold ledger is a JSON Lines file of "
            "its own (give --ledger FILE elsewhere, or leave it out for runs.gold.jsonl)"
        )


def _inside(path: Path, folder: Path) -> bool:
    try:
        Path(os.path.realpath(path)).relative_to(os.path.realpath(folder))
        return True
    except ValueError:
        return False


def contest(
    corpus: Corpus,
    trajectory_id: str,
    item: str,
    reason: str,
    ledger: str | Path,
    *,
    who: str | None = None,
    withdrawn: bool = False,
) -> Contest:
    """Append one contest (``withdrawn``: one withdrawal) to ``ledger`` (created when missing) and
    return it. UsageError for an unknown trajectory or item, an empty reason, a ledger inside the
    corpus, or a withdrawal of an item not contested against this corpus (nothing written)."""
    if not reason.strip():
        raise UsageError(f"a {'withdrawal' if withdrawn else 'contest'} needs a reason (--reason)")
    root = Path(corpus.root)
    if _inside(Path(ledger), root if root.is_dir() else root.parent):
        raise UsageError(
            f"{ledger} is inside the corpus folder: the ledger is never written into a corpus "
            "(give --ledger FILE elsewhere)"
        )
    refuse_database(ledger)
    try:
        trajectory = corpus.get(trajectory_id)
    except KeyError:
        raise UsageError(f"the corpus has no trajectory {trajectory_id!r}") from None
    kind, text = resolve_item(trajectory, item)
    if withdrawn:
        _must_stand(ledger, corpus.digest, trajectory_id, item.strip(), kind, text)
    entry = Contest(
        corpus=corpus.digest,
        trajectory=trajectory_id,
        item=item.strip(),
        kind=kind,
        text=text,
        reason=reason.strip(),
        who=who or os.environ.get("USER") or getpass.getuser(),
        at=datetime.now(UTC).isoformat(timespec="seconds"),
        withdrawn=withdrawn,
    )
    line = json.dumps(asdict(entry), ensure_ascii=False) + "\n"
    try:  # one line per contest: one write, whole or cut back (engine/outfile.py)
        append_line(ledger, line, f"the gold ledger {ledger}")
    except OutputError as exc:
        raise UsageError(str(exc)) from None
    return entry


def withdraw(
    corpus: Corpus,
    trajectory_id: str,
    item: str,
    reason: str,
    ledger: str | Path,
    *,
    who: str | None = None,
) -> Contest:
    """Append a withdrawal of the item's contest in force (see ``contest``)."""
    return contest(corpus, trajectory_id, item, reason, ledger, withdrawn=True, who=who)


def _must_stand(
    ledger: str | Path, digest: str, trajectory_id: str, item: str, kind: str, text: str
) -> None:
    """UsageError, one sentence, unless the item has a contest in force against this corpus."""
    key = (digest, trajectory_id, kind, text if kind == "claim" else item)
    found = [c for c in standing(read(ledger)) if c.key[1:] == key[1:]]
    if any(c.corpus == digest for c in found):
        return
    if found:
        raise UsageError(
            f"{trajectory_id} {item} was contested against corpus {found[-1].corpus}, another "
            f"version of this corpus ({digest}): that contest does not count here, nothing to "
            "withdraw"
        )
    raise UsageError(f"{trajectory_id} {item} is not contested in {ledger}: nothing to withdraw")


FIELDS = ("corpus", "trajectory", "item", "kind", "text", "reason", "who", "at")


def read(ledger: str | Path) -> list[Contest]:
    """Every contest of a ledger in file order; [] when the file does not exist. InputProblems
    listing each bad line (not JSON, or a field missing)."""

    path = Path(ledger)
    if not path.exists():
        return []
    out, problems = [], []
    try:
        for line in read_lines(path):
            v = line.value
            if line.problem:
                problems.append(line.problem)
            elif not isinstance(v, dict) or any(not isinstance(v.get(f), str) for f in FIELDS):
                problems.append(
                    f"{path}:{line.number}: not a contest (needs {', '.join(FIELDS)} as text)"
                )
            else:
                out.append(Contest(**{f: v[f] for f in FIELDS}, withdrawn=bool(v.get("withdrawn"))))
    except (LineTooLong, OSError) as exc:
        raise InputProblems(f"{path}: cannot read the gold ledger ({exc})") from None
    if problems:
        raise InputProblems("; ".join(problems[:5]) + ("; …" if len(problems) > 5 else ""))
    return out


def standing(entries: Iterable[Contest], digest: str | None = None) -> list[Contest]:
    """The contests in force: the latest line per item (withdrawn ones dropped), of one corpus
    digest when given."""
    latest: dict[tuple[str, str, str, str], Contest] = {}
    for e in entries:
        if digest is None or e.corpus == digest:
            latest[e.key] = e
    return [e for e in latest.values() if not e.withdrawn]


def check(entries: Iterable[Contest], corpus: Corpus, ledger: str | Path = "ledger") -> list[str]:
    """What is wrong with a ledger against a corpus, one located sentence each (records counted
    from 1 in file order, contests and withdrawals alike): an item the corpus does not have, an
    item whose text changed, a withdrawal with no contest in force before it, and contests in force
    made against an earlier version of this corpus (a digest other than its own, on trajectories it
    has; a contest withdrawn since is no longer a problem). Records of trajectories this corpus
    does not have belong to another corpus and are not problems."""
    entries = list(entries)
    ids = {t.id for t in corpus.trajectories}
    digest = corpus.digest
    in_force = {id(e) for e in standing(entries)}
    latest: dict[tuple, Contest] = {}
    out = []
    for n, e in enumerate(entries, 1):
        record = "withdrawal" if e.withdrawn else "contest"
        where = f"{ledger}: {record} {n} ({e.trajectory} {e.item})"
        before = latest.get(e.key)
        latest[e.key] = e
        if e.trajectory not in ids:
            if e.corpus == digest:
                out.append(f"{where}: the corpus has no trajectory {e.trajectory!r}")
            continue
        try:
            kind, text = resolve_item(corpus.get(e.trajectory), e.item)
        except UsageError as exc:
            out.append(f"{where}: unknown item ({exc})")
            continue
        if e.withdrawn and (before is None or before.withdrawn):
            out.append(f"{where}: withdraws nothing (no contest of this item in force before it)")
        if e.corpus != digest:
            if id(e) in in_force:
                changed = "" if text == e.text else f"; the item now reads {text!r}"
                out.append(
                    f"{where}: made against corpus {e.corpus}, this corpus is {digest} — the "
                    f"corpus changed since{changed}"
                )
        elif text != e.text or kind != e.kind:
            out.append(f"{where}: the item reads {text!r}, the ledger has {e.text!r}")
    return out
