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


# Document furniture rather than statements: mail/minutes/ticket headers ("받는 사람: …"), Slack
# speaker lines ("09:31 차은호 (플랫폼팀장)"), section intros ending in ':' and short fragments.
HEADER_LABELS = frozenset(
    [
        "받는 사람",
        "보낸 사람",
        "수신",
        "발신",
        "참조",
        "제목",
        "일시",
        "날짜",
        "시간",
        "장소",
        "참석자",
        "작성자",
        "작성",
        "상태",
        "우선순위",
        "담당자",
        "담당",
        "보고자",
        "라벨",
        "유형",
        "분류",
        "채널",
        "기간",
        "관련 티켓",
        "티켓",
    ]
)
_SPEAKER = re.compile(r"^\d{1,2}:\d{2}\s+\S+(\s*\([^)]*\))?\s*$")
_TIME = re.compile(r"\d{1,2}:\d{2}")
_ENDINGS = ("다.", "요.", "다", "요", ".", "!", "?")
_LABEL = re.compile(r"^([^:：]{1,8})\s*[:：]")


def is_statement(sentence: str, min_chars: int = 12) -> bool:
    """True for a sentence that states something; False for headers, speaker lines, fragments."""
    s = sentence.strip()
    if len(s) < min_chars or s.endswith((":", "：")) or s.startswith("#") or _SPEAKER.match(s):
        return False
    if len(s) <= 40 and _TIME.search(s) and not s.endswith(_ENDINGS):  # "배준호 (…) 오전 9:50"
        return False
    label = _LABEL.match(s)
    return not (label and label.group(1).strip() in HEADER_LABELS)


def statements(text: str) -> list[str]:
    """The sentences of ``text`` that state something (the stand-in extractor's observations)."""
    return [s for s in split_sentences(text) if is_statement(s)]
