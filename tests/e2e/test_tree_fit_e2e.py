"""The tree page for a class: on a phone the tree sits just above its narration (one can watch
both); on a projector "Fit to screen" shows the whole tree in the window; it opens on a tree at
its defaults (Sim's: a search that finishes)."""

import requests
from playwright.sync_api import expect

from tests.helpers import as_creator

BOX = "(s) => { const r = document.querySelector(s).getBoundingClientRect(); return [r.top, r.bottom, r.width, r.height]; }"
SVG = ("() => { const r = document.querySelector('[data-testid=search-tree] svg').getBoundingClientRect();"
       " return [r.width, r.height]; }")


def sim_tree(base_url: str, page) -> str:
    created = requests.post(f"{base_url}/api/games", json={"game": "sim", "players": ["human", "human"]},
                            timeout=10).json()
    as_creator(page, created)  # a game being played is searched for its creator only
    return f"/play/{created['id']}/tree?nodes=500"


def test_on_a_phone_the_narration_is_just_below_the_tree(browser, base_url):
    context = browser.new_context(base_url=base_url, viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(sim_tree(base_url, page))
        expect(page.locator("[data-testid=search-tree] [data-node]").first).to_be_visible(timeout=10_000)
        _, tree_bottom, _, _ = page.evaluate(BOX, "[data-testid=search-tree]")
        narration_top = page.evaluate(BOX, "[data-testid=tree-narration]")[0]
        assert 0 <= narration_top - tree_bottom < 200, (tree_bottom, narration_top)
    finally:
        context.close()


def test_fit_to_screen_shows_the_whole_tree(browser, base_url):
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        page.goto(sim_tree(base_url, page))
        page.get_by_test_id("tree-all").click()
        expect(page.locator("[data-testid=search-tree] [data-node]").first).to_be_visible(timeout=10_000)
        before = page.evaluate(SVG)
        page.get_by_test_id("tree-fit").click()
        expect(page.get_by_test_id("tree-fit")).to_have_attribute("aria-pressed", "true")
        _, _, box_w, box_h = page.evaluate(BOX, "[data-testid=search-tree]")
        width, height = page.evaluate(SVG)
        assert width <= box_w and height <= box_h and (width, height) != tuple(before)
        assert page.get_by_test_id("tree-zoom").is_disabled()
    finally:
        context.close()
