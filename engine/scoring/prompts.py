"""Judge and answer prompts: text files in engine/prompts, turned into chat messages here.

Document-derived text (facts, answers, expected values) is untrusted: it always goes inside tags,
and every system prompt says that tagged text is data, not instructions.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from seorap.engine.errors import UsageError

PROMPTS = Path(__file__).resolve().parents[1] / "prompts"
JUDGE_PROMPTS = ("strict", "lenient")


@cache
def load(name: str) -> str:
    path = PROMPTS / f"{name}.txt"
    if not path.exists():
        raise FileNotFoundError(
            f"no prompt file {path}; available: "
            f"{', '.join(p.stem for p in sorted(PROMPTS.glob('*.txt')))}"
        )
    return path.read_text(encoding="utf-8")


def version(name: str) -> str:
    """``NAME@sha8`` of a prompt file's text: stored with each verdict, so a re-score after the
    prompt changed is visible as such."""

    return f"{name}@{hashlib.sha256(load(name).encode('utf-8')).hexdigest()[:8]}"


MAX_PROMPT_BYTES = 256 * 1024


def judge_prompt(prompt: str) -> str:
    """The system text of a judge prompt: ``strict``/``lenient`` (engine/prompts/judge_*.txt) or a
    prompt file named by the user (its path). A missing or unreadable file is a UsageError."""
    if prompt in JUDGE_PROMPTS:
        return load(f"judge_{prompt}")
    return _prompt_file(prompt)


@cache
def _prompt_file(path: str) -> str:
    file = Path(path)
    try:
        if not file.is_file():
            raise UsageError(
                f"judge prompt {path!r}: not {' or '.join(JUDGE_PROMPTS)} and no such file"
            )
        if file.stat().st_size > MAX_PROMPT_BYTES:
            raise UsageError(f"judge prompt file {path}: larger than 256 kB")
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(
            f"judge prompt file {path}: cannot read it ({exc.__class__.__name__})"
        ) from exc
    if not text.strip():
        raise UsageError(f"judge prompt file {path}: empty")
    return text


def judge_prompt_version(prompt: str) -> str:
    """``judge_strict@sha8`` for a bundled prompt, ``<file name>@sha8`` for a prompt file."""

    if prompt in JUDGE_PROMPTS:
        return version(f"judge_{prompt}")
    digest = hashlib.sha256(judge_prompt(prompt).encode("utf-8")).hexdigest()[:8]
    return f"{Path(prompt).name}@{digest}"


def judge_prompt_label(prompt: str) -> str:
    """A short name of a prompt for judge names: ``strict`` or the file's stem."""
    return prompt if prompt in JUDGE_PROMPTS else Path(prompt).stem


def escape(text: str) -> str:
    """Keep data from closing its own tag."""
    return text.replace("<", "‹").replace(">", "›")


def judge_answer_messages(prompt: str, question: str, expected: str, answer: str) -> list[dict]:
    user = (
        "Grade the ANSWER to the QUESTION against the EXPECTED answer.\n"
        f"<question>{escape(question)}</question>\n"
        f"<expected>{escape(expected)}</expected>\n"
        f"<answer>{escape(answer)}</answer>"
    )
    return [
        {"role": "system", "content": judge_prompt(prompt)},
        {"role": "user", "content": user},
    ]


def judge_claim_messages(prompt: str, claim: str, facts: list[str]) -> list[dict]:
    listed = "\n".join(f'<fact n="{i}">{escape(t)}</fact>' for i, t in enumerate(facts, 1))
    user = (
        "The FACTS are what a memory store holds. Grade whether the facts, taken together, state the "
        "EXPECTED claim.\n"
        f"<expected>{escape(claim)}</expected>\n"
        f"<facts>\n{listed}\n</facts>"
    )
    return [
        {"role": "system", "content": judge_prompt(prompt)},
        {"role": "user", "content": user},
    ]


def answer_messages(question: str, context: list[str], *, kind: str = "facts") -> list[dict]:
    """The answerer's messages: retrieved facts (or documents) as delimited untrusted data."""
    tag = "fact" if kind == "facts" else "document"
    listed = "\n".join(f'<{tag} n="{i}">{escape(t)}</{tag}>' for i, t in enumerate(context, 1))
    system = load("answer")
    user = f"<{tag}s>\n{listed}\n</{tag}s>\n<question>{escape(question)}</question>"
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]
