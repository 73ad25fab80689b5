"""One verdict for one (claim, text): does the text state the claim (docs/metrics.md).

:func:`verdict` is the one function that decides it (the lexical judge's claim rules, ``holds``;
its rule name, :data:`RULE`, is recorded with it). A scoring pass decides every pair it reads
inside :func:`recording` — the stale facts and the fact shape of the intrinsic card, the journey's
*needs*, *kept*, *retrieved* and *used*, the read-time stale marks — and, for the stepper, every
(stale claim, active fact) of every arrival position (:func:`cover_steps`); the pairs are stored in
the ``holdings`` table beside the score card. The views (stepper stale marks, the tour's stale
facts) read the stored pairs through :class:`Held`; the journey, the diagnoses, the tour's case
choice and the report read the score card built from the same pairs. So every screen shows one
verdict per pair, the one stored at score time. A pair's verdict is the lexical judge's claim
verdict on it (YES or not), read as the judge reads it: relative dates against the dates a scoring
pass gives (:func:`dating`), names through the corpus's glossary and abbreviations (since
lexical-7; before, the stored verdict read neither, and a fact the judge credited through an alias
could be "not held" on another screen).

A run scored before the table existed (or not scored yet) has no stored pairs: a view then
computes them on read with :func:`verdict` and says so (:attr:`Held.note`); re-scoring stores them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from sqlite_utils import Database

from seorap.engine.corpus import Trajectory
from seorap.engine.corpus.trajectory import parse_timestamp
from seorap.engine.scoring import lexical, metrics
from seorap.engine.scoring.glossary import Glossary
from seorap.engine.scoring.judges import LexicalJudge
from seorap.engine.store.database import facts_at, version_texts

RULE = lexical.RULES_VERSION
"""The rule name recorded with every stored verdict (``lexical-9`` today)."""

_recording: ContextVar[dict[tuple[str, str], bool] | None] = ContextVar(
    "holding_recording", default=None
)


@dataclass(frozen=True)
class Dating:
    """The dates a scoring pass reads relative dates against, as the judge does (intrinsic.
    judge_claims): a claim's against its state's document, a fact's against its source document's
    (the document its version was written at). A text met under two dates, or not met at all (an
    answer), has none: its relative dates stay unresolved, which never makes a verdict YES."""

    claims: Mapping[str, dt.date | None] = field(default_factory=dict)
    texts: Mapping[str, dt.date | None] = field(default_factory=dict)


_dating: ContextVar[Dating | None] = ContextVar("holding_dating", default=None)
_PLAIN = LexicalJudge()
_judge: ContextVar[LexicalJudge] = ContextVar("holding_judge", default=_PLAIN)


def _one(pairs: Iterator[tuple[str, dt.date]]) -> dict[str, dt.date | None]:
    """{text: its date}, None for a text seen under two dates."""
    out: dict[str, dt.date | None] = {}
    for text, day in pairs:
        out[text] = day if out.get(text, day) == day else None
    return out


def dating(db: Database, run_id: str, trajectory: Trajectory) -> Dating:
    """The claims' and the stored fact versions' dates of one trajectory of a run."""
    dated = {a.position: parse_timestamp(a.timestamp).date() for a in trajectory.arrivals()}
    claims = _one((c, s.when.date()) for s in trajectory.states for c in s.claims + s.stale_claims)
    versions = version_texts(db, run_id, trajectory.id)
    texts = _one((text, dated[p]) for text, p in versions if p in dated)
    return Dating(claims, texts)


def judge_for(aliases: Glossary | None) -> LexicalJudge:
    """The lexical judge (strict) that decides pairs under ``aliases`` (None or empty: none)."""
    return LexicalJudge(glossary=aliases) if aliases else _PLAIN


def decide(claim: str, text: str, judge: LexicalJudge, dates: Dating | None = None) -> bool:
    """Does ``text`` state ``claim``: the judge's claim verdict on the one text is YES."""
    dates = dates or Dating()
    got = judge.grade_claim(
        claim, [text], claim_date=dates.claims.get(claim), fact_dates=[dates.texts.get(text)]
    )
    return got.label == "YES"


