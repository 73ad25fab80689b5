"""Banners put the fix first (issue 37): a narrow terminal cuts a banner's end, so the command
that fixes what a notice reports comes before what it reports, at 80×24 and 100×30."""

from __future__ import annotations

import pytest
from test_tui_every_view_fits import check_view

from seorap.engine.store.database import open_db
from seorap.tui.factory import make_app

SIZES = [(80, 24), (100, 30), (160, 45)]


@pytest.mark.parametrize("size", SIZES)
async def test_an_empty_database_banner_starts_with_the_command(tmp_path, size):
    path = tmp_path / "empty.db"
    open_db(path)
    app = make_app(path)
    async with app.run_test(size=size) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        banner = str(app.screen.query_one("#banner").render())
        assert banner.startswith("`seorap run` or "), banner
        assert not check_view(app, size)


@pytest.mark.parametrize("size", SIZES)
async def test_the_ollama_banner_starts_with_its_fix_at_every_size(ref, size):  # noqa: F811
    from ollama_fake import closed_port_url

    from seorap.engine.config import Config

    path, _ = ref
    app = make_app(path, probe_ollama=True, live_config=Config.offline(host=closed_port_url()))
    async with app.run_test(size=size) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.pause()
        banner = str(app.screen.query_one("#banner").render())
        assert banner.startswith("start `ollama serve`"), banner
        assert "Ollama not reach" in banner  # what is wrong, after the fix (cut at 80)
        assert not check_view(app, size)
