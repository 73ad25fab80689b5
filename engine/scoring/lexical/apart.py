"""An item the statement sets apart from a list, joined to the list's members by the answer
(since lexical-35; moved here from roles.py in lexical-51).

E sets an item apart from a list (기본 제공: 액자, 향 (화환은 별도)) and the answer joins it to the
list's members (와/과/랑/하고, a comma, 그리고, 및) with no word setting anything apart: a wrong
value (roles.py reads it with the other ways an answer says otherwise)."""

from __future__ import annotations

import re

from seorap.engine.scoring.lexical.analysis import Analysis

_APART = re.compile(
    r"별도|제외|불포함|미포함|따로|빼|빠|말고|외에|유료|대체|추가\s*(?:요금|비용|금)"
)
"""Words that set an item apart from a list (화환은 별도, 음료 제외, 주차 유료)."""
_MOVED = re.compile(r"[가-힣A-Za-z0-9\s]{1,20}?(?:으로|로)\s*(?:대체|변경|이동|옮|넘어|바뀌|바꿈)")
"""An item a clause moves elsewhere (목욕 보조는 이론 평가로 대체): set apart from the list too
(since lexical-35)."""
_LISTED = re.compile(r"[\s·/]*(?:,|·|/|그리고|및|와|과|랑|이랑|하고)(?:[\s,·/]|그리고|및)*")
"""What joins two members of a list: a comma, a middle dot, 와/과/랑/하고, 그리고, 및."""
_PHRASE = frozenset({"NNG", "NNP", "NNB", "NR", "SN", "MM", "XSN", "SL", "SH"})
"""Tags of a list member's words (반찬 세 가지, 500g 두 팩)."""
_AMOUNT = frozenset({"NNB", "NR", "SN", "MM"})


def _apart_items(exp: Analysis) -> list[tuple[str, ...]]:
    """Nouns E sets apart: the topic noun of a bracket or clause that holds a word of _APART
    (…(화환은 별도 주문)), or the noun right before one (별관 제외); each with the noun right
    before it when the two are one name (목욕 보조: not 식사 보조; since lexical-35)."""
    return [(*_modifier(exp, i), exp.morphs[i].form) for i in _apart_at(exp)]


def _modifier(exp: Analysis, i: int) -> tuple[str, ...]:
    prev = exp.morphs[i - 1] if i else None
    if (
        prev is None
        or prev.tag not in ("NNG", "NNP")
        or exp.text[prev.end : exp.morphs[i].start].strip()
    ):
        return ()
    return (prev.form,)


def _apart_at(exp: Analysis) -> list[int]:
    out = []
    for i, m in enumerate(exp.morphs):
        if m.tag not in ("NNG", "NNP"):
            continue
        nxt = exp.morphs[i + 1] if i + 1 < len(exp.morphs) else None
        rest = exp.text[m.end : m.end + 12].strip()
        if nxt is not None and nxt.tag == "JX" and nxt.form in ("은", "는"):
            tail = exp.text[nxt.end :]
            stop = re.search(r"[).,;\n]", tail)
            said = tail[: stop.start() if stop else len(tail)].strip()
            if _APART.match(said) or _MOVED.match(said):
                out.append(i)
        elif _APART.match(rest) and not rest.startswith(("빼고", "말고", "외에")):
            out.append(i)
    return out


def _member_beside(cand: Analysis, i: int, step: int) -> list[str]:
    """The words of the list member joined to morpheme ``i`` on its left (``step`` -1) or right
    (+1): the join's text must be a comma, 와/과, 그리고 … (see _LISTED)."""
    m = cand.morphs
    while step > 0 and i + 1 < len(m) and m[i + 1].tag in _AMOUNT:
        i += 1  # the item's own amount (음료 한 잔, …), its counter too
        if m[i].tag != "NNB" and i + 1 < len(m) and m[i + 1].tag in ("NNG", "NNB"):
            i += 1
    j = i + step
    while 0 <= j < len(m) and (m[j].tag == "JC" or m[j].tag == "MAJ" or m[j].form in ("및",)):
        j += step
    if not 0 <= j < len(m) or m[j].tag not in _PHRASE:
        return []
    gap = cand.text[m[j].end : m[i].start] if step < 0 else cand.text[m[i].end : m[j].start]
    if not _LISTED.fullmatch(gap):
        return []
    words = []
    while 0 <= j < len(m) and m[j].tag in _PHRASE:
        words.append(m[j].form)
        nxt = j + step
        if not 0 <= nxt < len(m) or (
            cand.text[min(m[j].end, m[nxt].end) : max(m[j].start, m[nxt].start)].strip(" ")
        ):
            break
        j = nxt
    return words


def apart_listed(exp: Analysis, cand: Analysis) -> tuple[str, str] | None:
    """(item, member): an item E sets apart that the answer joins to a member of E's list (by
    와/과/랑/하고, a comma, 그리고, 및), the answer saying nothing sets anything apart or is not so."""
    if _APART.search(cand.text) or any(s.markers for s in cand.segments):
        return None
    items = _apart_items(exp)
    apart = {item[-1] for item in items}
    for i, x in enumerate(cand.morphs):
        if x.tag not in ("NNG", "NNP"):
            continue
        item = next((it for it in items if _said_at(cand, i, it)), None)
        if item is None:
            continue
        for step, at in ((-1, i - len(item) + 1), (1, i)):
            member = [
                w for w in _member_beside(cand, at, step) if w in exp.nouns and w not in apart
            ]
            if member:
                return " ".join(item), member[0]
    return None


def _said_at(cand: Analysis, i: int, item: tuple[str, ...]) -> bool:
    """The answer's morphemes ending at ``i`` say ``item`` (목욕 보조; 보조 alone only when the
    item is one noun)."""
    if i + 1 < len(item):
        return False
    return all(cand.morphs[i - k].form == w for k, w in enumerate(reversed(item)))
