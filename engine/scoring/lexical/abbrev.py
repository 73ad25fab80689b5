"""Abbreviation by dropping syllables of a proper noun (서울대학교병원 → 서울대병원), since lexical-6.

A word of one text abbreviates a name of the other when it keeps the name's first two syllables
and its last one, keeps its other syllables in order, keeps at least two thirds of them, and is no
name of the glossary (a conflicting entry wins). The judge reads the short form as the long one
and says so in the rationale (``abbreviation: 서울대병원 = 서울대학교병원``).

Since lexical-11 an answer's word may also drop a leading part of an expected name of six or more
syllables, keeping four or more (농림축산검역본부 → 검역본부, 한국교통안전공단 → 교통안전공단;
a run of nouns written as one word counts as a name): a shorter name for the same body. Only that
way round: an answer that writes a longer name than the expected one adds what it was not told."""

from __future__ import annotations

import re
from collections.abc import Collection

from seorap.engine.scoring.lexical.analysis import analyse

_HANGUL_WORD = re.compile(r"[가-힣]{3,}")
_HANGUL_WORD_2 = re.compile(r"[가-힣]{2,}")


def abbreviates(short: str, long: str) -> bool:
    """Does ``short`` drop syllables of ``long`` by the module's rule?"""
    if not 3 <= len(short) < len(long) or 3 * len(short) < 2 * len(long):
        return False
    if short[:2] != long[:2] or short[-1] != long[-1]:
        return False
    rest = iter(long[2:])
    return all(ch in rest for ch in short[2:])


_NATIONAL = ("한국", "국립", "대한", "재단법인", "사단법인")
"""Leading words a body's short name leaves out (국립농산물품질관리원 → 농관원; since lexical-31)."""


def initials(short: str, long: str) -> bool:
    """Does ``short`` keep, of three or more of the words ``long`` is written from, the first
    syllable or the whole word, in order (한국예술종합학교 → 한예종, 국립중앙도서관 → 국중도,
    한국외국어대학교 → 한국외대; since lexical-24)? A name the analyser reads as one word is cut
    into words of two or three syllables, every way; the first word is always kept — or, since
    lexical-31, the first after a leading 한국/국립/대한 (한국출판문화산업진흥원 → 출판진흥원)."""
    if len(short) < 3 or len(short) >= len(long):
        return False
    if short[0] == long[0] and _initials(short, long, 0):
        return True
    bare = next((long[len(w) :] for w in _NATIONAL if long.startswith(w)), "")
    return len(bare) > len(short) and short[0] == bare[0] and _initials(short, bare, 0)


def _initials(short: str, long: str, used: int) -> bool:
    if not short:
        return used >= 3
    if not long:
        return False
    for size in (2, 3, 1):
        if size > len(long) or (size == 1 and len(long) != 1):
            continue
        word, rest = long[:size], long[size:]
        if short.startswith(word) and _initials(short[size:], rest, used + 1):
            return True
        if short[0] == word[0] and _initials(short[1:], rest, used + 1):
            return True
        if used and _initials(short, rest, used):
            return True  # a word left out (학교 in 한예종)
    return False


def tail_of(short: str, long: str) -> bool:
    """Is ``short`` the name ``long`` without a leading part ((농림축산)검역본부, (한국)교통안전공단),
    keeping at least four syllables and dropping at least two?"""
    return (len(short) >= 4 or (len(short) == 3 and len(long) >= 8)) and (
        len(long) - len(short) >= 2 and long.endswith(short)
    )  # since lexical-31 three syllables of a name of eight or more (한국교육과정평가원 → 평가원)


def clipped(short: str, long: str) -> bool:
    """Is ``short`` two syllables, the first of each of the two words a name of four or five
    syllables is written from (국가대표 → 국대, 현금영수증 → 현영, 카카오톡 → 카톡; since
    lexical-49)? The second word starts at the third or the fourth syllable."""
    return (
        len(short) == 2
        and 4 <= len(long) <= 5
        and short[0] == long[0]
        and short[1] in (long[2], long[3])
        and short not in long
    )


def _names(text: str, runs: bool = False) -> set[str]:
    """Hangul proper nouns and name values of ``text`` of four or more syllables; with ``runs``,
    also its runs of nouns written as one word (식품의약품안전처: three nouns to the analyser)."""
    a = analyse(text)
    found = {v.text for v in a.values if v.type == "name"}
    found |= {m.form for m in a.morphs if m.tag == "NNP"}
    if runs:
        run, end = "", -1
        for m in a.morphs:
            if m.tag in ("NNP", "NNG") and m.start == end:
                run += m.form
            elif m.tag in ("NNP", "NNG"):
                found.add(run)
                run = m.form
            else:
                found.add(run)
                run = ""
            end = m.end
        found.add(run)
    return {n for n in found if len(n) >= 4 and _HANGUL_WORD.fullmatch(n)}


def _pairs(text: str) -> set[str]:
    """Two nouns of two syllables each written apart, one after the other (정기 모임): a name a
    clip may stand for (정모; since lexical-50)."""
    ms = analyse(text).morphs
    return {
        f"{a.form} {b.form}"
        for a, b in zip(ms, ms[1:])
        if a.tag == b.tag == "NNG"
        and len(a.form) == len(b.form) == 2
        and b.start == a.end + 1
        and _HANGUL_WORD_2.fullmatch(a.form + b.form)
    }


def abbreviations(
    source: str, other: str, reserved: Collection[str] = (), tails: bool = False
) -> list[tuple[str, str]]:
    """(short form in ``other``, name of ``source``) for each word of ``other`` that abbreviates a
    name of ``source`` (the longest such start of the word; a particle may follow it). With
    ``tails`` (since lexical-11; ``source`` is the expected statement, so a shorter name in an
    answer is read as the expected one, never a longer one as a shorter), a name without its
    leading part counts too (``tail_of``)."""
    out: list[tuple[str, str]] = []
    names = _names(source, runs=tails)
    pairs = _pairs(source) if tails else set()
    for m in (_HANGUL_WORD_2 if tails else _HANGUL_WORD).finditer(other):
        word = m[0]
        for long in sorted(names, key=len, reverse=True):
            if long in word:
                break
            short = next(
                (
                    word[:n]
                    for n in range(len(word), 1 if tails else 2, -1)
                    if abbreviates(word[:n], long)
                    or initials(word[:n], long)
                    or (tails and tail_of(word[:n], long))
                    or (tails and clipped(word[:n], long))
                ),
                None,
            )
            if short is not None and short.lower() not in reserved:
                out.append((short, long))
                break
        else:
            short = word[:2]  # 정모 for 정기 모임: the first syllable of each
            pair = next((p for p in pairs if short == p[0] + p[3] and short not in p), None)
            if pair is not None and short.lower() not in reserved:
                out.append((short, pair))
    return list(dict.fromkeys(out))


def expand(
    source: str, other: str, reserved: Collection[str] = (), tails: bool = False
) -> tuple[str, list[str]]:
    """``other`` with every abbreviation of a name of ``source`` written out, and the notes
    (``short = long``) for the rationale (``tails``: see ``abbreviations``)."""
    notes = []
    for short, long in abbreviations(source, other, reserved, tails):
        other = re.sub(rf"(?<![가-힣]){re.escape(short)}", long, other)
        notes.append(f"{short} = {long}")
    return other, notes
