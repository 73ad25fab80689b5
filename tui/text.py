"""Untrusted text, shown literally (docs/design.md#the-app): never parsed as markup, escape sequences
made visible.

Document, fact, observation and answer strings come from corpora and models. Rendering them through
``rich.text.Text(...)`` (never ``Text.from_markup`` or a plain ``str`` handed to a widget that parses
markup) keeps ``[bold]`` and ``[link=...]`` as the characters they are; control characters (ESC,
BEL, carriage returns, bidi overrides...) are replaced by their visible ``\\x..``/``\\u....`` form so
a document cannot move the cursor, recolour the terminal or hide text.
"""

from __future__ import annotations

from difflib import SequenceMatcher
from functools import partial

from rich.text import Text

from seorap.engine.fmt import interval
from seorap.engine.untrusted import visible

__all__ = ["visible", "literal", "one_line", "ci"]

ci = partial(interval, short=True)
"""A figure and its interval as the app's narrow panes write them, n printed beside: the report's
formatter (engine.fmt.interval), a range without its word and n."""


def literal(value: object, style: str = "") -> Text:
    """A rich Text holding ``value`` literally (no markup), with escapes made visible."""
    return Text(visible(value), style=style)


def one_line(value: object, width: int | None = None, style: str = "") -> Text:
    """Literal text on one line (newlines shown as ⏎), cut to ``width`` cells with an ellipsis."""
    text = literal(str(value).replace("\n", " ⏎ "), style)
    if width is not None and text.cell_len > width:
        text.truncate(width, overflow="ellipsis")
    return text


def score(value: float | None, digits: int = 2) -> Text:
    """A score cell: the number, or a dim dash when not scored."""
    if value is None:
        return Text("—", style="dim")
    return Text(f"{value:.{digits}f}")


def shared_start(texts: list[str], min_chars: int = 6) -> str:
    """The longest run of whole leading words every text shares (with its trailing space), when
    there are ≥ 2 texts, it is ≥ ``min_chars`` long and no text is only that: '다온헬스케어 진료 데이터 '
    for five backup facts. Tables show the rest ('…백업 보관 기간은 5년') so the rows differ."""
    if len(texts) < 2:
        return ""
    words = [t.split(" ") for t in texts]
    n = 0
    while all(len(w) > n + 1 for w in words) and len({w[n] for w in words}) == 1:
        n += 1
    start = " ".join(words[0][:n]) + " " if n else ""
    return start if len(start) >= min_chars else ""


def without_start(text: str, start: str) -> str:
    """``text`` with a shared start (from :func:`shared_start`) replaced by '…'."""
    return "…" + text[len(start) :] if start and text.startswith(start) else text


def word_diff(before: str, after: str) -> tuple[Text, Text]:
    """(before, after) as literal Texts with the words only one side has highlighted: removed words
    red and struck through, added words bold green; shared words plain."""
    a, b = before.split(" "), after.split(" ")
    old, new = Text(), Text()
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            old.append_text(literal(" ".join(a[i1:i2]) + " "))
            new.append_text(literal(" ".join(b[j1:j2]) + " "))
            continue
        if i2 > i1:
            old.append_text(literal(" ".join(a[i1:i2]), "bold red strike"))
            old.append(" ")
        if j2 > j1:
            new.append_text(literal(" ".join(b[j1:j2]), "bold green"))
            new.append(" ")
    old.rstrip()
    new.rstrip()
    return old, new
