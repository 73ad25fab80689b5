"""Judge and answer prompts: text files in engine/prompts, turned into chat messages here.

Document-derived text (facts, answers, expected values) is untrusted: it always goes inside tags,
and every system prompt says that tagged text is data, not instructions.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

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
    import hashlib

    return f"{name}@{hashlib.sha256(load(name).encode('utf-8')).hexdigest()[:8]}"


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
        {"role": "system", "content": load(f"judge_{prompt}")},
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
        {"role": "system", "content": load(f"judge_{prompt}")},
        {"role": "user", "content": user},
    ]


def answer_messages(question: str, context: list[str], *, kind: str = "facts") -> list[dict]:
    """The answerer's messages: retrieved facts (or documents) as delimited untrusted data."""
    tag = "fact" if kind == "facts" else "document"
    listed = "\n".join(f'<{tag} n="{i}">{escape(t)}</{tag}>' for i, t in enumerate(context, 1))
    system = load("answer")
    user = f"<{tag}s>\n{listed}\n</{tag}s>\n<question>{escape(question)}</question>"
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]
