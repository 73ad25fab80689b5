"""The topic a statement's clauses share, which no clause owns: a question that names it picks
none of them (lexical/asked.py)."""

from __future__ import annotations

from seorap.engine.scoring.lexical.analysis import Analysis


def statement_topic(exp: Analysis) -> frozenset[str]:
    """The statement's topic: the first clause's nouns before 은/는 or, without one, before its
    first value after a noun ("2층 연회장 뷔페 오픈 11:30": 연회장, 뷔페, 오픈) — when no later
    clause names a topic of its own ("주차권은 …, 분실물은 …": each clause its own owner)."""
    first = exp.segments[0]
    if any(s.topic_end is not None for s in exp.segments[1:]):
        return frozenset()
    nouns = [(exp.text.find(n, first.start), n) for n in first.nouns]
    start = min((at for at, _ in nouns if at >= 0), default=first.start)
    end = first.topic_end
    if end is None:
        end = min((v.start for v in first.values if v.start > start), default=first.end)
        if _parallel(exp, len([n for at, n in nouns if 0 <= at < end])):
            return frozenset()
    return frozenset(n for at, n in nouns if 0 <= at < end)


def _parallel(exp: Analysis, before: int) -> bool:
    """Every later clause with a value names nouns of its own before it (none of the first
    clause's), one as many as the first: each names its own owner and slot ("입장 마감 21:00, 관람
    종료 22:00, 관람료 3,000원"), none shares the first's topic ("뷔페 오픈 11:30, 마감 14:30": 마감
    is 뷔페's; "종료를 … 연장 …, 취소되어 밤 10시 종료 유지" speaks of the first's slot again;
    since lexical-39)."""
    first = frozenset(exp.segments[0].nouns)
    counts = [
        sum(1 for n in s.nouns if 0 <= exp.text.find(n, s.start) < s.values[0].start)
        for s in exp.segments[1:]
        if s.values
    ]
    shared = any(first & s.nouns for s in exp.segments[1:])
    return bool(counts) and not shared and min(counts) >= 1 and max(counts) >= before
