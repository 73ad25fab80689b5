"""Text lines that fit the terminal: wrapped by cell width (a Hangul syllable takes two cells), with
a hanging indent, so a wrapped Korean sentence never falls back to column 0 and a CI log at 80
columns reads line by line."""

from __future__ import annotations

import re

from rich.cells import cell_len, get_character_cell_size


def _split_long(word: str, width: int) -> list[str]:
    """``word`` cut into pieces of at most ``width`` cells (a word wider than a line)."""
    pieces, current, used = [], "", 0
    for ch in word:
        size = get_character_cell_size(ch)
        if current and used + size > width:
            pieces.append(current)
            current, used = "", 0
        current += ch
        used += size
    return pieces + ([current] if current else [])


def hang(text: str, width: int, indent: int | None = None) -> list[str]:
    """``text`` wrapped at spaces (runs of spaces kept inside a line) into lines of at most ``width`` cells. The first line keeps the
    text's own leading spaces; every further line starts ``indent`` spaces in (default: the leading
    spaces plus four). A word wider than a line is cut by cells."""
    body = text.lstrip(" ")
    lead = len(text) - len(body)
    more = lead + 4 if indent is None else indent
    width = max(width, more + 8)  # a terminal narrower than that still gets some text per line
    lines: list[str] = []
    current = " " * lead
    fresh = True  # nothing but indentation on the current line
    for match in re.finditer(r"( *)([^ ]+)", body):
        gap, word = ("", match[2]) if fresh else (match[1], match[2])
        if cell_len(current + gap + word) <= width:
            current += gap + word
            fresh = False
            continue
        if not fresh:
            lines.append(current)
            current, fresh = " " * more, True
        room = width - cell_len(current)
        if cell_len(word) <= room:
            current += word
            fresh = False
            continue
        first = _split_long(word, room)[0]
        pieces = _split_long(word[len(first) :], width - more)
        lines.append(current + first)
        lines += [" " * more + p for p in pieces[:-1]]
        current, fresh = " " * more + pieces[-1], False
    lines.append(current)
    return lines


def hang_all(lines: list[str], width: int) -> list[str]:
    """Every line of ``lines`` wrapped with ``hang``."""
    return [piece for line in lines for piece in hang(line, width)]
