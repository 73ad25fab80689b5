"""The stepper tells the story: lineage (stored, both ways), the corpus's change beside the system's
operations, the late memo, full text, filter evidence, `q` and 1-based `g`."""

from __future__ import annotations

from test_tui_support import CORPUS

from seorap.engine import views
from seorap.engine.corpus import load_corpus
from seorap.engine.memory.reference import successor_of
from seorap.engine.store.database import open_db
from seorap.tui.factory import make_app
from seorap.tui.screens.fact_history import FactHistoryScreen
from seorap.tui.text import shared_start, without_start, word_diff
from seorap.tui.widgets.claims_table import ClaimsTable
from seorap.tui.widgets.detail import DetailPane
from seorap.tui.widgets.operations import OperationLog
from seorap.tui.widgets.store_table import StoreTable

LATE = "ko-c4-late-memo"
SMALL = (100, 30)


def _fid(ids, system, n):
    return f"{ids[system]}/{LATE}/f{n:04d}"


def test_successor_rule_pairs_by_shared_wording_and_leaves_retractions_alone():
    old = "플랫폼팀은 주문 API 실행 환경으로 Lambda, ECS Fargate, EKS를 비교 검토 중"
    new = [
        "Fargate를 택한 이유는 주문 API의 100ms 이하 응답 요구",
        "주문 API 실행 환경은 ECS Fargate로 결정",
    ]
    assert successor_of(old, new) == new[1]
    # a claim sharing almost nothing is not a successor: the value was retracted
    assert successor_of("세미나 정원 120명", ["온라인 웨비나 링크는 메일로 발송"]) is None
    assert successor_of("", new) is None


def test_oracle_supersede_is_stored_with_its_successor_both_ways(ref):
    path, ids = ref
    db = open_db(path)
    links = views.lineage(db, ids["oracle"], LATE)
    link = links.successor[_fid(ids, "oracle", 1)]
    assert link.new == _fid(ids, "oracle", 3) and link.position == 1
    assert "no longer among this state's expected claims" in link.reason
    assert [l.old for l in links.replaces[_fid(ids, "oracle", 3)]] == [_fid(ids, "oracle", 1)]
    assert views.successor_text(link) == "superseded by f0003 at doc 2"


def test_a_database_without_stored_lineage_says_unknown(ref):
    path, ids = ref
    db = open_db(path)
    db.execute("UPDATE fact_versions SET successor_id = NULL")
    link = views.lineage(db, ids["oracle"], LATE).successor[_fid(ids, "oracle", 1)]
    assert link.new is None and "unknown" in views.successor_text(link)


def test_ground_truth_computes_claims_where_the_corpus_gives_no_reason():
    corpus = load_corpus(CORPUS)
    t = corpus.get("ko-c1-hanbit-plan")
    truth = views.ground_truth(t, 2)
    assert truth.reason.startswith("사용량 증가로")
    assert "한빛물류 요금제는 엔터프라이즈" in truth.added
    assert "한빛물류 요금제는 스탠다드" in truth.stale
    first = views.ground_truth(t, 0)
    assert first.first and first.stale == [] and first.added == t.states[0].claims


def test_op_count_says_how_accuracy_counts_a_state():
    c = views.op_count("update", ["create", "create", "supersede"], True)
    assert c.effective == "supersede" and c.correct is False
    assert "counts as supersede" in c.sentence() and "miss (needs update)" in c.sentence()
    assert views.op_count("conflict", ["supersede"], True).correct is True
    assert views.op_count("update", [], False).correct is None


