"""Untrusted text, shown literally (docs/design.md#the-app): never parsed as markup, escape sequences
made visible.

Document, fact, observation and answer strings come from corpora and models. Rendering them through
``rich.text.Text(...)`` (never ``Text.from_markup`` or a plain ``str`` handed to a widget that parses
markup) keeps ``[bold]`` and ``[link=...]`` as the characters they are; control characters (ESC,
BEL, carriage returns, bidi overrides...) are replaced by their visible ``\\x..``/``\\u....`` form so
a document cannot move the cursor, recolour the terminal or hide text.
"""

from __future__ import annotations

from rich.text import Text

from engine.untrusted import visible

__all__ = ["visible", "literal", "one_line"]


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
