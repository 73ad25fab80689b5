"""The judge audit's answers worded in English, for a corpus declared in English (an imported LoCoMo
or LongMemEval set): the same kinds as the Korean templates of engine/scoring/audit.py, with English
dates (docs/metrics.md#judge-audit).

Wrong answers (right verdict NO): ``hedged`` ("<right>, or possibly <wrong>"), ``multi-value``
("<right> / <wrong>": a right and a wrong candidate listed), ``stale-firm`` (a superseded claim
stated firmly, where the trajectory has one), ``retracted`` (three templates, seeded),
``wrong-date`` (a date moved by 8-13 days, in the format it was written in), ``vague`` (no value),
``context-free`` (the answerer with no context), ``firm-wrong`` (the wrong value plainly) and
``negated``. PARTIAL: ``missing-one`` (the last of two or more listed parts dropped). Controls
(YES): ``correct`` and ``paraphrase`` (listed parts in reverse order, else the answer in a
sentence). <wrong> is the answer with its dates moved 10 days, else its numbers (digits or number
words) plus one, else the closest superseded claim. Items excluded from scoring, abstention items
and LoCoMo's adversarial ones (whose right answer is that nothing was said) are not audited: no wrong value can be built
from them. Returns plain tuples; audit.py makes them its items.
"""

from __future__ import annotations

import random
import re
from datetime import date, timedelta

from seorap.engine.corpus.trajectory import Trajectory, parse_timestamp

MONTHS = (
    "January February March April May June July August September October November December"
).split()
_MONTH = "|".join(MONTHS + [m[:3] for m in MONTHS] + ["Sept"])
_DAY_MONTH = re.compile(rf"\b(\d{{1,2}}) ({_MONTH})\.?(,? (\d{{4}}))?\b", re.IGNORECASE)
_MONTH_DAY = re.compile(
    rf"\b({_MONTH})\.? (\d{{1,2}})(?:st|nd|rd|th)?(,? (\d{{4}}))?\b", re.IGNORECASE
)
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_NUM = re.compile(r"\b\d+\b")
NUMBER_WORDS = "zero one two three four five six seven eight nine ten eleven twelve".split()
_NUMBER_WORD = re.compile(rf"\b({'|'.join(NUMBER_WORDS)})\b", re.IGNORECASE)
_PARTS = re.compile(r",\s*(?:and\s+)?|\s+and\s+")

RETRACTIONS = (
    "{e}. But that was cancelled later.",
    "{e} — that has since been retracted.",
    "It used to be {e}, but not any more.",
)
VAGUE = "That came up in our conversations and was talked about, but nothing definite was said."

Built = tuple[str, str, str, str, str | None, date | None]
"""(trajectory id, kind, question, expected, answer or None for context-free, answer date)."""


def _month(name: str) -> int:
    key = name.lower()[:3]
    return next(i for i, m in enumerate(MONTHS, 1) if m.lower().startswith(key))


def shift_dates(text: str, days: int, year: int) -> str | None:
    """``text`` with its first date moved by ``days``, written as it was (ISO, ``8 May 2023``,
    ``May 8, 2023``; a date without a year reads as ``year``); None when it has none."""
    found = [
        (m, kind)
        for kind, pattern in (("iso", _ISO), ("dm", _DAY_MONTH), ("md", _MONTH_DAY))
        if (m := pattern.search(text))
    ]
    if not found:
        return None
    m, kind = min(found, key=lambda pair: pair[0].start())
    try:
        if kind == "iso":
            new = (date(int(m[1]), int(m[2]), int(m[3])) + timedelta(days=days)).isoformat()
        elif kind == "dm":
            d = date(int(m[4] or year), _month(m[2]), int(m[1])) + timedelta(days=days)
            new = f"{d.day} {MONTHS[d.month - 1]}" + (f"{m[3][:-4]}{d.year}" if m[3] else "")
        else:
            d = date(int(m[4] or year), _month(m[1]), int(m[2])) + timedelta(days=days)
            new = f"{MONTHS[d.month - 1]} {d.day}" + (f"{m[3][:-4]}{d.year}" if m[3] else "")
    except ValueError:
        return None
    return text[: m.start()] + new + text[m.end() :]


def _plus_one(text: str) -> str | None:
    if _NUM.search(text):
        return _NUM.sub(lambda m: str(int(m[0]) + 1), text)
    if _NUMBER_WORD.search(text):
        return _NUMBER_WORD.sub(lambda m: NUMBER_WORDS[NUMBER_WORDS.index(m[0].lower()) + 1], text)
    return None


def wrong_value(text: str, stale: list[str], year: int) -> str | None:
    return shift_dates(text, 10, year) or _plus_one(text) or (stale[0] if stale else None)


def parts(expected: str) -> list[str]:
    """The listed parts of an answer (``A, B and C``)."""
    return [p.strip() for p in _PARTS.split(expected.rstrip(". ")) if p.strip()]


def paraphrase(expected: str) -> str:
    listed = parts(expected)
    if len(listed) >= 2:
        return ", ".join(reversed(listed))
    return f"That would be {expected.rstrip('. ')}."


def _stale(trajectory: Trajectory) -> list[str]:
    final = set(trajectory.final.claims)
    return list(
        dict.fromkeys(c for s in trajectory.states for c in s.stale_claims if c not in final)
    )


def _declines(trajectory: Trajectory, kind: str | None) -> bool:
    """A LoCoMo adversarial item (kind 5): its right answer declines, like an abstention's."""
    return trajectory.source is not None and trajectory.source.dataset == "locomo" and kind == "5"


def _pairs(trajectory: Trajectory) -> list[tuple[str, str, date]]:
    """(question, expected, date asked) of each auditable item."""
    last = trajectory.final.when.date()
    out = [
        (q.question, q.answer, parse_timestamp(q.asked_at).date() if q.asked_at else last)
        for q in trajectory.single_qa
        if q.excluded is None
        and not q.abstention
        and q.answer.strip()
        and not _declines(trajectory, q.kind)
    ]
    topic = trajectory.subject or trajectory.title
    out += [(f"What is the current state of {topic}?", c, last) for c in trajectory.final.claims]
    return out


def items_for(trajectory: Trajectory, rng: random.Random) -> list[Built]:
    """The English audit items of one trajectory (module docstring)."""
    year, stale = trajectory.final.when.year, _stale(trajectory)
    out: list[Built] = []
    for question, expected, asked in _pairs(trajectory):
        e = expected.rstrip(". ")
        wrong = wrong_value(expected, stale, year)
        answers: list[tuple[str, str | None]] = []
        if wrong and wrong != expected:
            answers += [("hedged", f"{e}, or possibly {wrong}"), ("multi-value", f"{e} / {wrong}")]
            answers.append(("firm-wrong", wrong))
        if stale:
            answers.append(("stale-firm", f"Confirmed: {stale[0]}"))
        answers.append(("retracted", rng.choice(RETRACTIONS).format(e=e)))
        moved = shift_dates(expected, rng.randint(8, 13) * rng.choice((-1, 1)), year)
        if moved is not None:
            answers.append(("wrong-date", moved))
        answers += [("vague", VAGUE), ("context-free", None), ("negated", f"Definitely not {e}.")]
        listed = parts(expected)
        if len(listed) >= 2:
            answers.append(("missing-one", ", ".join(listed[:-1])))
        answers += [("correct", expected), ("paraphrase", paraphrase(expected))]
        out += [(trajectory.id, kind, question, expected, a, asked) for kind, a in answers]
    return out
