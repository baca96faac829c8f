"""Accessibility: axe-core (vendored from its npm package, tests/e2e/vendor) finds no serious or
critical violation on the lobby, every game's play page, the tree, the arena and the lessons.

The pages' CSP (script-src 'self') refuses injected scripts, so these pages open in a context
that bypasses it: the test injects axe, the pages themselves are unchanged."""

import re
from pathlib import Path

import pytest
import requests
from playwright.sync_api import Page, expect

from tests.helpers import as_creator

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"

# Every rule axe runs by default, plus label-content-name-mismatch (experimental in axe: a
# control whose accessible name does not contain its visible text, which speech users say).
RUN_AXE = """async () => {
  const result = await axe.run(document, { rules: { "label-content-name-mismatch": { enabled: true } } });
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}) x${v.nodes.length}: `
      + v.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(", "));
}"""

GAMES = {
    "nim": {},
    "sim": {},
    "shannon": {"board": "random", "seed": 226},
    "blacksin": {"seed": 3},
    "cantris": {"board": "10x5", "seed": 3},
}


@pytest.fixture
def axe_page(browser, base_url):
    context = browser.new_context(base_url=base_url, bypass_csp=True)
    yield context.new_page()
    context.close()


# axe reads the colours of the frame it runs in: audit the page at rest, once every finite
# animation has played (mid-deal a Blacksin card is still fading in, and its corner reads faint
# for that frame: seen as a flaky colour-contrast failure on card 18 of seed 3)
AT_REST = """() => document.getAnimations().every(
  (a) => a.playState !== "running" || a.effect.getComputedTiming().endTime === Infinity)"""


def serious_violations(page: Page) -> list[str]:
    page.wait_for_function(AT_REST)
    page.add_script_tag(path=str(AXE))
    return page.evaluate(RUN_AXE)


def new_game(base_url: str, game: str) -> dict:
    return requests.post(f"{base_url}/api/games", json={
        "game": game, "options": GAMES[game], "players": ["human", "alphabeta:depth=2"]}).json()


@pytest.mark.parametrize("path", ["/", "/?game=shannon", "/lessons", "/arena"])
def test_site_pages(axe_page: Page, path):
    axe_page.goto(path)
    axe_page.wait_for_load_state("networkidle")
    assert serious_violations(axe_page) == []


@pytest.mark.parametrize("game", list(GAMES))
def test_play_pages(axe_page: Page, base_url, game):
    axe_page.goto(new_game(base_url, game)["seats"][0]["join_url"])
    expect(axe_page.get_by_test_id("status")).to_contain_text("Your move")
    expect(axe_page.locator(".move-target").first).to_be_visible()
    assert serious_violations(axe_page) == []


def test_tree_page(axe_page: Page, base_url):
    created = new_game(base_url, "nim")
    as_creator(axe_page, created)  # a game being played is searched for its creator only
    axe_page.goto(f"/play/{created['id']}/tree")
    expect(axe_page.get_by_test_id("search-tree").locator("[data-node]").first).to_be_attached()
    assert serious_violations(axe_page) == []


def test_replay_page(axe_page: Page, base_url):
    game = new_game(base_url, "nim")
    axe_page.goto(f"/replay/{game['id']}")
    expect(axe_page.get_by_test_id("replay-status")).to_contain_text("Start position")
    assert serious_violations(axe_page) == []


IN_BOARD = "() => !!document.activeElement.closest('#board')"


@pytest.mark.parametrize("game", ["nim", "sim", "cantris"])
def test_keyboard_play_keeps_focus_on_the_board(page: Page, base_url, game):
    """Moves played with Tab and Enter: after each move and the AI's answer the focus is still
    on the board (never on <body>), and each target says its move in words."""
    page.goto(new_game(base_url, game)["seats"][0]["join_url"])
    page.get_by_test_id("speed").select_option("0")
    status = page.get_by_test_id("status")
    expect(status).to_contain_text("Your move")
    label = page.locator("#board .move-target").first.get_attribute("aria-label")
    assert {"nim": "take ", "sim": "draw ", "cantris": ": remove the tile in row "}[game] in label
    page.locator("#board .move-target").last.focus()  # Nim: take one stick, the game goes on
    for turn in range(2):
        before = page.get_by_test_id("move-list").locator("li").count()
        page.keyboard.press("Enter")
        expect(page.get_by_test_id("move-list").locator("li")).not_to_have_count(before)
        assert page.evaluate(IN_BOARD)
        expect(status).to_contain_text(re.compile("Your move|Game over"))
        assert page.evaluate(IN_BOARD)
        if "Game over" in status.inner_text():
            assert turn > 0
            break
        assert page.evaluate("() => document.activeElement.classList.contains('move-target')")
