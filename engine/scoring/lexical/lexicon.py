"""The neutral lexicon and the predicate synonym table of full accounting (docs/metrics.md).

Both are data files in this package (``neutral.tsv``, ``predicates.tsv``), closed lists each entry
of which says why it cannot change a value; a user extends the neutral lexicon with a
``neutral.tsv`` beside their glossary (engine/scoring/glossary.py reads it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from seorap.engine.errors import UsageError

HERE = Path(__file__).parent
NEUTRAL_FILE = "neutral.tsv"
PREDICATES_FILE = "predicates.tsv"


@dataclass(frozen=True)
class Entry:
    """One neutral word (or phrase: several forms in a row) with the tags it is neutral with."""

    forms: tuple[str, ...]
    tags: tuple[str, ...]
    """Per form its tags (comma-joined; a tag ending in ``*`` is a prefix); one for a phrase."""
    cls: str
    why: str

    def tag_ok(self, i: int, tag: str) -> bool:
        allowed = self.tags[min(i, len(self.tags) - 1)] if len(self.forms) > 1 else self.tags[0]
        return any(
            tag.startswith(t[:-1]) if t.endswith("*") else tag == t for t in allowed.split(",")
        )


def _lines(text: str, source: str) -> list[tuple[int, list[str]]]:
    return [
        (n, [c.strip() for c in line.split("\t")])
        for n, line in enumerate(text.splitlines(), 1)
        if line.strip() and not line.lstrip().startswith("#")
    ]


def parse_neutral(text: str, source: str) -> tuple[Entry, ...]:
    """Entries of a neutral lexicon; a bad line raises UsageError naming ``source:line``."""
    out = []
    for n, cols in _lines(text, source):
        if len(cols) < 4 or not all(cols[:4]):
            raise UsageError(f"{source}:{n}: a neutral-lexicon line needs form, tags, class, why")
        forms = tuple(cols[0].split("+"))
        tags = cols[1]
        per_form = tuple(tags.split(",")) if len(forms) > 1 else (tags,)
        if len(forms) > 1 and len(per_form) != len(forms):
            raise UsageError(f"{source}:{n}: a phrase needs one tag per form")
        out.append(Entry(forms, per_form, cols[2], cols[3]))
    return tuple(out)


def parse_predicates(text: str, source: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """(class name, words) of a predicate synonym table."""
    out = []
    for n, cols in _lines(text, source):
        words = frozenset(c for c in cols[1:] if c)
        if len(words) < 2:
            raise UsageError(f"{source}:{n}: a predicate class needs a name and two words")
        out.append((cols[0], words))
    return tuple(out)


@lru_cache(maxsize=1)
def builtin_neutral() -> tuple[Entry, ...]:
    path = HERE / NEUTRAL_FILE
    return parse_neutral(path.read_text(encoding="utf-8"), str(path))


def neutral_word(m: Any) -> bool:
    """Is the morpheme ``m`` (``form``, ``tag``) a one-word entry of the built-in lexicon? An
    adverb listed there (이렇게) is neutral wherever the judge reads adverbs."""
    return any(
        len(e.forms) == 1 and e.forms[0] == m.form and e.tag_ok(0, m.tag) for e in builtin_neutral()
    )


@lru_cache(maxsize=1)
def predicate_classes() -> tuple[tuple[str, frozenset[str]], ...]:
    path = HERE / PREDICATES_FILE
    return parse_predicates(path.read_text(encoding="utf-8"), str(path))


CONVERSE = ("받", "당하", "배우")
"""Verbs that say an act from the side of who receives it (넘겨받다, 칭찬받다, 배우다 for
가르치다): with one, who acts is said the other way round (lexical/roles.py)."""
GIVING = frozenset(
    {"주", "드리", "보내", "부치", "발송", "송부", "전송", "전달", "제공", "지급", "통보", "알리",
     "보고", "제출", "수여", "건네", "넘기", "가르치", "입금", "발급"}
)  # fmt: skip
"""Acts done to someone (보내다, 전달하다, 보고하다, 발급하다). 받다 says one of them from the side of
who receives it (보고했다 / 보고받았다): with one in the expected statement an answer's 받다 is
accounted for, and who receives is checked (roles.giver_receives)."""


def receives_given(m: Any, content: frozenset[str], nouns: Sequence[str] = ()) -> bool:
    """``m`` is the verb 받다 and the expected statement (``content``, ``nouns``) says an act of
    giving (since lexical-29)."""
    return (m.form, m.tag) == ("받", "VV") and bool(
        GIVING & content or any(len(g) >= 2 and g in n for g in GIVING for n in nouns)
    )


def synonym_class(word: str, known: frozenset[str], nouns: Sequence[str] = ()) -> str | None:
    """The meaning class shared by ``word`` and one of ``known`` (the expected answer's and the
    question's morpheme forms) or a word inside one of ``nouns`` (their nouns: 만료 in 만료일),
    or None."""
    for name, words in predicate_classes():
        if word not in words:
            continue
        if words & known or any(len(w) >= 2 and w in n for w in words for n in nouns):
            return name
    return None


def load_user(path: Path) -> tuple[Entry, ...]:
    """A user's ``neutral.tsv`` (none there: no entries)."""
    if not path.is_file():
        return ()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(
            f"{path}: cannot read the neutral lexicon ({exc.__class__.__name__})"
        ) from exc
    return parse_neutral(text, str(path))


def in_phrases(morphs: Sequence[Any], entries: Sequence[Entry] = ()) -> set[int]:
    """Indices of ``morphs`` (kiwipiepy morphemes: ``form``, ``tag``) that belong to a neutral
    phrase (an entry of several forms, found in a row: 확인해 보니)."""
    out: set[int] = set()
    starting = _phrases_by_first_form(tuple(entries))
    for i, first in enumerate(morphs):
        for e in starting.get(first.form, ()):
            n = len(e.forms)
            if i + n <= len(morphs) and all(
                morphs[i + k].form == e.forms[k] and e.tag_ok(k, morphs[i + k].tag)
                for k in range(n)
            ):
                out.update(range(i, i + n))
    return out


@lru_cache(maxsize=8)
def _phrases_by_first_form(entries: tuple[Entry, ...]) -> dict[str, tuple[Entry, ...]]:
    """The phrases (entries of several forms) of the built-in lexicon and ``entries``, by their
    first form: a morpheme is tried only against the phrases it can begin."""
    by_first: dict[str, list[Entry]] = {}
    for e in (*builtin_neutral(), *entries):
        if len(e.forms) >= 2:
            by_first.setdefault(e.forms[0], []).append(e)
    return {form: tuple(found) for form, found in by_first.items()}
