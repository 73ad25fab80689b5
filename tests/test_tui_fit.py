"""tui/fit.py: texts cut to the cells they get, keeping what tells rows apart (hand-checked)."""

from __future__ import annotations

from rich.cells import cell_len

from seorap.tui.fit import (
    cut,
    distinguishing_points,
    fit,
    fit_column,
    fit_widths,
    table_room,
)

P95 = "별무리게임즈 랭크 매칭 API p95 응답 시간 목표는 "


def test_cut_counts_hangul_as_two_cells_and_marks_the_cut():
    assert cut("가나다라", 8) == "가나다라"  # 8 cells: fits
    assert cut("가나다라", 7) == "가나다…"  # 6 + the mark
    assert cut("가나다라", 6) == "가나…"  # a syllable is never split: 4 + 1, one cell unused
    assert cut("abc", 0) == ""
    assert all(cell_len(cut("가a나b다c라", w)) <= w for w in range(12))


def test_distinguishing_points_are_where_each_text_leaves_its_most_alike_neighbour():
    texts = [P95 + "200ms", P95 + "180ms", "한빛물류 요금제", P95 + "200ms"]
    points = distinguishing_points(texts)
    assert points[0] == points[1] == points[3] == len(P95)  # '2' against '1'
    assert points[2] == 0  # shares nothing with the others
    assert distinguishing_points(["같은 말"]) == [0]


def test_two_facts_that_differ_at_the_end_stay_different_when_cut():
    """The issue's case: both read '별무리게임즈 랭크 매칭 API p9' when cut at their end."""
    a, b, other = P95 + "200ms", P95 + "180ms", "별무리게임즈 랭크 매칭 API 오류율 목표는 0.1% 이하"
    for width in (12, 20, 26, 30, 40):
        _, (fa, fb, fo) = fit_column([a, b, other], width)
        assert fa != fb
        assert fa.endswith("200ms") and fb.endswith("180ms"), (width, fa, fb)
        assert fa.startswith("…")  # the cut start is marked
        assert max(cell_len(fa), cell_len(fb), cell_len(fo)) <= width
        assert fo.startswith("…") or fo.endswith("…")
    _, (fa, _, _) = fit_column([a, b, other], 30)
    assert fa == "…p95 응답 시간 목표는 200ms"  # as much context as fits, from a word start


def test_texts_that_differ_early_are_cut_at_their_end():
    questions = [
        "미리내소프트는 이번 하반기에 백엔드 개발자를 몇 명 뽑고, 지원 마감일은 언제인가요?",
        "미리내소프트 하반기 백엔드 개발자 채용 인원은 몇 명인가요?",
        "미리내소프트 하반기 채용에서 서류를 낼 수 있는 마지막 날은 언제인가요?",
        "미리내소프트 하반기 프론트엔드 개발자는 몇 명을 채용하나요?",
    ]
    _, shown = fit_column(questions, 40)
    assert len(set(shown)) == 4
    assert shown[0] == "미리내소프트는 이번 하반기에 백엔드 개…"  # 39 cells + the mark
    assert all(s.endswith("…") and cell_len(s) <= 40 for s in shown)
    _, narrow = fit_column(questions, 16)  # too narrow for the start: the rest is shown
    assert len(set(narrow)) == 4 and narrow[1] == "…백엔드 개발자 …"


def test_a_start_every_text_shares_is_elided_once_they_do_not_fit():
    facts = [
        "다온헬스케어 진료 데이터 백업은 매일 새벽 3시에 수행",
        "다온헬스케어 진료 데이터 백업 보관 기간은 5년",
    ]
    start, shown = fit_column(facts, 30)
    assert start == "다온헬스케어 진료 데이터 "
    assert shown == ["…백업은 매일 새벽 3시에 수행", "…백업 보관 기간은 5년"]
    assert fit_column(facts, 80) == ("", facts)  # everything fits: nothing is cut


def test_a_long_word_at_the_distinguishing_point_is_cut_inside():
    a, b = "x" * 30 + "1-tail", "x" * 30 + "2-tail"
    assert distinguishing_points([a, b]) == [30, 30]
    assert fit(a, 10, 30) == "…xxx1-tail"  # no word start near: the rest, with context that fits
    assert fit(a + "-and-more-of-it", 10, 30) == "…1-tail-a…"  # both ends cut


def test_untrusted_text_is_one_literal_line():
    _, (shown,) = fit_column(["[b]굵게[/b]\n\x1b[31m"], 40)
    assert "\n" not in shown and "\x1b" not in shown and "[b]" in shown


def test_column_widths_cut_the_widest_shrinkable_first_and_stop_at_floors():
    assert fit_widths([10, 30, 4], 44, [None, 8, None]) == [10, 30, 4]
    assert fit_widths([10, 30, 4], 30, [None, 8, None]) == [10, 16, 4]
    widths = fit_widths([20, 30, 4], 30, [8, 8, None])
    assert sum(widths) == 30 and abs(widths[0] - widths[1]) <= 1
    assert fit_widths([10, 30, 4], 10, [None, 8, None]) == [10, 8, 4]  # floors kept: sum > total
    assert table_room(100, 4) == 100 - 2 - 8


def _one_cell_at_a_time(naturals, total, floors, last=()):
    """fit_widths's rule as its docstring states it, a cell a turn (its first code: 10,000 turns
    for the questions' column, asked for as wide as it wants, a 15 ms hold of the event loop)."""
    widths = list(naturals)
    while sum(widths) > total:
        open_ = [i for i, f in enumerate(floors) if f is not None and widths[i] > f]
        open_ = [i for i in open_ if i not in last] or open_
        if not open_:
            break
        widths[max(open_, key=lambda i: widths[i])] -= 1
    return widths


def test_column_widths_cut_in_bulk_as_one_cell_at_a_time_would():
    import random

    rng = random.Random(36)
    for _ in range(3000):
        n = rng.randint(1, 6)
        naturals = [rng.randint(0, 60) for _ in range(n)]
        floors = [rng.choice([None, 0, rng.randint(0, 30)]) for _ in range(n)]
        last = tuple(i for i in range(n) if rng.random() < 0.2)
        total = rng.randint(0, sum(naturals) + 5)
        expected = _one_cell_at_a_time(naturals, total, floors, last)
        assert fit_widths(naturals, total, floors, last) == expected, (naturals, total, floors)
    assert fit_widths([5, 7, 12, 10_000], 80, [None, None, None, 20]) == [5, 7, 12, 56]


def test_a_table_row_cut_at_the_edge_ends_in_an_ellipsis():
    from rich.segment import Segment
    from rich.style import Style
    from textual.strip import Strip

    from seorap.tui.widgets.line_table import cut_marked

    def shown(text: str, start: int, width: int) -> str:
        return cut_marked(Strip([Segment(text, Style())]), start, width, Style()).text

    assert shown("abcdef", 0, 4) == "abc…"
    assert shown("abcdef", 2, 3) == "cd…"  # scrolled right: the rest still goes on
    assert shown("abc   ", 0, 4) == "abc "  # only padding past the edge: no cut to mark
    assert shown("abcd", 0, 4) == "abcd"
    assert shown("가나다라마", 0, 5) == "가나…"  # wide characters: 2 + 2 + 1 cells
