"""An exception the question asks for (since lexical-45; docs/metrics.md).

"안경테 무상 AS 1년 – 렌즈 파손은 제외" asked "AS 기간이랑 범위가 어떻게 돼요?" and answered "1년
동안 무상이에요": the statement is one clause to the clause reader (the part after the dash is no
clause of its own: most dashes follow a heading, "감독 공지 – …"), so nothing of it is missing. But
the question names the scope (범위, 대상, 예외, 제외, 해당), and the statement's part that
limits it — after a dash or 단, or in brackets, saying what is excluded or only included — is what
it asks: an answer without a word of that part leaves it out (PARTIAL). Asked only for the period,
the same answer leaves out nothing asked."""

from __future__ import annotations

import re

from seorap.engine.scoring.lexical.analysis import Analysis, analyse
from seorap.engine.scoring.lexical.clauses import _noun_in

_ASKS_SCOPE = re.compile(r"범위|대상|예외|제외|해당")
"""Nouns that ask the scope; not 조건 or 적용, said of any terms (그 조건은 언제부터 적용됐나요?
asks when)."""
_LIMIT_WORDS = r"제외|불가|한함|한정|미포함|빼고|해당\s?없"
"""Words that limit a scope (not 별도: 부가세 별도 prices an extra, it excludes nothing)."""
_LIMIT = re.compile(
    rf"(?:\s[–—-]\s*|\b단\s*,\s*)([^–—()]*?(?:{_LIMIT_WORDS})[^–—()]*)$|\(([^()]*(?:{_LIMIT_WORDS})[^()]*)\)"
)
_LIMIT_NOUNS = frozenset({"제외", "불가", "한함", "한정", "미포함", "해당", "단"})


def limit_missing(exp: Analysis, cand: Analysis, q: Analysis | None) -> tuple[str, ...]:
    """The statement's limiting part (module docstring) when the question asks the scope and the
    answer has no word of it; () otherwise."""
    if q is None or not _ASKS_SCOPE.search(q.text):
        return ()
    out = []
    for m in _LIMIT.finditer(exp.text):
        part = (m.group(1) or m.group(2)).strip()
        words = [n for n in analyse(part).nouns if n not in _LIMIT_NOUNS]
        if words and not any(_noun_in(n, cand.nouns, cand.compact) for n in words):
            out.append(part)
    return tuple(out)
