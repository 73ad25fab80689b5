"""Recognising a reply that repeats itself (docs/models.md, "Loops")."""

from __future__ import annotations

import re
from collections.abc import Iterable

LOOP_MIN_TOKENS = 20
"""A loop: the same span of at least this many tokens ..."""
LOOP_REPEATS = 3
"""... repeated this many times in a row at the end of the reply."""
LOOP_MAX_SPAN = 600
"""Longest span looked for (tokens); longer repetitions end at num_predict anyway."""
LOOP_CHECK_CHARS = 96
"""Look for a loop each time the reply grew by this many characters."""
_TOKEN = re.compile(r"\w+|[^\w\s]")


def find_loop(text: str, min_tokens: int = LOOP_MIN_TOKENS, repeats: int = LOOP_REPEATS) -> bool:
    """True when ``text`` ends in the same span of >= ``min_tokens`` tokens ``repeats`` times in a
    row. Tokens are words and single punctuation marks (whitespace ignored), a model-independent
    stand-in for the model's own tokens (one of them is usually shorter than a word)."""
    tokens = _TOKEN.findall(text)
    n = len(tokens)
    for span in range(min_tokens, min(LOOP_MAX_SPAN, n // repeats) + 1):
        last = tokens[-1]
        if any(tokens[-1 - k * span] != last for k in range(1, repeats)):
            continue
        tail = tokens[n - span :]
        if all(tokens[n - (k + 1) * span : n - k * span] == tail for k in range(1, repeats)):
            return True
    return False


# ---- templated loops ------------------------------------------------------------------------------
TEMPLATE_REPEATS = 5
"""A templated loop: the same template this many times in a row ..."""
TEMPLATE_MIN_TOKENS = 4
TEMPLATE_MAX_SPAN = 80
"""... of TEMPLATE_MIN_TOKENS to TEMPLATE_MAX_SPAN tokens ..."""
TEMPLATE_TAIL_CHARS = 1600
"""While streaming, templated loops are looked for in this many trailing characters, each time a
piece ends an item or a clause (:data:`TEMPLATE_ENDS`): 5 spans of the longest template fit."""
TEMPLATE_ENDS = frozenset("}),.\n")
_DIGIT = re.compile(r"\d+")
_WORD = re.compile(r"\w+")


def _same_template(a: list[str], b: list[str]) -> bool:
    """Token by token the same after digits are normalised, except a few word positions (a name
    that changes): at most one in four tokens."""
    differ = 0
    for x, y in zip(a, b):
        if x == y:
            continue
        if not (_WORD.fullmatch(x) and _WORD.fullmatch(y)):
            return False
        differ += 1
    return differ <= max(1, len(a) // 4)


def _words(tokens: list[str]) -> set[str]:
    return {t for t in tokens if _WORD.fullmatch(t) and not t.isdigit()}


def find_template_loop(
    text: str, known: set[str] | None = None, repeats: int = TEMPLATE_REPEATS
) -> int | None:
    """Where a templated loop starts in ``text`` (a character offset), or None.

    A templated loop: the reply ends in ``repeats`` spans of the same template in a row — the same
    tokens once digits are normalised ("19:31" and "19:33" alike) and at most one word in four
    changing (a name) — and the last ``repeats - 1`` of them bring no new document word (a word of
    ``known``, e.g. the prompt's words, or a word with such a stem, not already in the reply
    before them; with ``known`` None, no new word at all). The offset is where the run of that template begins (whole spans back
    from the end), so the items before it can be kept."""
    shapes = _TOKEN.findall(_DIGIT.sub("0", text))  # one token per token of text, digits as 0
    n = len(shapes)
    if n < TEMPLATE_MIN_TOKENS * repeats:
        return None
    last = shapes[-1]
    reach = min(TEMPLATE_MAX_SPAN * (repeats - 1), n - 1)
    same_end = {d for d in range(TEMPLATE_MIN_TOKENS, reach + 1) if shapes[n - 1 - d] == last}
    tokens: list[str] | None = None
    for span in range(TEMPLATE_MIN_TOKENS, min(TEMPLATE_MAX_SPAN, n // repeats) + 1):
        if any(k * span not in same_end for k in range(1, repeats)):
            continue
        tail = shapes[n - span :]
        if not all(
            _same_template(shapes[n - (k + 1) * span : n - k * span], tail)
            for k in range(1, repeats)
        ):
            continue
        tokens = tokens or _TOKEN.findall(text)
        before = _words(tokens[: n - (repeats - 1) * span])
        new = _words(tokens[n - (repeats - 1) * span :]) - before
        if known is not None:
            new = {w for w in new if _in_document(w, known)}
        if new:
            continue
        start = n - repeats * span
        while start - span >= 0 and _same_template(shapes[start - span : start], tail):
            start -= span
        return next(m for i, m in enumerate(_TOKEN.finditer(text)) if i == start).start()
    return None


def _in_document(word: str, known: set[str]) -> bool:
    """The word, or its stem, is one of ``known``: Korean words carry particles and endings
    ("회의실에서" is the document's "회의실"), so a known word of two characters or more that
    begins the word, or that the word begins, counts."""
    if word in known:
        return True
    if any(word[:j] in known for j in range(2, len(word))):
        return True
    return len(word) >= 2 and any(k.startswith(word) for k in known)


def prompt_words(messages: Iterable[object]) -> set[str]:
    """The words of a request's messages (what counts as a document word for templated loops)."""
    return {
        w
        for m in messages
        if isinstance(m, dict)
        for w in _WORD.findall(str(m.get("content") or ""))
        if not w.isdigit()
    }


def repeat_start(text: str, min_tokens: int = LOOP_MIN_TOKENS) -> int | None:
    """Where the first repetition of an exact loop begins in ``text`` (a character offset: the
    first copy is kept, its copies are not), or None when ``text`` does not end in one."""
    matches = list(_TOKEN.finditer(text))
    tokens = [m.group() for m in matches]
    n = len(tokens)
    for span in range(min_tokens, min(LOOP_MAX_SPAN, n // LOOP_REPEATS) + 1):
        tail = tokens[n - span :]
        if not all(
            tokens[n - (k + 1) * span : n - k * span] == tail for k in range(1, LOOP_REPEATS)
        ):
            continue
        start = n - LOOP_REPEATS * span
        while start - span >= 0 and tokens[start - span : start] == tail:
            start -= span
        return matches[start + span].start()
    return None


def loop_kind(text: str, known: set[str] | None = None) -> str:
    """``repeat`` (the same span over and over) or ``template`` (a changing counter or name)."""
    if find_loop(text):
        return "repeat"
    return "template" if find_template_loop(text, known) is not None else "repeat"


# ---- the items of a stopped loop --------------------------------------------------------------
LOOP_GROUP = 3
"""Items of one template (digits normalised, one word in four free) that make a loop's members
when the reply was stopped as a loop: the item and at least two more like it."""


def _shape(text: str) -> list[str]:
    return _TOKEN.findall(_DIGIT.sub("0", text))


def loop_members(kept: list[str], written: list[str]) -> dict[int, str]:
    """{index in ``kept``: why} for the kept items of a reply stopped as a loop that belong to the
    loop: an item written more than once in the whole reply (``written``: every complete item of
    it, the dropped repetitions included), or one of LOOP_GROUP or more items of one template
    ("19:31 차은호 (플랫폼팀장)", "19:33 차은호 (플랫폼팀장)", …)."""
    shapes = [_shape(t) for t in written]
    out: dict[int, str] = {}
    for i, text in enumerate(kept):
        copies = written.count(text)
        if copies > 1:
            out[i] = f"loop: repeat (the same item {copies} times in a stopped reply)"
            continue
        shape = _shape(text)
        alike = sum(1 for s in shapes if len(s) == len(shape) and _same_template(s, shape))
        if alike >= LOOP_GROUP:
            out[i] = f"loop: template ({alike} items of one template in a stopped reply)"
    return out
