"""Text from corpora and models is untrusted wherever it is shown.

``visible(value)`` replaces every control or format character (ESC, BEL, carriage return, bidi
overrides, ...) by its escaped form (``\\x1b``, ``\\u202e``), so a document cannot move the cursor,
recolour the terminal or hide text when printed. Newlines are kept, tabs become four spaces. The
app and the command line both print untrusted strings through it.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

_KEEP = {"\n"}


def visible(value: object) -> str:
    """The string with every control/format character replaced by its escaped repr."""
    out = []
    for ch in str(value):
        if ch in _KEEP:
            out.append(ch)
        elif ch == "\t":
            out.append("    ")
        elif unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co") or ch in "\u2028\u2029":
            out.append(ch.encode("unicode_escape").decode("ascii"))
        else:
            out.append(ch)
    return "".join(out)


def json_line(value: object, **kwargs: Any) -> str:  # json.dumps's keywords
    """``json.dumps`` with text readable as it is (Hangul stays Hangul) but every control, format
    or bidi character (U+202E, U+200B, ...) written as a JSON escape: the same JSON value, and
    printing it cannot reorder or hide what a terminal shows."""

    return escape_json(json.dumps(value, ensure_ascii=False, **kwargs))


def escape_json(text: str) -> str:
    """JSON text (``json.dumps``'s, pydantic's) with every control, format or bidi character
    written as a JSON escape: the same JSON value, safe to print."""
    out = []
    for ch in text:  # a raw newline is indent's (json.dumps escapes those inside strings)
        if ch != "\n" and (
            unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co") or ch in "\u2028\u2029"
        ):
            code = ord(ch)
            if code > 0xFFFF:  # as a UTF-16 surrogate pair, the way JSON escapes it
                code -= 0x10000
                out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
            else:
                out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)
