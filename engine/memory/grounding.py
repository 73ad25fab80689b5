"""Is an extracted observation grounded in its document? (docs/models.md, "Grounding")

A small model writes observations that use only the document's words and still carry no fact of
it: the real 0.5B model turned the document's "09:31 차은호 (플랫폼팀장)" into 114 observations like
"19:31 차은호 (플랫폼팀장)" — every word in the document, the time not. So an observation is
*ungrounded* when

- a **value** it states does not occur in the document: a number, time, date or amount (digit
  runs with their separators and unit, compared with the document's without spaces or thousands
  separators: "4,200만" = "4200만"), or a **name** (a Latin word with a capital, or what looks
  like a Hangul person's name — three syllables after a particle is dropped, a common surname
  first, no verb ending last — that the document does not contain); or
- none of its **content words** (words of two characters or more that are not bare numbers) is a
  document word or shares its stem with one (Korean words carry particles and endings: the first
  two syllables; four letters of a Latin word).

:func:`ungrounded` says why, in a few words, or returns None. It is a cheap, conservative lexical
check: a paraphrase with new words but the same values passes, and it never calls a model.
"""

from __future__ import annotations

import re
from functools import lru_cache

_VALUE = re.compile(r"\d+(?:[.,:/\-]\d+)*[%년월일시분초원만억천개명회차주]?")
_WORD = re.compile(r"\w+")
_LATIN_NAME = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)*\b")
_PARTICLES = (
    "에게서",
    "께서",
    "에게",
    "한테",
    "님이",
    "님은",
    "님의",
    "님",
    "씨",
    "이",
    "가",
    "은",
    "는",
    "을",
    "를",
    "의",
    "와",
    "과",
    "도",
    "만",
)
_VERB_ENDINGS = frozenset("다요고며서게지면니까음함됨")
SURNAMES = frozenset(
    "김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민진나지엄채원천방공현함변염여추도소석선설마길연위표명기반왕금옥육인맹제모탁국어은편용예경봉사부"
)


def _squash(text: str) -> str:
    return re.sub(r"(?<=\d),(?=\d{3})", "", re.sub(r"\s+", "", text))


def values(text: str) -> list[str]:
    """Numbers, times, dates and amounts stated in ``text`` (as written)."""
    return [m.group().strip() for m in _VALUE.finditer(text)]


def names(text: str) -> list[str]:
    """Words that look like names: capitalised Latin words, Hangul surname + 1-2 syllables."""
    out = _LATIN_NAME.findall(text)
    for word in _WORD.findall(text):
        stem = _strip_particle(word)
        if (
            len(stem) == 3
            and _hangul(stem)
            and stem[0] in SURNAMES
            and stem[-1] not in _VERB_ENDINGS
        ):
            out.append(stem)
    return out


def _strip_particle(word: str) -> str:
    for p in _PARTICLES:
        if word.endswith(p) and len(word) - len(p) >= 2:
            return word[: -len(p)]
    return word


def _hangul(word: str) -> bool:
    return all("\uac00" <= ch <= "\ud7a3" for ch in word)


def _stem(word: str) -> str:
    """The part two words must share to count as one: two Hangul syllables (a Korean word's stem
    before its particle or ending), else four letters."""
    return word[:2] if _hangul(word[:2]) else word[:4]


def _in_words(word: str, known: frozenset[str]) -> bool:
    if word in known:
        return True
    stem = _stem(word)
    return len(stem) >= 2 and any(k.startswith(stem) for k in known)


@lru_cache(maxsize=8)
def _document(document: str) -> tuple[str, frozenset[str]]:
    """A document squashed and its words, read once for all its observations (the stepper checks
    ~60 per step of a real-shaped run: 0.9 ms each when the document was read every time)."""
    return _squash(document), frozenset(w for w in _WORD.findall(document) if not w.isdigit())


def ungrounded(text: str, document: str) -> str | None:
    """Why ``text`` is not grounded in ``document`` (a few words), or None when it is."""
    squashed, doc_words = _document(document)
    for value in values(text):
        if _squash(value) not in squashed:
            return f"the value {value!r} is not in the document"
    for name in names(text):
        if name not in document:
            return f"the name {name!r} is not in the document"
    content = [w for w in _WORD.findall(text) if len(w) >= 2 and not w.isdigit()]
    if content and not any(_in_words(w, doc_words) for w in content):
        return "none of its words is in the document"
    return None
