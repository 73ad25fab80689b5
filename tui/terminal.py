"""Terminal settings the app starts with, set the public way before Textual loads.

Esc: a terminal sends the Esc key as one byte, ESC, which also begins every escape sequence (an
arrow is ESC [ A, Alt+x is ESC x). Textual's input parser, having read a lone ESC, waits
``textual.constants.ESCAPE_DELAY`` for more bytes before it reports Esc; that wait is read once,
when Textual is imported, from the environment variable ESCDELAY (milliseconds; Textual's default
100). Every Esc (closing a search, help, back) waited those 100 ms before the app saw it.

The wait only matters when a sequence's bytes arrive in separate reads: a terminal writes a key's
sequence in one write, and ssh carries that write in one packet, so a split needs the bytes to
cross the link in two packets (a terminal or relay that writes byte by byte). A split longer than
the wait turns an arrow into Esc then "[A" typed, or Alt+x into Esc then x. seorap waits
ESC_DELAY_MS: the Esc timeout Neovim ships with (ttimeoutlen=50); tmux waits 10 ms since 3.5.
Terminals with the kitty keyboard protocol (kitty, foot, WezTerm, Ghostty) send Esc unambiguously
and no wait applies. A user's own ESCDELAY (e.g. ESCDELAY=150 over a link that splits keys) is
kept as it is (docs/design.md, "Keys and the terminal").
"""

from __future__ import annotations

import os

ESC_DELAY_MS = 50
"""Milliseconds Textual waits after a lone ESC for the rest of a sequence (Textual's own: 100)."""


def set_escape_delay() -> str:
    """Set ESCDELAY to ESC_DELAY_MS unless the user has set it; call before Textual is imported
    (it reads the variable once). Returns the value in effect."""
    return os.environ.setdefault("ESCDELAY", str(ESC_DELAY_MS))
