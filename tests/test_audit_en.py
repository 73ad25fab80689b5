"""The judge audit in English on imported sets (engine/scoring/audit_en.py), and the prompt sweep's
per-kind table over it (docs/metrics.md#judge-audit)."""

import random
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from seorap.cli.judge_audit import _sweep
from seorap.cli.main import cli
from seorap.engine.corpus import load_corpus
from seorap.engine.corpus.importers.locomo import import_locomo
from seorap.engine.corpus.importers.longmemeval import import_longmemeval
from seorap.engine.scoring.audit import items_for, run_audit
from seorap.engine.scoring.audit_en import paraphrase, parts, shift_dates
from seorap.engine.scoring.verdict import Verdict

DATA = Path(__file__).parent / "data" / "imports"


@pytest.mark.parametrize(
    ("text", "days", "moved"),
    [
        ("3 March 2022", 10, "13 March 2022"),
        ("on 8 May, 2023", -9, "on 29 April, 2023"),
        ("May 8, 2023", 13, "May 21, 2023"),
        ("Sept 30 2023", 8, "October 8 2023"),
        ("2023-12-28", 8, "2024-01-05"),
        ("the 2nd of nothing", 8, None),
        ("31 February 2023", 8, None),
    ],
)
def test_english_dates_move_in_their_own_format(text, days, moved):
    assert shift_dates(text, days, 2023) == moved


def test_a_date_without_a_year_reads_as_the_trajectorys():
    assert shift_dates("by 28 December", 8, 2023) == "by 5 January"


def test_parts_and_paraphrase():
    assert parts("pottery class, Vera and tea") == ["pottery class", "Vera", "tea"]
    assert paraphrase("pottery class, Vera") == "Vera, pottery class"
    assert paraphrase("oolong") == "That would be oolong."


@pytest.fixture(scope="module")
def corpora(tmp_path_factory):
    root = tmp_path_factory.mktemp("imports")
    import_locomo(DATA / "locomo_sample.json", root / "locomo")
    import_longmemeval(DATA / "longmemeval_sample.json", root / "lme")
    return load_corpus(root / "locomo"), load_corpus(root / "lme")


def test_english_items_skip_what_cannot_be_audited(corpora):
    locomo, lme = corpora
    items = [i for t in locomo.trajectories for i in items_for(t, random.Random(0))]
    expected = {i.expected for i in items}
    assert "Not mentioned" not in expected and "" not in expected  # kind 5 and excluded
    assert "Pebble" in expected
    dated = [i for i in items if i.expected == "3 March 2022"]
    by_kind = {i.kind: i.answer for i in dated}
    assert by_kind["multi-value"] == "3 March 2022 / 13 March 2022"
    assert by_kind["hedged"] == "3 March 2022, or possibly 13 March 2022"
    moved = datetime.strptime(by_kind["wrong-date"], "%d %B %Y") - datetime(2022, 3, 3)
    assert 8 <= abs(moved.days) <= 13 and by_kind["context-free"] is None
    lme_items = [i for t in lme.trajectories for i in items_for(t, random.Random(0))]
    assert {i.trajectory_id for i in lme_items} == {"q-tea-01", "q-move-02", "q-count-04"}
    counts = [i for i in lme_items if i.trajectory_id == "q-count-04"]
    assert {i.kind: i.answer for i in counts}["firm-wrong"] == "4"


class FakeJudge:
    """A judge by rule, standing in for two prompts: 'lenient' passes any answer that contains the
    expected one; 'strict' only the expected answer itself or a listed reordering of it."""

    def __init__(self, prompt):
        self.name, self.rules = f"fake/{prompt}", prompt

    def grade_answer(self, question, expected, answer, **_):
        if self.rules == "lenient":
            ok = expected.lower() in answer.lower()
        else:
            ok = sorted(parts(answer.rstrip("."))) == sorted(parts(expected))
        return Verdict("YES" if ok else "NO")


class NoAnswer:
    name = "none"

    def answer(self, question, context, *args, **kwargs):
        return "I do not know."


def test_the_sweep_table_on_an_imported_set(corpora):
    locomo, _ = corpora
    results = [run_audit(locomo, FakeJudge(p), NoAnswer()).figures() for p in ("strict", "lenient")]
    strict, lenient = results
    assert lenient.kinds["multi-value"].pass_rate == 1.0  # a right and a wrong candidate listed
    assert lenient.kinds["hedged"].pass_rate == 1.0
    assert (
        strict.kinds["multi-value"].pass_rate == 0.0 and strict.kinds["wrong-date"].pass_rate == 0.0
    )
    assert (
        strict.kinds["paraphrase"].n == 6
    )  # 5 + 1 items: q4 excluded, q5 declines and strict.kinds["correct"].pass_rate == 1.0
    console = Console(record=True, width=160)
    _sweep(console, results)
    table = console.export_text()
    assert "fake/strict" in table and "fake/lenient" in table
    row = next(line for line in table.splitlines() if "multi-value" in line)
    assert "0%" in row and "100%" in row


def test_the_lexical_judge_is_not_audited_on_english(corpora, tmp_path):
    locomo, _ = corpora
    out = CliRunner().invoke(
        cli, ["judge-audit", "--corpus", str(locomo.root), "--db", str(tmp_path / "a.db")]
    )
    assert out.exit_code == 2 and "the lexical judge reads Korean" in out.output
