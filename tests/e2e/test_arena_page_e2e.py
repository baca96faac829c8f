"""The arena page with many stored runs (issue 33: a flood of runs made one visit fetch every
run): it shows the most recent page from one request, "Show older runs" brings the next page."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import FAST, LiveServer
from tests.e2e.test_a11y import AXE, RUN_AXE
from webapp import create_app
from webapp.arena import ArenaJob

SHOTS = Path(__file__).resolve().parents[2] / "test-results"


@pytest.fixture
def crowded(tmp_path):
    """A live server whose store holds 25 finished runs (the newest last)."""
    server = LiveServer(create_app(dict(FAST, STORE=str(tmp_path / "games.sqlite3")))).start()
    backend = server.app.extensions["arcade"].arenas.backend
    now = time.time()
    for i in range(25):
        job = ArenaJob("nim", {"piles": "3,4,5"}, ["alphabeta", "random"], 4, i)
        job.status, job.finished = "done", job.started + 0.1
        job.results = {"games": 4, "wins": 4, "draws": 0, "losses": 0, "win_rate": 1.0, "seconds": 0.1,
                       "per_agent": [{"moves": 8, "seconds_per_move": 0.001, "nodes_per_move": 10},
                                     {"moves": 8, "seconds_per_move": 0.0001, "nodes_per_move": 0}]}
        backend.put_arena(job.to_store(), now - 100 + i)
    yield server
    server.app.extensions["arcade"].ai.pool.shutdown()
    server.stop()


@pytest.mark.parametrize("width", [1280, 390])
def test_the_arena_page_shows_a_page_of_runs_and_older_ones_on_demand(browser, crowded, width):
    context = browser.new_context(base_url=crowded.url, viewport={"width": width, "height": 800}, bypass_csp=True)
    page: Page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url.split(crowded.url, 1)[-1]))
    try:
        page.goto("/arena")
        cards = page.get_by_test_id("arena-runs").locator(".run-card")
        expect(cards).to_have_count(20)
        expect(cards.first).to_contain_text("4 of 4 games")
        older = page.get_by_test_id("arena-older")
        expect(older).to_be_visible()
        SHOTS.mkdir(exist_ok=True)
        older.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"arena-runs-{width}.png"), full_page=False)
        api = [u for u in asked if u.startswith("/api/arena")]
        assert api == ["/api/arena?offset=0&limit=20"], api  # one request, not one a run
        older.click()
        expect(cards).to_have_count(25)
        expect(older).to_be_hidden()  # the last page
        rows = page.get_by_test_id("arena-table").locator("tbody tr")
        expect(rows).to_have_count(25)
        page.add_script_tag(path=str(AXE))
        assert page.evaluate(RUN_AXE) == []
    finally:
        context.close()
