"""Judges: grade an answer against the expected answer, or a store against an expected claim.

Two implementations behind one small interface:

- :class:`LexicalJudge` (offline, deterministic): typed values, polarity and hedge markers and noun
  recall (engine/scoring/lexical/; every rule in docs/metrics.md). Its rationale names the rule
  that decided.
- :class:`LLMJudge`: a model through :meth:`ModelClient.structured` with a prompt file
  (``judge_strict`` default, ``judge_lenient`` to show what a lenient grader passes). The verdict
  word must be exactly YES, PARTIAL or NO (engine.scoring.verdict.parse_label: ``INCORRECT`` or
  ``NOT YES`` is never a pass); a reply that is not JSON still counts when it is one verdict word
  or has one ``verdict: X`` line. Anything else, and any reply cut at the token limit, is an
  UNPARSEABLE verdict, never NO.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol

from seorap.engine.config import Config
from seorap.engine.errors import UsageError
from seorap.engine.scoring import lexical, prompts
from seorap.engine.scoring.glossary import Glossary
from seorap.engine.scoring.lexical import abbrev
from seorap.engine.scoring.verdict import JudgeReply, Verdict, parse_free_text

if TYPE_CHECKING:
    from seorap.engine.models.client import ModelClient


class Judge(Protocol):
    name: str
    """Identifies the judge and its setup (stored with every verdict)."""
    rules: str
    """The version of the rules (lexical) or of the prompt text (model) behind its verdicts."""

    def grade_answer(
        self,
        question: str,
        expected: str,
        answer: str,
        *,
        expected_date: date | None = None,
        answer_date: date | None = None,
    ) -> Verdict:
        """``expected_date``/``answer_date``: the dates relative dates in each are read against
        (the expected answer's state document; the answer as of the trajectory's last document)."""
        ...

    def grade_claim(
        self,
        claim: str,
        facts: list[str],
        *,
        claim_date: date | None = None,
        fact_dates: Sequence[date | None] | None = None,
    ) -> Verdict:
        """Do the facts (together) state the claim? No facts -> NO without asking anyone.
        ``claim_date``: its state document's date; ``fact_dates``: each fact's source document's."""


NO_FACTS = Verdict("NO", "no candidate facts reached the judge")

_BEST = re.compile(r"best of \d+ fact\(s\) is #(\d+)")
_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
"""Subscript digits read as digits (CO₂ = CO2, PM₂.₅ = PM2.5; lexical-39): one character for one,
so every span the rules report stays where it was."""


def credited_index(rationale: str) -> int | None:
    """0-based index of the fact a lexical claim verdict graded (its rationale says ``best of N
    fact(s) is #i``); None for rationales that name no fact (model judges)."""
    match = _BEST.search(rationale)
    return None if match is None else int(match.group(1)) - 1