def test_text_helpers_elide_shared_starts_and_highlight_changed_words():
    facts = [
        "다온헬스케어 진료 데이터 백업 보관 기간은 5년",
        "다온헬스케어 진료 데이터 복구 테스트는 분기마다 1회",
    ]
    start = shared_start(facts)
    assert start == "다온헬스케어 진료 데이터 "
    assert without_start(facts[0], start) == "…백업 보관 기간은 5년"
    assert shared_start(["같은 말", "같은 말"]) == ""  # nothing would be left of a row
    old, new = word_diff("월 이용료는 120만 원", "월 이용료는 310만 원")
    assert old.plain == "월 이용료는 120만 원" and new.plain == "월 이용료는 310만 원"
    assert [old.plain[s.start : s.end] for s in old.spans] == ["120만"]
    assert [new.plain[s.start : s.end] for s in new.spans] == ["310만"]


async def test_late_memo_stepper_names_the_replacing_fact_and_the_corpus_reason(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"], trajectory_id=LATE)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("right")  # doc 2: the March decision supersedes "still comparing"
        store = app.screen.query_one(StoreTable)
        lineage = {f.id[-5:]: str(store.get_cell(f.id, "lineage")) for f in store.facts}
        assert lineage["f0001"] == "→f0003" and lineage["f0003"] == "←f0001"
        log = app.screen.query_one(OperationLog).content
        assert "f0001 superseded by f0003 at doc 2" in log
        assert "expected update · applied create ×2, supersede ×1 → counts as supersede" in log
        await pilot.press("right")  # doc 3: the late January memo
        log = app.screen.query_one(OperationLog).content
        assert "Corpus, state 3: expected update — why: 늦게 도착한 1월 20일 검토 메모" in log
        assert "dated 2026-01-20, older than the store's last change (2026-03-10, doc 2)" in log
        assert "late document" in app.screen.query_one("#step-title").content


async def test_fact_history_is_a_chain_you_walk(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"], trajectory_id=LATE)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("right")
        store = app.screen.query_one(StoreTable)
        row = next(n for n, f in enumerate(store.facts) if f.id.endswith("f0001"))
        store.move_cursor(row=row)
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, FactHistoryScreen)
        assert "superseded by f0003 at doc 2" in str(app.screen.query_one("#fact-title").content)
        await pilot.press("right")
        assert app.screen.fact_id.endswith("f0003")
        assert "replaces f0001 at doc 2" in str(app.screen.query_one("#fact-title").content)
        await pilot.press("left")
        assert app.screen.fact_id.endswith("f0001")


async def test_daon_backup_facts_are_distinguishable_at_100x30(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"], trajectory_id="ko-c1-daon-backup")
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        store = app.screen.query_one(StoreTable)
        shown = [str(store.get_cell(f.id, "fact"))[:8] for f in store.facts]
        assert len(shown) == 5 and len(set(shown)) == 5
        assert all(s.startswith("…") for s in shown)
        region = store.region
        assert region.right <= 100 and store.size.width >= 40
        detail = app.screen.query_one(DetailPane).content
        assert "다온헬스케어 진료 데이터 백업" in detail  # the focused fact, whole


async def test_filter_verdict_shows_its_cosine_and_fact(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle-merged"], trajectory_id="ko-c5-garam-db")
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("right", "right", "j")
        claims = app.screen.query_one(ClaimsTable)
        assert [str(c.label) for c in claims.columns.values()][:3] == [
            "verdict",
            "cosine",
            "best fact",
        ]
        row = claims.claims[0]
        assert row.best_cosine is not None and row.threshold == 0.8 and row.best_fact
        assert str(claims.get_row_at(0)[1]).endswith("θ")
        claims.focus()
        await pilot.pause()
        assert "best cosine" in app.screen.query_one(DetailPane).content


async def test_closing_a_search_gives_focus_back_to_the_pane_it_was_opened_from(ref):
    """Esc (or Enter with no hit) after `/` focused the first pane, whichever was in use: from
    the store pane the next ↓ moved the timeline."""
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"], trajectory_id=LATE)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("2")
        await pilot.pause()
        app.screen.query_one(StoreTable).focus()
        await pilot.pause()
        await pilot.press("slash", "escape")
        await pilot.pause()
        assert app.focused is app.screen.query_one(StoreTable)
        await pilot.press("slash", "z", "z", "q", "enter")  # no hit anywhere
        await pilot.pause()
        assert app.focused is app.screen.query_one(StoreTable)
        await pilot.press("3")
        await pilot.pause()
        detail = app.screen.query_one("#q-detail")
        detail.focus()
        await pilot.pause()
        await pilot.press("slash", "escape")
        await pilot.pause()
        assert app.focused is detail


async def test_q_quits_but_is_typed_inside_a_search(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"], trajectory_id=LATE)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("slash", "q")
        assert app.is_running
        assert app.screen.search_text == "q"
        await pilot.press("escape", "q")
        await pilot.pause()
    assert app.return_code == 0


async def test_a_long_operation_log_shows_25_then_all_on_a(tmp_path):
    from seorap.engine.views import Operation, StepView
    from seorap.tui.widgets.operations import SHOWN_OPERATIONS, render_operations

    ops = [
        Operation(
            f"o{n}",
            f"관찰 {n}",
            "status",
            [],
            "create",
            "create",
            "off",
            "",
            f"r/t/f{n:04d}",
            "",
            f"관찰 {n}",
        )
        for n in range(40)
    ]
    step = StepView(
        "r",
        "t",
        "title",
        "C1",
        "L1",
        "stable",
        0,
        0,
        [],
        "doc",
        "wiki",
        "a",
        "2026-01-01",
        True,
        "distractor",
        [],
        [],
        [],
        True,
        ops,
        [],
        [],
        [],
        "full",
        False,
    )
    text = render_operations(step).plain
    assert f"{SHOWN_OPERATIONS}. 관찰 {SHOWN_OPERATIONS - 1}" in text and "26. " not in text
    assert "15 more observations: a shows all" in text
    assert "40. 관찰 39" in render_operations(step, show_all=True).plain


def test_score_cards_read_the_figures_stored_at_score_time(ref):
    from seorap.engine.scoring.overrides import add_override

    path, ids = ref
    db = open_db(path)
    stored, diff = views.stored_figures(db, ids["oracle"])
    fresh = views.run_report(db, ids["oracle"])
    assert stored is not None and diff is not None
    assert stored.aggregate.intrinsic == fresh.aggregate.intrinsic
    assert stored.aggregate.mad == fresh.aggregate.mad
    verdict = next(db.query("SELECT id FROM verdicts WHERE run_id=? LIMIT 1", [ids["oracle"]]))[
        "id"
    ]
    add_override(db, verdict, "NO", "a person disagrees", who="test")
    assert views.stored_figures(db, ids["oracle"]) == (None, None)  # stale: computed in a worker
    assert views.stored_figures(db, ids["oracle-stale"])[0] is not None  # other runs keep theirs


def test_stand_in_runs_are_labelled(tmp_path):
    from seorap.engine.store.database import dumps
    from seorap.engine.store.database import open_db as open_

    db = open_(tmp_path / "s.db")
    for run_id, system, backend in (
        ("A-x", "A", "standin"),
        ("B-x", "B", "standin"),
        ("A-y", "A", "ollama"),
    ):
        db["runs"].insert(
            {
                "run_id": run_id,
                "system": system,
                "created_at": run_id,
                "manifest": dumps({"models": {"synthesizer": {"backend": backend}}}),
            }
        )
    for r in ("A-x", "B-x", "A-y"):  # facts is a view (docs/store.md): plain SQL inserts through it
        db.execute(
            "INSERT INTO facts (id, run_id, trajectory_id, text, status) VALUES (?, ?, ?, ?, ?)",
            [f"{r}/t/f1", r, "t", "같은 사실", "active"],
        )
    assert views.run_labels(db) == {"A-x": "A (stand-in)", "B-x": "B (stand-in)", "A-y": "A"}
    assert views.standin_twins(db) == [("A", "B")]
