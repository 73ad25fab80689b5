"""Untrusted text is shown literally: markup stays characters, escape sequences become visible."""

from __future__ import annotations

from test_tui_support import hostile_corpus, reference_db

from seorap.tui.factory import make_app
from seorap.tui.text import literal, visible
from seorap.tui.widgets.claims_table import ClaimsTable
from seorap.tui.widgets.store_table import StoreTable


def test_visible_escapes_control_characters():
    assert visible("a\x1b[31mb\x07c\u202ed\n") == "a\\x1b[31mb\\x07c\\u202ed\n"
    assert literal("[bold]x[/bold]").plain == "[bold]x[/bold]"
    assert literal("[bold]x[/bold]").spans == []


async def test_markup_and_escapes_in_a_document_are_shown_literally(tmp_path):
    corpus = hostile_corpus(tmp_path)
    db, _, ids = reference_db(tmp_path / "h.db", ["oracle"], corpus)
    app = make_app(
        tmp_path / "h.db", run_id=ids["oracle"], trajectory_id="ko-hostile", corpus=corpus
    )
    async with app.run_test(size=(180, 50)) as pilot:
        await pilot.pause()
        body = app.screen.query_one("#document").content
        assert "[bold]x[/bold] [link=https://e.x]y[/link] \\x1b[31mred \\x07bell" in body
        assert "[red]title[/red] \\x1b[2J" in body
        assert "\x1b" not in body and "\x07" not in body
        facts = [str(StoreTable.cells(f)[4]) for f in app.screen.step.store]
        assert any(f.startswith("[b]claim[/b] ") for f in facts)
        claims = app.screen.query_one(ClaimsTable)
        assert "[b]claim[/b]" in str(claims.get_row_at(0)[2])
        svg = app.export_screenshot()
        assert "\x1b" not in svg
        assert "[bold]x[/bold]" in svg.replace("&#160;", " ")


def test_claim_spans_are_styled_without_parsing_markup_or_escapes():
    from seorap.engine.views import DocLine, claim_spans
    from seorap.tui.widgets.document import CLAIM_STYLE, render_line

    raw = "[b]용량[/b] \x1b[31m 가람상사 운영 DB 용량은 3TB"
    line = DocLine(raw, "c", claim_spans(raw, ["가람상사 운영 DB 용량 3TB"]))
    text = render_line(line)
    assert text.plain == visible(raw)  # escapes made visible, markup kept as characters
    styled = [text.plain[s.start : s.end] for s in text.spans if str(s.style) == CLAIM_STYLE]
    assert styled == ["가람상사 운영 DB 용량", "3"]
