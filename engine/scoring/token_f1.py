"""Token F1 as LoCoMo's own evaluation computes it (docs/metrics.md#token-f1).

The steps follow the dataset repository's ``task_eval/evaluation.py`` (read there, not copied):

1. normalise: commas removed, lowercased, ASCII punctuation removed, the words ``a``, ``an``,
   ``the`` and ``and`` removed, whitespace collapsed;
2. split on whitespace and stem each word with nltk's Porter stemmer (its default mode, as that
   code constructs it);
3. F1 of the two bags of stems: overlap counted with multiplicity, 0 when nothing overlaps.

Per kind (the file's category numbers, engine/corpus/importers/locomo.py): 1 (multi-hop) splits both
answers on commas *before* normalising and averages, over the expected parts, the best F1 any
predicted part reaches; 3 (open-domain) scores against the expected answer's part before the first
``;``; 2 and 4 score the whole answers; 5 (adversarial) is 1 when the prediction contains "no
information available" or "not mentioned" (any case), else 0. Pure functions, no model.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from functools import lru_cache
from typing import Any

from seorap.engine.corpus.findings import kind_label
from seorap.engine.corpus.trajectory import Trajectory

_ARTICLES = re.compile(r"\b(a|an|the|and)\b")
_PUNCTUATION = frozenset(string.punctuation)

ABSTAIN_PHRASES = ("no information available", "not mentioned")
"""What LoCoMo's evaluation accepts as declining an adversarial question."""


def normalize_answer(text: str) -> str:
    """Commas out, lowercase, punctuation out, ``a/an/the/and`` out, whitespace collapsed — in
    the order LoCoMo's code applies them (articles are removed after punctuation, so ``the,`` goes)."""
    text = text.replace(",", "").lower()
    text = "".join(ch for ch in text if ch not in _PUNCTUATION)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())


@lru_cache(maxsize=1)
def _stemmer() -> Any:  # nltk's PorterStemmer (nltk ships no types)
    # start-up: nltk costs ~2 s of CPU to import, and only an English score stems
    from nltk.stem.porter import PorterStemmer

    return PorterStemmer()  # nltk's default mode (NLTK_EXTENSIONS), as LoCoMo's code makes it


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    return str(_stemmer().stem(word))


def stems(text: str) -> list[str]:
    """The normalised words of ``text``, Porter-stemmed."""
    return [_stem(word) for word in normalize_answer(text).split()]


def f1_score(prediction: str, expected: str) -> float:
    """Token F1 of two answers (LoCoMo's ``f1_score``): 0.0 when no stem is shared."""
    predicted, gold = stems(prediction), stems(expected)
    same = sum((Counter(predicted) & Counter(gold)).values())
    if same == 0:
        return 0.0
    precision = same / len(predicted)
    recall = same / len(gold)
    return 2 * precision * recall / (precision + recall)


def multi_f1(prediction: str, expected: str) -> float:
    """Multi-hop F1 (LoCoMo's ``f1``): both split on commas; for each expected part the best F1
    of any predicted part; their mean."""
    predicted = [p.strip() for p in prediction.split(",")]
    gold = [g.strip() for g in expected.split(",")]
    return sum(max(f1_score(p, g) for p in predicted) for g in gold) / len(gold)


def abstains(prediction: str) -> bool:
    """The prediction declines, in the words LoCoMo's evaluation looks for."""
    lowered = prediction.lower()
    return any(phrase in lowered for phrase in ABSTAIN_PHRASES)


def locomo_score(prediction: str, expected: str, kind: str | None) -> float:
    """The score LoCoMo's evaluation gives ``prediction`` for a question of ``kind`` (its category
    number as text). Another kind (a LongMemEval type, none) is scored as plain token F1."""
    if kind == "1":
        return multi_f1(prediction, expected)
    if kind == "3":
        return f1_score(prediction, expected.split(";")[0].strip())
    if kind == "5":
        return 1.0 if abstains(prediction) else 0.0
    return f1_score(prediction, expected)


# ---- the card: token F1 beside the judge, on every answer the judge graded -------------------------

SOURCES = {"memory": "memory", "full_context": "full-context", "naive_rag": "naive-rag"}
SOURCES["no_context"] = "no-context"


def applies(trajectory: Trajectory) -> bool:
    """Token F1 is computed for imported sets and English corpora (an English word overlap says
    little about Korean, whose particles and endings it would count as different words)."""
    return trajectory.source is not None or trajectory.language == "en"


def card(trajectory: Trajectory, verdicts: list[dict], top_k: int) -> dict[str, Any]:
    """Mean token F1 per answer source (memory at ``top_k``), overall and per kind, with counts,
    from the answer verdict rows (engine/scoring/extrinsic.py): the same answers the judge graded."""
    kinds = {f"single/{i}": q for i, q in enumerate(trajectory.single_qa)}
    by_source: dict[str, list[tuple[str, float]]] = {name: [] for name in SOURCES}
    for row in verdicts:
        if row.get("setup") != "answer":
            continue
        name = next((n for n, s in SOURCES.items() if s == row["source"]), None)
        if name is None or (name == "memory" and row["k"] != top_k):
            continue
        q = kinds.get(row["item"])
        score = locomo_score(row["candidate"] or "", row["expected"], q.kind if q else None)
        by_source[name].append((kind_label(q) if q else "compound", score))
    out: dict[str, Any] = {name: _mean([s for _, s in pairs]) for name, pairs in by_source.items()}
    out["n"] = len(by_source["memory"])
    labels = sorted({label for pairs in by_source.values() for label, _ in pairs})
    out["by_kind"] = {
        label: {
            "n": sum(1 for k, _ in by_source["memory"] if k == label),
            **{
                name: _mean([s for k, s in pairs if k == label])
                for name, pairs in by_source.items()
            },
        }
        for label in labels
    }
    return out


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None
