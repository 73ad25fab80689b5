"""An imported English set through run, score and report: token F1 beside the judge in every
format, excluded items not scored, the Korean-only offline rulers n/a with their reason, and
retrieval by words (docs/metrics.md#token-f1)."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from seorap.cli.main import cli
from seorap.engine.corpus import load_corpus
from seorap.engine.corpus.importers.locomo import import_locomo
from seorap.engine.retrieval.hybrid import HybridIndex
from seorap.engine.retrieval.tokenize import for_language
from seorap.engine.scoring import token_f1
from seorap.engine.scoring.extrinsic import language_na, questions

LOCOMO = Path(__file__).parent / "data" / "imports" / "locomo_sample.json"


def test_excluded_items_are_not_asked(tmp_path):
    import_locomo(LOCOMO, tmp_path / "c")
    t = load_corpus(tmp_path / "c").get("conv-a1")
    items = [q.item for q in questions(t)]
    assert "single/4" not in items and len(items) == 6  # the adversarial item with no answer


def test_offline_rulers_that_read_korean_say_na_on_english():
    reasons = language_na("lexical", "reader", "en")
    assert set(reasons) == {"judge", "answerer"}
    assert "declared en" in reasons["judge"] and "extractive" in reasons["answerer"]
    assert language_na("lexical/lenient", "extractive", "en").keys() == {"judge"}
    assert language_na("qwen2.5:7b/strict", "qwen2.5:7b", "en") == {}
    assert language_na("lexical", "reader", "ko") == {}


def test_retrieval_tokenises_english_by_words():
    assert for_language("bigram", "en") == "words" and for_language("kiwi", "en") == "words"
    assert for_language("bigram", "ko") == "bigram" and for_language("bigram", None) == "bigram"
    index = HybridIndex.from_settings(
        ["a", "b"], ["the other theme", "a red bike"], None, None, "en"
    )
    assert index.tokenizer == "words"
    assert index.query_tokens("Red bikes?") == ["red", "bikes"]
    # with bigrams 'the other' and 'theme' share 'th' and 'he'; with words only 'the' is shared
    assert [h.fact_id for h in index.search("red bike", None, 1)] == ["b"]


def test_card_by_source_and_kind_by_hand(tmp_path):
    import_locomo(LOCOMO, tmp_path / "c")
    t = load_corpus(tmp_path / "c").get("conv-a1")
    row = {"setup": "answer", "k": 5}
    rows = [
        row
        | {
            "source": "memory",
            "item": "single/0",
            "expected": "pottery class, Vera",
            "candidate": "Vera, pottery",
        },  # kind 1: 5/6
        row | {"source": "memory", "item": "single/3", "expected": "2021", "candidate": "2021"},
        row
        | {
            "source": "memory",
            "k": 1,
            "item": "single/3",
            "expected": "2021",
            "candidate": "no",
        },  # another depth: not the headline
        row
        | {
            "source": "full-context",
            "item": "single/3",
            "expected": "2021",
            "candidate": "in 2021",
        },  # P 1/2 R 1 -> 2/3
    ]
    card = token_f1.card(t, rows, 5)
    assert card["n"] == 2
    assert card["memory"] == pytest.approx((5 / 6 + 1) / 2)
    assert card["full_context"] == pytest.approx(2 / 3)
    assert card["by_kind"]["1 multi-hop"]["memory"] == pytest.approx(5 / 6)
    assert card["by_kind"]["4 single-hop"] == {
        "n": 1,
        "memory": 1.0,
        "full_context": pytest.approx(2 / 3),
        "naive_rag": None,
        "no_context": None,
    }


def test_run_score_report_an_imported_set(tmp_path):
    corpus, db = tmp_path / "c", str(tmp_path / "runs.db")
    import_locomo(LOCOMO, corpus)
    runner = CliRunner()
    ran = runner.invoke(
        cli, ["run", "--corpus", str(corpus), "--system", "oracle", "--db", db, "--offline"]
    )
    assert ran.exit_code == 0, ran.output
    scored = runner.invoke(cli, ["score", "--db", db, "--offline", "--answerer", "extractive"])
    assert scored.exit_code == 0, scored.output

    def report(fmt):
        out = runner.invoke(cli, ["report", "--db", db, "--format", fmt])
        assert out.exit_code == 0, out.output
        return out.output

    md = report("md")
    assert "### Token F1 (LoCoMo's metric, beside the judge)" in md
    assert "| all | 7 |" in md  # 8 questions, the one without an answer excluded
    assert "judge n/a: the lexical judge reads Korean" in md
    assert "token_f1_full_context" in report("csv").splitlines()[0]
    data = json.loads(report("json"))
    card = data["runs"][0]["trajectories"][0]["token_f1"]
    assert card["n"] == 6 and set(card["not_applicable"]) == {"judge"}
    assert "token F1 (LoCoMo's metric, n 7)" in report("table")
