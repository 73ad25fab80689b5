"""Answerers: turn retrieved context into an answer (docs/metrics.md).

- :class:`ExtractiveAnswerer` (offline, deterministic): the answer is the retrieved items themselves,
  in rank order, at most ``MAX_ITEMS`` (5), joined with " / " — so at depth k it answers with the
  top-k facts, and a compound question is answered only as well as retrieval gathered its facts.
  No context -> "정보 없음".
  With unscored context (the full-context baseline passes whole documents), the documents are split
  into sentences first and the sentences are ranked by character-bigram recall of the question.
- :class:`LLMAnswerer`: a model via :meth:`ModelClient.text`; the context goes inside <facts> or
  <documents> tags and the system prompt (engine/prompts/answer.txt) says it is data.
"""

from __future__ import annotations

from typing import Protocol, Sequence

from engine.memory.sentences import split_sentences
from engine.scoring import lexical, prompts

NO_ANSWER = "정보 없음"
MAX_ITEMS = 5


class Answerer(Protocol):
    name: str

    def answer(self, question: str, context: Sequence[str], scores: Sequence[float] | None = None,
               *, kind: str = "facts") -> str: ...


class ExtractiveAnswerer:
    name = "extractive"

    def answer(self, question: str, context: Sequence[str], scores: Sequence[float] | None = None,
               *, kind: str = "facts") -> str:
        items = list(context)
        if scores is None and kind == "documents":
            items = [s for text in items for s in split_sentences(text)]
        if not items:
            return NO_ANSWER
        if scores is None:
            scores = [lexical.recall(question, text) for text in items]
        ranked = sorted(zip(scores, range(len(items))), key=lambda p: (-p[0], p[1]))
        chosen = [i for _, i in ranked[:MAX_ITEMS]]
        return " / ".join(items[i] for i in chosen)


class LLMAnswerer:
    def __init__(self, client, model: str, *, phase: str = "answer") -> None:
        self.client = client
        self.model = model
        self.phase = phase
        self.name = model

    def answer(self, question: str, context: Sequence[str], scores: Sequence[float] | None = None,
               *, kind: str = "facts") -> str:
        messages = prompts.answer_messages(question, list(context), kind=kind)
        return self.client.text("answerer", self.model, messages, phase=self.phase).strip()


def make_answerer(config, client=None) -> Answerer:
    model = config.models.answerer
    if model == "extractive":
        return ExtractiveAnswerer()
    if client is None:
        raise ValueError(f"answerer model {model!r} needs a ModelClient")
    return LLMAnswerer(client, model)
