"""Ids are names, never paths.

A run id, a trajectory id, a document id, a system's name or a label comes from a corpus, a
database or the command line: a stranger may have written it. Where one becomes part of a file
name it goes through :func:`component`, which refuses what a path would read as a place (empty,
``.``, ``..``, a ``/`` or ``\\``, NUL or another control character) and then spells it the way
seorap always has (every run of characters other than letters, digits, ``.``, ``+``, ``-`` becomes
one ``-``), so the folders earlier versions made keep their names.

Every removal and every creation under one of our folders goes through :func:`remove_tree`,
:func:`unlink` or :func:`make_dirs`, which resolve the path (links followed) and refuse anything
that is not strictly inside the folder that owns it (``<db>.mem0/<run>/`` for a trajectory's
store): a name that slipped past every check still cannot reach the user's other files.
"""

from __future__ import annotations

import os
import re
import shutil
import unicodedata
from pathlib import Path

from seorap.engine.errors import SeorapError
from seorap.engine.untrusted import visible

_SPELLING = re.compile(r"[^\w.+-]+")
MAX_NAME_BYTES = 255
"""The longest file name most file systems take (ext4, APFS, NTFS in UTF-16 units)."""


class UnsafeName(SeorapError):
    """An id that cannot name a file or folder (exit 2); ``problem`` says why, in a few words."""

    def __init__(self, message: str, problem: str) -> None:
        self.problem = problem
        super().__init__(message)


class OutsideFolder(SeorapError):
    """A removal or creation that would reach outside the folder that owns it (exit 2)."""


def name_problem(text: object, *, stored: bool = False) -> str | None:
    """Why ``text`` cannot be a name (a few words), None when it can. ``stored``: a run id an earlier
    version made, whose label (after ``~``) was not checked then: a separator in the label is not
    a problem, the spelling turns it into ``-`` as it did when the folder was made. Before the
    ``~`` (the part seorap wrote itself) a separator is damage, as everywhere."""
    if not isinstance(text, str):
        return f"it is {type(text).__name__}, not text"
    if not text:
        return "it is empty"
    if text in (".", ".."):
        return f"{text!r} names a folder by its place"
    label_at = text.find("~") if stored else -1
    for at, ch in enumerate(text):
        if ch in "/\\" and not 0 <= label_at < at:
            return f"it holds the path separator {ch!r}"
        if ch == "\0" or unicodedata.category(ch) == "Cc":
            return f"it holds the control character {visible(ch)}"
    return None


def component(text: str, what: str = "id", *, stored: bool = False) -> str:
    """``text`` as one path component, or :class:`UnsafeName` naming ``what`` it is (``run id``,
    ``trajectory id``). Spelled as earlier versions spelled it (see the module's docstring).
    ``stored``: finding a folder an earlier version made for an id it accepted (a run labelled
    ``a/b`` before labels were checked has its store under ``…-a-b``); never for a new folder."""
    problem = name_problem(text, stored=stored)
    spelled = (_SPELLING.sub("-", text).strip("-") or "x") if problem is None else ""
    if problem is None and spelled in (".", ".."):
        problem = f"it would be spelled {spelled!r}, which names a folder by its place"
    elif problem is None and len(spelled.encode("utf-8")) > MAX_NAME_BYTES:
        problem = f"it is longer than a file name may be ({MAX_NAME_BYTES} bytes)"
    if problem is not None:
        raise UnsafeName(f"the {what} {visible(repr(text))} cannot name a file: {problem}", problem)
    return spelled


def check_inside(path: str | Path, owner: str | Path) -> Path:
    """``path`` resolved (links followed), or :class:`OutsideFolder` when it is not strictly inside
    ``owner`` (resolved too): the owner itself is outside."""
    real = Path(os.path.realpath(path))
    root = Path(os.path.realpath(owner))
    if real == root or root not in real.parents:
        raise OutsideFolder(
            f"refused to touch {visible(str(path))}: it resolves to {visible(str(real))}, which is "
            f"not inside {visible(str(root))}; nothing was changed"
        )
    return real


def remove_tree(path: str | Path, owner: str | Path, *, missing_ok: bool = True) -> None:
    """Remove the folder ``path`` (strictly inside ``owner``) and everything in it. A link in its
    place is removed, never followed; OSError when the file system refuses."""
    check_inside(Path(path).parent / "_", owner)  # the link itself may point anywhere
    if os.path.islink(path):
        os.unlink(path)
        return
    check_inside(path, owner)
    if not os.path.lexists(path):
        if missing_ok:
            return
        raise FileNotFoundError(2, "no such file or folder", str(path))
    shutil.rmtree(path)


def unlink(path: str | Path, owner: str | Path, *, missing_ok: bool = True) -> None:
    """Remove the file ``path`` (a link: the link), which must be strictly inside ``owner``."""
    check_inside(Path(path).parent / "_", owner)
    try:
        os.unlink(path)
    except FileNotFoundError:
        if not missing_ok:
            raise


def make_dirs(path: str | Path, owner: str | Path) -> Path:
    """Create the folder ``path`` (and its parents) strictly inside ``owner``; returns it."""
    check_inside(path, owner)
    Path(path).mkdir(parents=True, exist_ok=True)
    check_inside(path, owner)  # a link swapped in meanwhile is caught before anything is written
    return Path(path)
