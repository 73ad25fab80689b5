"""The offline lexical judge: grades a statement on the values it carries (docs/metrics.md).

A Korean statement's meaning sits in its values — names, numbers, dates, amounts, nouns — and in a
few words that flip it (취소, 연기, 않다, 아니다); its particles and endings vary freely
(``Aurora로 이전한다`` = ``Aurora에 이전합니다``). So both texts are read into:

- **values** typed by unit (:func:`values`): dates (``2025-03-05`` = ``2025년 3월 5일``), months,
  years, clock times, weekdays, amounts with Korean multipliers (``3만 원`` = ``30,000원``), numbers
  with their counter (명, 회, 건, %, 년 ...), latin-letter names (Aurora, AES-256) and proper nouns;
  a value marked as former (``기존 …``, ``…에서 …로 변경``, ``예전엔 A였지만``) is kept apart;
- **nouns** (kiwipiepy morphemes: particles, endings and verbs dropped);
- **segments** (clauses split at ``, . ; /``) with their **polarity markers** (negation,
  cancellation/retraction, postponement) and **hedge markers** (또는, 아마, ``…일 수도``), all
  matched as morphemes, never as substrings (``운동 일수도`` is not a hedge).

:func:`grade` applies the rules in a fixed order and returns the label with a rationale that names
the rule that decided (``[wrong-value]``, ``[missing-value]`` ...), so it always agrees with the
label. Figures are compared as exact fractions. ``RULES_VERSION`` is stored with every verdict.

Character bigrams (:func:`recall`, :func:`bigram_set`) stay for ranking sentences by a question
(the extractive answerer); they no longer decide verdicts.
"""

import datetime as dt

from seorap.engine.scoring.lexical import weekdays
from seorap.engine.scoring.lexical.analysis import (
    CANCEL,
    NEGATION,
    NOUN_TAGS,
    POSTPONE,
    RETRACT,
    Analysis,
    Segment,
    analyse,
    values,
)
from seorap.engine.scoring.lexical.clauses import WINDOW
from seorap.engine.scoring.lexical.limits import (
    LENIENT_PARTIAL_RECALL,
    LENIENT_YES_RECALL,
    PARTIAL_RECALL,
    RULES_VERSION,
    YES_RECALL,
)
from seorap.engine.scoring.lexical.measure import Match, measure
from seorap.engine.scoring.lexical.rules import (
    RULES,
    Graded,
    grade,
    grade_lenient,
)
from seorap.engine.scoring.lexical.text import (
    Morph,
    NotReady,
    bigram_set,
    f1,
    morphemes,
    no_wait,
    pause_process,
    recall,
    resume_process,
    stop_process,
    use_process,
    warm,
)
from seorap.engine.scoring.lexical.value import UNIT_ALIASES as _UNIT_ALIASES
from seorap.engine.scoring.lexical.value import Value, same
from seorap.engine.scoring.lexical.values import _UNITS

__all__ = [
    "CANCEL",
    "LENIENT_PARTIAL_RECALL",
    "LENIENT_YES_RECALL",
    "NEGATION",
    "NOUN_TAGS",
    "PARTIAL_RECALL",
    "POSTPONE",
    "RETRACT",
    "RULES",
    "RULES_VERSION",
    "WINDOW",
    "YES_RECALL",
    "_UNITS",
    "_UNIT_ALIASES",
    "Analysis",
    "Graded",
    "Match",
    "Morph",
    "Segment",
    "Value",
    "analyse",
    "bigram_set",
    "f1",
    "grade",
    "grade_lenient",
    "holds",
    "judged_values",
    "measure",
    "morphemes",
    "recall",
    "related",
    "same",
    "values",
    "warm",
    "NotReady",
    "no_wait",
    "pause_process",
    "resume_process",
    "stop_process",
    "use_process",
]


def judged_values(text: str, ref: dt.date | None = None) -> tuple[Value, ...]:
    """The values of an expected statement as the judge compares them: a weekday beside its date
    is part of the date (lexical/weekdays.py), so one is no value of its own to leave out."""
    return weekdays.expected_weekdays(analyse(text, ref))[0].values


def holds(
    claim: str, fact: str, claim_date: dt.date | None = None, fact_date: dt.date | None = None
) -> bool:
    """True when the fact states the claim (the lexical judge, claim rules, would say YES), with
    relative dates read as the judge reads them (measure: each against its own document's date;
    unresolved without one)."""
    return grade(measure(claim, fact, None, claim_date, fact_date), check_hedge=False)[0] == "YES"


def related(claim: str, fact: str) -> bool:
    """True when the fact states at least part of the claim (element recall >= 1/2 with no wrong
    value), or is itself a fragment of the claim (the same, measured the other way)."""
    forward = measure(claim, fact)
    if forward.recall >= PARTIAL_RECALL and not forward.wrong:
        return True
    backward = measure(fact, claim)
    return backward.recall >= PARTIAL_RECALL and not backward.wrong
