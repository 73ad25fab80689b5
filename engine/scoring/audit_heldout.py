"""Audit kinds worded from a held-out list: the lexical judge's rules never read these words
(tests/test_scoring_audit_heldout.py checks that no entry of the judge's word lists occurs in them),
so an audit built from them can see the holes of the rules instead of grading their own homework.

Wrong answers (right verdict NO), built from the ground truth:
- ``firm-wrong``: a wrong value (numbers +1, dates +10 days, else the closest stale claim) stated
  plainly, without any marker;
- ``negated``, ``retracted-reworded``, ``hedged-reworded``: the right statement with a held-out
  negation, retraction or hedge wording;
- ``replaced``: the right statement said to be replaced by a wrong one (held-out wording);
- ``wrong-subject``: the statement about another subject (a held-out topic before its 은/는);
- ``week-off``: a date of the statement a week off, said as a relative date against the
  trajectory's last document (N일 후/전).

Controls (right verdict YES): ``paraphrase-label`` (``X: Y`` for ``X는 Y``) and
``paraphrase-order`` (the value first: ``Y, 그게 X입니다``).
"""

from __future__ import annotations

import random
import re
from datetime import date, timedelta

NEGATIONS = (
    "{e}라는 건 사실과 다릅니다.",
    "{e}라는 얘기는 오보입니다.",
    "{e}는 잘못 알려진 내용입니다.",
)
RETRACTIONS = (
    "{e}로 하려다 흐지부지되었습니다.",
    "{e}로 정했던 일은 물 건너갔습니다.",
    "{e} 건에서 손을 뗐습니다.",
)
HEDGES = ("어림잡아 {e}일 성싶습니다.", "십중팔구 {e}인가 싶네요.", "얼핏 듣기로는 {e}랍니다.")
REPLACEMENTS = ("{e} 자리에 {w}이(가) 들어갑니다.", "{w}이(가) {e}을(를) 밀어냈습니다.")
OTHER_SUBJECTS = ("사내 체육대회", "신입 사원 연수", "사옥 리모델링", "분기 봉사활동")

WRONG = (
    "firm-wrong",
    "negated",
    "retracted-reworded",
    "hedged-reworded",
    "replaced",
    "wrong-subject",
    "week-off",
)
CONTROLS = ("paraphrase-label", "paraphrase-order")

_TOPIC = re.compile(r"^(.+?[가-힣A-Za-z0-9])([은는])\s+(.+?)(?:이다|다|입니다)?[.\s]*$")
_VERB_END = re.compile(r"(?:[한된했됐진간온]|하|되|한다|된다|했다|됐다)$")
_KO_DATE = re.compile(r"(?:(\d{4})년\s*)?(\d{1,2})월\s*(\d{1,2})일")


def held_out(
    expected: str, wrong: str | None, key: str, year: int, asked_on: date
) -> list[tuple[str, str, date | None]]:
    """(kind, answer, answer's reference date) for one audit item; ``key`` seeds the choices."""
    rng = random.Random(key)
    e = expected.rstrip(". ")
    out: list[tuple[str, str, date | None]] = []
    if wrong and wrong != expected:
        out.append(("firm-wrong", wrong, None))
        out.append(("replaced", rng.choice(REPLACEMENTS).format(e=e, w=wrong.rstrip(". ")), None))
    out.append(("negated", rng.choice(NEGATIONS).format(e=e), None))
    out.append(("retracted-reworded", rng.choice(RETRACTIONS).format(e=e), None))
    out.append(("hedged-reworded", rng.choice(HEDGES).format(e=e), None))
    m = _TOPIC.match(e)
    if m:
        other = rng.choice(OTHER_SUBJECTS)
        out.append(("wrong-subject", f"{other}{'은' if _final(other) else '는'} {m[3]}", None))
        if not _VERB_END.search(e):  # "X는 Y" with a nominal Y: a label or the value first
            out.append(("paraphrase-label", f"{m[1]}: {m[3]}", None))
            out.append(("paraphrase-order", f"{m[3]}, 그게 {m[1]}입니다", None))
    week = _week_off(e, year, asked_on)
    if week is not None:
        out.append(("week-off", week, asked_on))
    return out


def _final(word: str) -> bool:
    ch = word[-1]
    return "가" <= ch <= "힣" and (ord(ch) - 0xAC00) % 28 != 0


def _week_off(text: str, year: int, asked_on: date) -> str | None:
    m = _KO_DATE.search(text)
    if not m:
        return None
    try:
        day = date(int(m[1] or year), int(m[2]), int(m[3])) + timedelta(days=7)
    except ValueError:
        return None
    delta = (day - asked_on).days
    if delta == 0 or abs(delta) > 999:
        return None
    rel = f"{abs(delta)}일 {'후' if delta > 0 else '전'}"
    return text[: m.start()] + rel + text[m.end() :]
