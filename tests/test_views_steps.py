"""The stepper at scale (engine/views/steps.py): the step's summary line, the store's order and
filters, the log's order and search — on hand-built steps whose expected values are counted by hand,
then on a real database for search."""

from __future__ import annotations

import pytest
from test_tui_support import CORPUS

from seorap.engine import views
from seorap.engine.corpus import load_corpus
from seorap.engine.store.database import open_db
from seorap.engine.views.lineage import Lineage, Link
from seorap.engine.views.operations import Operation
from seorap.engine.views.stepper import StepView, StoreFact

P = "r/t/"  # fact ids are run/trajectory/fNNNN


def fact(n: int, mark: str = "", status: str = "active", stale: str | None = None, **kw):
    return StoreFact(f"{P}f{n:04d}", f"fact {n}", 0.7, status, 1, mark, stale, **kw)


def op(operation: str, n: int = 0) -> Operation:
    return Operation(f"o{n}", f"obs {n}", "", [], operation, operation, "", "", "", "", "")


def step(store: list[StoreFact], links: list[Link], position: int = 1, ops=()) -> StepView:
    successor = {link.old: link for link in links}
    replaces: dict[str, list[Link]] = {}
    for link in links:
        if link.new:
            replaces.setdefault(link.new, []).append(link)
    return StepView(
        "r", "t", "title", "C4", "L3", "linear", position, position, [], "doc", "email", "a",
        "2026-01-01", False, "update", [], [], [], True, list(ops), [], store, [], "full", False,
        links=Lineage(successor, replaces),
    )  # fmt: skip


# Doc 2 of a real-shaped run, by hand: f0001 kept, f0002 updated, f0003 reinforced, f0004
# superseded here by f0006 (NEW), f0005 superseded at doc 1 by f0009, f0007 and f0008 new,
# f0010 an unchanged active fact stating a stale claim.
NOW = Link(f"{P}f0004", f"{P}f0006", 1, "value changed")
EARLIER = Link(f"{P}f0005", f"{P}f0009", 0)
STORE = [
    fact(1),
    fact(2, "UPDATED"),
    fact(3, "REINFORCED"),
    fact(6, "NEW", replaces=(NOW,)),
    fact(7, "NEW"),
    fact(8, "NEW"),
    fact(9, replaces=(EARLIER,)),
    fact(10, stale="old value"),
    fact(4, "SUPERSEDED", "superseded", successor=NOW),
    fact(5, status="superseded", successor=EARLIER),
]
STEP = step(STORE, [NOW, EARLIER], ops=[op("create", 1), op("supersede", 2), op("update", 3)])


def ids(facts) -> list[str]:
    return [f.id.removeprefix(P) for f in facts]


def test_summary_counts_by_hand():
    s = views.step_summary(STEP)
    # new: f0007, f0008 (f0006 is named as f0004's replacement, not counted again)
    assert (s.new, s.updated, s.reinforced, s.stale, s.observations) == (2, 1, 1, 1, 3)
    assert [views.supersede_text(link) for link in s.superseded] == ["f0004→f0006"]  # not f0005
    assert s.line() == "+2 new · 1 updated · 1 reinforced · 1 superseded: f0004→f0006 · 1 stale"
    assert [t.removeprefix(P) for t in s.targets] == ["f0004", "f0006", "f0002", "f0003", "f0010"]


def test_summary_of_a_quiet_step_and_of_many_supersedes():
    assert views.step_summary(step([fact(1)], [])).line() == "no change to the store"
    links = [Link(f"{P}f{n:04d}", f"{P}f{n + 10:04d}" if n < 4 else "", 1) for n in range(5)]
    store = [fact(n, "SUPERSEDED", "superseded", successor=links[n]) for n in range(5)]
    line = views.step_summary(step(store, links)).line()
    # three pairs named, two counted; a retraction reads →none
    assert line == "5 superseded: f0000→f0010, f0001→f0011, f0002→f0012 +2"
    assert views.supersede_text(Link("a/b/f0001", "", 1)) == "f0001→none"
    assert views.supersede_text(Link("a/b/f0001", None, 1)) == "f0001→?"


def test_store_order_puts_this_steps_supersede_first():
    # supersede pair (old, new), updated, reinforced, stale, new, rest (store order)
    assert ids(views.store_order(STEP)) == [
        "f0004", "f0006", "f0002", "f0003", "f0010", "f0007", "f0008", "f0001", "f0009", "f0005",
    ]  # fmt: skip


@pytest.mark.parametrize(
    "mode, expected",
    [
        ("changed", ["f0004", "f0006", "f0002", "f0003", "f0007", "f0008"]),
        ("lineage", ["f0004", "f0006", "f0009", "f0005"]),
        ("stale", ["f0010"]),
    ],
)
def test_store_filters(mode, expected):
    assert ids(views.filter_store(STEP, mode)) == expected
    assert len(views.filter_store(STEP, "all")) == len(STORE)


def test_log_order_changes_first_keeping_numbers():
    ops = [op("create", 1), op("create", 2), op("", 3), op("reinforce", 4), op("supersede", 5)]
    ops.append(op("update", 6))
    order = [(n, o.operation) for n, o in views.operations_order(ops)]
    assert order == [
        (5, "supersede"), (6, "update"), (4, "reinforce"), (3, ""), (1, "create"), (2, "create"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    "query, fid",
    [("f0030", "f0030"), (" F0030 ", "f0030"), ("A-x/ko-c4/f0030", "f0030"), ("f00x", None)],
)
def test_fact_id_query(query, fid):
    assert views.fact_id_query(query) == fid


def test_next_match_wraps():
    m = [views.Match(0, "fact", "a"), views.Match(2, "document"), views.Match(2, "fact", "b")]
    assert views.next_match(m, 1) == 1 and views.next_match(m, 3) == 0
    assert views.next_match([], 0) == -1


def test_search_on_a_real_run_finds_facts_by_id_and_text(ref):
    path, ids_ = ref
    db, corpus = open_db(path), load_corpus(CORPUS)
    run_id, t = ids_["oracle"], corpus.get("ko-c5-garam-db")
    fact_rows = list(
        db.query(
            "SELECT fact_id, position, text FROM fact_versions WHERE run_id=? AND trajectory_id=? "
            "ORDER BY position, fact_id",
            [run_id, t.id],
        )
    )
    first = fact_rows[0]
    short = views.short_id(first["fact_id"])
    by_id = views.search_matches(db, t, run_id, short)
    expected = sorted({r["position"] for r in fact_rows if r["fact_id"] == first["fact_id"]})
    assert [m.position for m in by_id] == expected
    assert {(m.kind, m.key) for m in by_id} == {("fact", first["fact_id"])}
    word = first["text"].split()[-1]
    found = views.search_matches(db, t, run_id, word)
    assert views.Match(first["position"], "fact", first["fact_id"]) in found
    assert found == sorted(found, key=lambda m: (m.position, views.steps.KIND_ORDER[m.kind], m.key))
    assert views.search_matches(db, t, run_id, "no such text anywhere 없다") == []
