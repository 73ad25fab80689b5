"""Aliases as data: a glossary of names that mean one thing (a transliteration, an abbreviation, a
Hanja form), read by the lexical judge and the reference reader (docs/corpus-format.md).

A corpus carries it as ``glossary.tsv`` beside its trajectory files; a user can name another file
(``seorap judge --glossary FILE``); a ``neutral.tsv`` beside it extends the judge's neutral lexicon
(engine/scoring/lexical/neutral.tsv, same columns). One thing per line, its names separated by tabs, the first name
the one verdicts use; blank lines and lines starting with ``#`` are skipped::

    Aurora	Amazon Aurora	오로라
    PostgreSQL	Postgres	포스트그레스
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from seorap.engine.errors import UsageError
from seorap.engine.scoring.lexical.lexicon import NEUTRAL_FILE, Entry, load_user

FILE_NAME = "glossary.tsv"
MAX_BYTES = 1024 * 1024


@dataclass(frozen=True)
class Glossary:
    canonical: dict[str, str] = field(default_factory=dict)
    """alias (lower-cased) -> the first name of its line."""
    source: str = ""
    neutral: tuple[Entry, ...] = ()
    """The user's neutral-lexicon entries: ``neutral.tsv`` beside the glossary (the lexical
    judge's full accounting, engine/scoring/lexical/lexicon.py)."""

    def __bool__(self) -> bool:
        return bool(self.canonical)

    def _pattern(self) -> re.Pattern[str]:
        return _compile(tuple(sorted(self.canonical, key=lambda a: (-len(a), a))))

    def apply(self, text: str) -> tuple[str, list[tuple[str, str]]]:
        """``text`` with every alias replaced by its first name, and the (alias, name) pairs used."""
        if not self.canonical:
            return text, []
        used: list[tuple[str, str]] = []

        def swap(m: re.Match[str]) -> str:
            name = self.canonical[m["name"].lower()]
            if m["name"] != name:
                used.append((m["name"], name))
            return name + _particle(name, m["particle"] or "")

        return self._pattern().sub(swap, text), used


_PAIRS = (("은", "는"), ("이", "가"), ("을", "를"), ("과", "와"))
"""Particles written one way after a closing consonant and another after a vowel (툴은, 도구는)."""


def _particle(name: str, particle: str) -> str:
    """The particle that followed an alias, in the form ``name`` takes (도구 takes 는 where 툴 took
    은), so the morpheme analyser reads it as a particle; after a latin name it stays as written."""
    last = name[-1:]
    if not particle or not "가" <= last <= "힣":
        return particle
    closed = (ord(last) - 0xAC00) % 28 != 0
    for after_consonant, after_vowel in _PAIRS:
        if particle in (after_consonant, after_vowel):
            return after_consonant if closed else after_vowel
    return particle


_CACHE: dict[tuple[str, ...], re.Pattern[str]] = {}


def _compile(aliases: tuple[str, ...]) -> re.Pattern[str]:
    if aliases not in _CACHE:
        parts = []
        for alias in aliases:
            body = re.escape(alias)
            # latin names end at a latin boundary; Korean ones may take a particle after them
            tail = r"(?![A-Za-z0-9])" if alias[-1:].isascii() else ""
            parts.append(rf"(?<![A-Za-z0-9가-힣]){body}{tail}")
        particle = "(?P<particle>(?:은|는|이|가|을|를|과|와)(?![가-힣]))?"
        _CACHE[aliases] = re.compile(f"(?P<name>{'|'.join(parts)}){particle}", re.IGNORECASE)
    return _CACHE[aliases]


def parse(text: str, source: str) -> Glossary:
    """Read a glossary's text; a bad line raises UsageError naming ``source:line``."""
    canonical: dict[str, str] = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        names = [x.strip() for x in line.split("\t") if x.strip()]
        if len(names) < 2:
            raise UsageError(
                f"{source}:{n}: a glossary line needs at least two names separated by tabs"
            )
        for name in names:
            key = name.lower()
            if key in canonical and canonical[key] != names[0]:
                raise UsageError(
                    f"{source}:{n}: {name!r} is already an alias of {canonical[key]!r}"
                )
            canonical[key] = names[0]
    return Glossary(canonical, source)


def for_corpus(root: str | Path) -> Glossary:
    """The glossary beside a corpus's trajectories: ``glossary.tsv`` in its directory (a corpus
    given as one file, or a directory without one: no aliases)."""
    root = Path(root)
    return load(root) if root.is_dir() else Glossary()


def load(path: str | Path) -> Glossary:
    """The glossary at ``path`` (a file, or a corpus directory holding ``glossary.tsv``; none
    there: an empty glossary)."""
    path = Path(path)
    if path.is_dir():
        neutral = load_user(path / NEUTRAL_FILE)
        path = path / FILE_NAME
        if not path.is_file():
            return Glossary(neutral=neutral)
    else:
        neutral = load_user(path.parent / NEUTRAL_FILE)
    try:
        if path.stat().st_size > MAX_BYTES:
            raise UsageError(f"{path}: a glossary larger than 1 MB is not read")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read the glossary ({exc.__class__.__name__})") from exc
    return replace(parse(text, str(path)), neutral=neutral)
