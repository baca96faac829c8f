"""Cantris on a phone: whose turn, both scores and the whole board on the first screen."""

import requests
from playwright.sync_api import expect

BOTTOM = "(s) => { const r = document.querySelector(s).getBoundingClientRect(); return [r.top, r.bottom]; }"


def test_the_scores_and_the_board_share_the_first_screen(browser, base_url):
    game = requests.post(f"{base_url}/api/games", json={"game": "cantris", "options": {"board": "10x5", "seed": 3},
                                                        "players": ["human", "alphabeta:strength=1"]}, timeout=10).json()
    context = browser.new_context(base_url=base_url, viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(game["seats"][0]["join_url"])
        expect(page.get_by_test_id("status")).to_contain_text("Your move")
        grid_top, grid_bottom = page.evaluate(BOTTOM, "[data-testid=cantris-grid]")
        for seat in (0, 1):
            top, bottom = page.evaluate(BOTTOM, f"[data-testid=cantris-score-value-{seat}]")
            assert bottom <= grid_top, (seat, bottom, grid_top)  # the score above the board
        assert page.evaluate(BOTTOM, "[data-testid=cantris-turn]")[1] <= grid_top
        assert grid_bottom <= 844, grid_bottom  # the whole board on the first screen
    finally:
        context.close()