def _compute(claim: str, text: str, judge: LexicalJudge | None = None) -> bool:
    """The pair decided (the one place every verdict comes from): by ``judge``, or by the scoring
    pass's judge and dates."""
    if judge is not None:
        return decide(claim, text, judge)
    return decide(claim, text, _judge.get(), _dating.get())


def verdict(claim: str, text: str) -> bool:
    """True when ``text`` states ``claim``: the one function every (claim, text) verdict comes
    from. Inside :func:`recording` each pair is decided once and recorded (the stored verdict)."""
    pairs = _recording.get()
    if pairs is None:
        return _compute(claim, text)
    got = pairs.get((claim, text))
    if got is None:
        got = pairs[(claim, text)] = _compute(claim, text)
    return got


@contextmanager
def recording(
    dates: Dating | None = None, aliases: Glossary | None = None
) -> Iterator[dict[tuple[str, str], bool]]:
    """Within the block, every :func:`verdict` is decided once and recorded in the dict yielded
    ({(claim, text): holds}): what a scoring pass stores for one trajectory; ``dates`` (see
    :func:`dating`) are what relative dates are read against there, ``aliases`` the corpus's
    glossary the judge reads names through."""
    pairs: dict[tuple[str, str], bool] = {}
    token = _recording.set(pairs)
    dated = _dating.set(dates or Dating())
    judged = _judge.set(judge_for(aliases))
    try:
        yield pairs
    finally:
        _judge.reset(judged)
        _dating.reset(dated)
        _recording.reset(token)


def cover_steps(db: Database, run_id: str, trajectory: Trajectory) -> None:
    """Decide, for every arrival position, each stale claim up to its state against each active
    fact there: the stepper's stale marks, read later from the stored pairs (every pair, not only
    up to the first that holds, so a view may ask in any order)."""
    claims = [s.claims for s in trajectory.states]
    stale_values = [s.stale_claims for s in trajectory.states]
    for a in trajectory.arrivals():
        stale = metrics.stale_claims_at(claims, stale_values, a.state_index)
        if not stale:
            continue
        for f in facts_at(db, run_id, trajectory.id, a.position):
            if f.status == "active":
                for c in stale:
                    verdict(c, f.text)


def rows(pairs: dict[tuple[str, str], bool]) -> list[tuple[str, str, bool]]:
    """The recorded pairs as (claim, text, holds), in a stable order."""
    return [(c, t, h) for (c, t), h in sorted(pairs.items())]


STORED = "stored"
BEFORE = "scored before"
UNSCORED = "unscored"


@dataclass
class Held:
    """The (claim, text) verdicts a view reads for one trajectory: the pairs stored at score time
    (``source`` "stored", their ``rule``), or none — a run scored before verdicts were stored
    ("scored before") or not scored ("unscored") — and then each pair is computed on read with
    :func:`verdict` (``note`` says so). ``missed`` counts the pairs a stored set lacked (computed
    on read; zero when the scoring pass covered what the views ask)."""

    pairs: dict[tuple[str, str], bool]
    source: str = STORED
    rule: str = RULE
    missed: int = field(default=0)
    aliases: Callable[[], Glossary | None] | None = None
    """Reads the corpus's glossary a pair computed on read is decided under (the scoring pass's);
    called once, on the first pair a view computes."""
    _judge: LexicalJudge | None = field(default=None, init=False, repr=False)

    def judge(self) -> LexicalJudge:
        if self._judge is None:
            self._judge = judge_for(self.aliases() if self.aliases is not None else None)
        return self._judge

    @property
    def stored(self) -> bool:
        return self.source == STORED

    def __call__(self, claim: str, text: str) -> bool:
        got = self.pairs.get((claim, text))
        if got is None:
            got = self.pairs[(claim, text)] = _compute(claim, text, self.judge())
            self.missed += int(self.stored)
        return got

    @property
    def note(self) -> str:
        """How the verdicts were had, in words ("" when stored under today's rules)."""
        if self.source == STORED:
            if self.rule == RULE:
                return ""
            return f"stored at score time ({self.rule}; re-score for {RULE})"
        if self.source == BEFORE:
            return (
                f"computed on read ({RULE}): the run was scored before (claim, text) verdicts "
                "were stored; re-score it (seorap score) so every view reads the stored verdict"
            )
        return f"computed on read ({RULE}): the run is not scored"
