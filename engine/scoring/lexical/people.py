"""People and teams named in a text: values of the slot "who"."""

from __future__ import annotations

import re

from seorap.engine.scoring.lexical.value import SURNAMES, Value

_TITLES = (
    "님|씨|수석|책임|선임|팀장|이사|매니저|대리|과장|차장|부장|실장|본부장|대표|주임|사원|"
    "상무|전무|파트장|리드|세무사|변호사|노무사|회계사|법무사|원장|교수|선생님|강사|간호사|"
    "소방위|소방장|소방교"
)
_PERSON = re.compile(rf"(?<![가-힣])([가-힣]{{3}})\s?(?:{_TITLES})(?![가-힣]*팀)")
_NAME_THEN_ROLE = re.compile(r"(?<![가-힣])([가-힣]{3}) ([가-힣]{2,4}?)님(?![가-힣])")
"""A name before a role said with 님 (최은정 조리사님: 최은정, not 조리사; since lexical-43)."""
_PARTICLE_ENDS = frozenset("은는이가을를의에도")
_TEAM = re.compile(r"(?<![가-힣A-Za-z0-9])([가-힣A-Za-z0-9]{1,12}?) ?팀(?!장|원|별)")
_NOT_TEAMS = frozenset(
    {
        "한", "우리", "저희", "각", "전", "해당", "같은", "다른", "타", "전체", "두", "세", "네",
        "그", "이", "저", "어느", "무슨", "새", "옆", "상대", "모든", "여러", "몇", "한두",
    }
)  # fmt: skip


_COUNTED = re.compile(r"^\d*(?:명|곳|개|건|대|인)$")


def people_and_teams(text: str) -> list[Value]:
    """A person (a three-syllable name before a title: 박준호 팀장님 = 박준호) and a team (결제팀,
    결제플랫폼팀; not 개발팀장, a person): values of the slot "who"."""
    out = [
        Value("person", (m[1],), m[0], m.start(), m.end())
        for m in _NAME_THEN_ROLE.finditer(text)
        if m[1][0] in SURNAMES and m[1][-1] not in _PARTICLE_ENDS
    ]
    out += [
        Value("person", (m[1],), m[0], m.start(), m.end())
        for m in _PERSON.finditer(text)
        if m[1][0] in SURNAMES  # not 잔금은 이사 (the balance, then 이사 the move): lexical-31
        and not any(p.start <= m.start() < p.end for p in out)
    ]
    for m in _TEAM.finditer(text):
        if _COUNTED.match(m[1]):
            continue  # 4명 팀, 네 명 팀: a team of four, not a team named so
        if m[1] not in _NOT_TEAMS and not any(p.start <= m.start() < p.end for p in out):
            out.append(Value("team", (m[1].lower(),), m[0], m.start(), m.end()))
    return out
