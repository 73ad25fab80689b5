"""Recognising a reply that repeats itself (docs/models.md, "Loops")."""

from __future__ import annotations

import re

LOOP_MIN_TOKENS = 20
"""A loop: the same span of at least this many tokens ..."""
LOOP_REPEATS = 3
"""... repeated this many times in a row at the end of the reply."""
LOOP_MAX_SPAN = 600
"""Longest span looked for (tokens); longer repetitions end at num_predict anyway."""
LOOP_CHECK_CHARS = 96
"""Look for a loop each time the reply grew by this many characters."""
_TOKEN = re.compile(r"\w+|[^\w\s]")


def find_loop(text: str, min_tokens: int = LOOP_MIN_TOKENS, repeats: int = LOOP_REPEATS) -> bool:
    """True when ``text`` ends in the same span of >= ``min_tokens`` tokens ``repeats`` times in a
    row. Tokens are words and single punctuation marks (whitespace ignored), a model-independent
    stand-in for the model's own tokens (one of them is usually shorter than a word)."""
    tokens = _TOKEN.findall(text)
    n = len(tokens)
    for span in range(min_tokens, min(LOOP_MAX_SPAN, n // repeats) + 1):
        last = tokens[-1]
        if any(tokens[-1 - k * span] != last for k in range(1, repeats)):
            continue
        tail = tokens[n - span :]
        if all(tokens[n - (k + 1) * span : n - k * span] == tail for k in range(1, repeats)):
            return True
    return False
