"""Fact history shows every version whole, with the word diff between consecutive versions."""

from __future__ import annotations

from seorap.engine import views
from seorap.engine.views.history import DiffPart, FactVersion, marked, trimmed, version_diff
from seorap.tui.factory import make_app
from seorap.tui.screens.fact_history import FactHistoryScreen, diff_text, version_text

GARAM = "ko-c5-garam-db"


def test_word_diff_marks_removed_and_added_korean_words():
    before = "가람 DB 백업 보관 기간은 3년이다"
    after = "가람 DB 백업 보관 기간은 5년이며 매주  점검한다"
    assert version_diff(before, after) == (
        DiffPart("same", "가람 DB 백업 보관 기간은"),
        DiffPart("removed", "3년이다"),
        DiffPart("added", "5년이며 매주 점검한다"),
    )
    assert marked(version_diff(before, after)) == (
        "가람 DB 백업 보관 기간은 [-3년이다-] {+5년이며 매주 점검한다+}"
    )


def test_word_diff_of_a_word_dropped_in_the_middle_and_of_equal_texts():
    parts = version_diff("서랍 담당자는 김민지 팀장이다", "서랍 담당자는 김민지이다")
    assert marked(parts) == "서랍 담당자는 [-김민지 팀장이다-] {+김민지이다+}"
    assert marked(version_diff("진료 데이터 보관", "진료 보관")) == "진료 [-데이터-] 보관"
    assert marked(version_diff("같은 문장", "같은  문장")) == "같은 문장"
    assert marked(version_diff("", "새 사실")) == "{+새 사실+}"


def test_trimmed_keeps_three_words_beside_each_change():
    before = "가 나 다 라 마 바 사 아 자 차 카"
    after = "가 나 다 라 마 바 사 아 자 차 타"
    assert marked(version_diff(before, after)) == "가 나 다 라 마 바 사 아 자 차 [-카-] {+타+}"
    assert marked(trimmed(version_diff(before, after))) == "… 아 자 차 [-카-] {+타+}"
    middle = version_diff("하나 둘 셋 넷 다섯 여섯 일곱 여덟", "하나 둘 셋 넷 다섯 여섯 칠 여덟")
    assert marked(trimmed(middle, keep=2)) == "… 다섯 여섯 [-일곱-] {+칠+} 여덟"
    both = version_diff("ㄱ 일 이 삼 사 오 육 칠 ㄴ", "ㄷ 일 이 삼 사 오 육 칠 ㄹ")
    assert marked(trimmed(both, keep=2)) == "[-ㄱ-] {+ㄷ+} 일 이 … 육 칠 [-ㄴ-] {+ㄹ+}"
    assert trimmed(version_diff("짧은 문장", "짧은 문장")) == (DiffPart("same", "짧은 문장"),)


def test_diff_text_keeps_untrusted_markup_and_escapes_literal():
    text = diff_text(version_diff("[bold]a[/bold] b", "[bold]a[/bold] \x1b[31mc"))
    assert text.plain == "[bold]a[/bold] [-b-] {+\\x1b[31mc+}"


def test_version_text_shows_an_unchanged_text_and_escapes_the_document():
    v1 = FactVersion(
        1,
        0,
        0,
        "create",
        "[b]가람[/b] 백업 3년",
        0.9,
        "superseded",
        "관찰",
        "t-d0",
        "제목\x1b[2J",
        "2026-01-14",
        ["백승우"],
    )
    v2 = FactVersion(
        2,
        1,
        1,
        "reinforce",
        v1.text,
        0.95,
        "active",
        "",
        "t-d1",
        "",
        "",
        [],
        diff=version_diff(v1.text, v1.text),
    )
    first, second = version_text(v1, None).plain, version_text(v2, 1).plain
    assert first.splitlines()[:2] == [
        "v1 · doc 1 (t-d0) · create · confidence 0.90 · superseded",
        "[b]가람[/b] 백업 3년",
    ]
    assert "changes from" not in first
    assert "source: 제목\\x1b[2J · 2026-01-14 · 백승우" in first
    assert "changes from v1: none, the text is the same" in second
    assert not v2.changed


def screen_text(app) -> str:
    return "\n".join(
        "".join(s.text for s in strip) for strip in app.screen._compositor.render_strips()
    )


async def test_fact_history_shows_each_version_whole_and_the_diff(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle-merged"], trajectory_id=GARAM)
    async with app.run_test(size=(160, 60)) as pilot:
        await pilot.press("g", "4", "enter", "f")
        await pilot.pause()
        assert isinstance(app.screen, FactHistoryScreen)
        history = app.screen.history
        first, second = history.versions[:2]
        assert first.text != second.text and second.changed
        await pilot.pause()
        shown = screen_text(app)
        flat = " ".join(shown.split())  # wrapped lines joined: the whole text, not a cut
        for v in (first, second):
            assert " ".join(v.text.split()) in flat, v.text
            assert f"v{v.version} · doc {v.position + 1} ({v.doc_id})" in flat
            assert f"{v.operation} · confidence {v.confidence:.2f}" in flat
        assert first.doc_id.endswith("-d0") and "v1 · doc 1 (" in flat
        diff = " ".join(views.marked(views.trimmed(second.diff)).split())
        assert f"changes from v{first.version}: {diff}" in flat
        assert "[-" in diff and "{+" in diff


async def test_the_cursor_brings_its_version_up_at_80x24(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle-merged"], trajectory_id=GARAM)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g", "4", "enter", "f")
        await pilot.pause()
        await pilot.press("down", "down")
        await pilot.pause()
        blocks = list(app.screen.query(".fact-text"))
        assert [b.has_class("-current") for b in blocks] == [False, False, True, False]
        pane = app.screen.query_one("#fact-texts")
        assert blocks[2].region.y == pane.content_region.y  # v3 at the top of the pane
        v3 = app.screen.history.versions[2]
        assert f"v3 · doc 3 ({v3.doc_id})" in screen_text(app)