class LexicalJudge:
    """Offline judge. Answers: the hedge rule applies; claims: the best single fact counts.

    ``prompt="lenient"`` switches to the lenient rules (lexical.grade_lenient) and names the judge
    ``lexical/lenient``; the strict default keeps the short name ``lexical``.
    """

    def __init__(self, prompt: str = "strict", glossary: Glossary | None = None) -> None:
        if prompt not in prompts.JUDGE_PROMPTS:
            raise UsageError(
                f"judge prompt {prompt!r}: the lexical judge takes "
                f"{' or '.join(prompts.JUDGE_PROMPTS)} (a prompt file is for a model judge)"
            )
        self.prompt = prompt
        self.name = "lexical" if prompt == "strict" else f"lexical/{prompt}"
        self.rules = lexical.RULES_VERSION
        self.glossary = glossary or Glossary()
        """Same-meaning names (engine/scoring/glossary.py): each alias is read as its first name,
        and a verdict that used one says so."""

    def _aliased(self, *texts: str) -> tuple[list[str], str]:
        """The texts with every glossary alias read as its first name; then the first two (the
        expected statement and the candidate) with an abbreviation of a name of one in the other
        written out (lexical/abbrev.py). The note says which were used."""
        out, used = [], []
        for text in texts:
            new, pairs = self.glossary.apply(text.translate(_SUBSCRIPTS))
            out.append(new)
            used += pairs
        seen = dict.fromkeys(f"{a} = {b}" for a, b in used)
        note = f" (alias: {'; '.join(seen)})" if seen else ""
        if self.prompt == "strict" and len(out) >= 2:
            reserved = self.glossary.canonical
            out[1], shorter = abbrev.expand(out[0], out[1], reserved, tails=True)
            out[0], longer = abbrev.expand(out[1], out[0], reserved)
            if shorter or longer:
                note += f" (abbreviation: {'; '.join(shorter + longer)})"
        return out, note

    def _grade(self, match: lexical.Match, *, check_hedge: bool) -> lexical.Graded:
        if self.prompt == "lenient":
            return lexical.grade_lenient(match)
        return lexical.grade(match, check_hedge=check_hedge)

    def grade_answer(
        self,
        question: str,
        expected: str,
        answer: str,
        *,
        expected_date: date | None = None,
        answer_date: date | None = None,
    ) -> Verdict:
        (expected, answer, question), alias = self._aliased(expected, answer, question or "")
        match = lexical.measure(
            expected,
            answer,
            question or None,
            expected_date,
            answer_date,
            account=self.prompt == "strict",
            neutral=self.glossary.neutral,
        )
        label, why = self._grade(match, check_hedge=True)
        return Verdict(label, why + alias)

    def grade_claim(
        self,
        claim: str,
        facts: list[str],
        *,
        claim_date: date | None = None,
        fact_dates: Sequence[date | None] | None = None,
    ) -> Verdict:
        if not facts:
            return NO_FACTS
        rank = {"YES": 2, "PARTIAL": 1, "NO": 0}
        best_key: tuple[int, Fraction, int] | None = None
        best = NO_FACTS
        dates = list(fact_dates) if fact_dates is not None else [None] * len(facts)
        for i, original in enumerate(facts, 1):
            (claim_text, text), alias = self._aliased(claim, original)
            match = lexical.measure(claim_text, text, None, claim_date, dates[i - 1])
            label, why = self._grade(match, check_hedge=False)
            why += alias
            key = (rank[label], match.recall, -i)
            if best_key is None or key > best_key:
                best_key, best = key, Verdict(label, f"best of {len(facts)} fact(s) is #{i}: {why}")
        return best


class LLMJudge:
    """A model judge; ``prompt`` names engine/prompts/judge_<prompt>.txt."""

    def __init__(
        self, client: ModelClient, model: str, prompt: str = "strict", *, phase: str = "judge"
    ) -> None:
        prompts.judge_prompt(prompt)  # fail early on an unknown prompt or an unreadable file
        self.client = client
        self.model = model
        self.prompt = prompt
        self.phase = phase
        self.name = f"{model}/{prompts.judge_prompt_label(prompt)}"
        self.rules = prompts.judge_prompt_version(prompt)

    def grade_answer(
        self,
        question: str,
        expected: str,
        answer: str,
        *,
        expected_date: date | None = None,
        answer_date: date | None = None,
    ) -> Verdict:
        """The dates are not sent: the prompt texts (and so their versions) stay unchanged."""
        return self._ask(prompts.judge_answer_messages(self.prompt, question, expected, answer))

    def grade_claim(
        self,
        claim: str,
        facts: list[str],
        *,
        claim_date: date | None = None,
        fact_dates: Sequence[date | None] | None = None,
    ) -> Verdict:
        if not facts:
            return NO_FACTS
        return self._ask(prompts.judge_claim_messages(self.prompt, claim, facts))

    def _ask(self, messages: list[dict]) -> Verdict:
        out = self.client.structured("judge", self.model, messages, JudgeReply, phase=self.phase)
        if out.value is None:
            cut = bool(out.failure and out.failure.startswith("cut"))
            free = None if cut else parse_free_text(out.raw or "")
            if free is not None:  # not the JSON asked for, but one unambiguous verdict word
                label, why = free
                return Verdict(label, f"(free-text reply) {why}".strip(), out.call_key, out.cached)
            return Verdict(
                "UNPARSEABLE", f"unparseable judge output: {out.failure}", out.call_key, out.cached
            )
        return Verdict(out.value.verdict, out.value.rationale, out.call_key, out.cached)


def make_judge(
    config: Config,
    client: ModelClient | None = None,
    *,
    prompt: str | None = None,
    glossary: Glossary | None = None,
) -> Judge:
    """The judge named by ``config.models.judge`` (``lexical`` or a model name); ``glossary``: the
    corpus's same-meaning names, read by the lexical judge (a model judge knows its own)."""
    model = config.models.judge
    if model == "lexical":
        return LexicalJudge(prompt or config.judging.prompt, glossary)
    if client is None:
        raise ValueError(f"judge model {model!r} needs a ModelClient")
    return LLMJudge(client, model, prompt or config.judging.prompt)
