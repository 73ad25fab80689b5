"""Every error a user can meet, in one hierarchy.

An error's ``str()`` is what the user reads: one sentence that names the problem, where it is
(``FILE:LINE:`` when there is a place) and, when there is one, the fix. Its class decides the exit
code; the command line maps classes to codes in exactly one place (``cli/main.py``), the app shows
the sentence. Anything that is not a ``SeorapError`` is a bug: the command line writes its traceback
to a log file and exits 70.

Exit codes (docs/cli.md has the same table):

====  ==========================================================================================
0     done
1     the input has problems the command reports (``validate``, a corpus or config that fails)
2     cannot proceed (no server, model missing, foreign or locked database, bad flag value)
70    internal error (a bug: one sentence plus the log file holding the traceback)
130   interrupted (Ctrl+C; a run is marked ``cancelled`` and the same command resumes it)
====  ==========================================================================================
"""

from __future__ import annotations

import errno

EXIT_OK = 0
EXIT_INPUT = 1
EXIT_CANNOT_PROCEED = 2
EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130


class SeorapError(Exception):
    """Base of every error meant for the user. Default: the command cannot proceed (exit 2)."""

    exit_code = EXIT_CANNOT_PROCEED


# ---- exit 1: the input has problems ----------------------------------------------------------------


class InputProblems(SeorapError):
    """The input was read and has problems; ``problems`` lists each, located (exit 1).
    ``summary`` is the closing sentence printed after the list."""

    exit_code = EXIT_INPUT

    def __init__(
        self, message: str, problems: list | None = None, summary: str | None = None
    ) -> None:
        self.problems = list(problems or [])
        self.summary = summary or message
        super().__init__(message)


class CorpusError(InputProblems):
    """The corpus is invalid; ``problems`` holds every located problem."""

    def __init__(self, problems: list) -> None:
        lines = "\n".join(str(p) for p in problems[:20])
        more = f"\n... and {len(problems) - 20} more" if len(problems) > 20 else ""
        noun = "problem" if len(problems) == 1 else "problems"
        super().__init__(
            f"invalid corpus ({len(problems)} {noun}):\n{lines}{more}",
            problems,
            f"invalid corpus: {len(problems)} {noun} (listed above); nothing was written.",
        )


class ConfigError(InputProblems):
    """A config or variant file is invalid: ``FILE:LINE: key: message``."""

    def __init__(self, message: str) -> None:
        super().__init__(message, [message])


# ---- exit 2: cannot proceed ------------------------------------------------------------------------


class UsageError(SeorapError, ValueError):
    """A flag value, a setting or a name the command cannot use (exit 2). Also a ``ValueError``, so
    code that validates a value may catch either."""


class UnknownSystem(UsageError):
    """No reference system or variant has this name; the message lists the known ones."""


class NoSuggestedThreshold(UsageError):
    """``--threshold auto`` found no threshold that separates matched from unmatched pairs."""


class NothingToReplay(UsageError):
    """A replay was asked of a run that made no model call (a reference system, or the offline
    stand-in model)."""


class StoreError(SeorapError):
    """The run database cannot be used as asked: foreign, corrupt, locked, read-only (exit 2)."""


class ModelError(SeorapError):
    """A model problem the user must fix; ``str()`` is one sentence naming the fix (exit 2)."""


class ModelUnavailable(ModelError):
    """The server cannot be reached."""


class ModelMissing(ModelError):
    """The server answered that the model is not there."""


class ReplayMiss(ModelError):
    """--replay asked for a call that is not in the log."""


class BadHost(ModelError):
    """OLLAMA_HOST, the config's host or --host is not a usable URL."""


class NotOllama(ModelError):
    """Something answered at the host, but not Ollama's API."""


class ModelTimeout(ModelError):
    """No first chunk within first_token_s, or silence longer than timeout_s mid-reply, on every
    attempt."""


# ---- exit 130: interrupted ------------------------------------------------------------------------


class RunCancelled(SeorapError):
    """The run was cancelled (Ctrl+C or the app): finished documents are saved and the same command
    resumes the rest."""

    exit_code = EXIT_INTERRUPTED


def why(exc: OSError) -> str:
    """What an OSError means to the user, in a few words."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "the disk is full"
    if exc.errno == errno.EFBIG:
        return "the file is larger than this shell allows (a file size limit, `ulimit -f`)"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if exc.errno == errno.EROFS:
        return "the file system is read-only"
    if exc.errno == errno.ENOENT:  # the system's words say "directory"; ours say "folder"
        return "no such file or folder"
    if exc.errno == errno.EISDIR:
        return "it is a folder"
    if exc.errno == errno.ENOTDIR:
        return "a part of the path is not a folder"
    return exc.strerror or str(exc)
