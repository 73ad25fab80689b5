"""Split Korean (and English) text into sentences: the `raw` system and the stand-in extractor."""

from __future__ import annotations

import re

# End of a sentence: . ! ? or … followed by space/end, or a line break. Korean sentences end in
# '다.' / '요.' mostly, but a bulleted line ("- 백엔드: 3명") is a unit of its own too.
_BREAK = re.compile(r"(?<=[.!?。…])\s+|\n+")
_BULLET = re.compile(r"^\s*(?:[-*•·]|\d+[.)]|\[\d{1,2}:\d{2}\])\s*")


def split_sentences(text: str, min_chars: int = 4) -> list[str]:
    """Sentences in order, stripped of bullets; fragments shorter than ``min_chars`` dropped."""
    out: list[str] = []
    for piece in _BREAK.split(text):
        piece = _BULLET.sub("", piece).strip()
        if len(piece) >= min_chars:
            out.append(piece)
    return out
