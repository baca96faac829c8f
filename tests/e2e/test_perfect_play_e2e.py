"""The play page's "Perfect play" switch: the exact verdict on each legal move, read from the
page and checked against engine.analyse; open to everyone once the game is over, to the
game's creator at any time."""

import re
from pathlib import Path

import pytest
import requests
from playwright.sync_api import Page, expect

from engine import analyse
from engine.games import get_game
from tests.e2e.test_a11y import serious_violations
from tests.e2e.test_nim_e2e import start_from_lobby

SHOTS = Path(__file__).resolve().parents[2] / "test-results"
WORDS = {"win": "wins", "loss": "loses", "draw": "draws"}


def expected(piles: str, moves: list[str]) -> dict[str, str]:
    """Each legal move's verdict in the page's words ("wins in 3"), by the engine."""
    nim = get_game("nim").from_options({"piles": piles})
    state = nim.start()
    for move in moves:
        state = nim.push_notation(state, move)
    out = {}
    for m in analyse.analyse(nim, state)["moves"]:
        words = WORDS[m["outcome"]]
        out[m["move"]] = f"{words} in {m['distance']}" if m["distance"] else words
    return out


def shown(page: Page) -> dict[str, str]:
    items = page.get_by_test_id("perfect-moves").locator("li")
    return {items.nth(i).get_attribute("data-move"): items.nth(i).locator(".verdict-words").inner_text()
            for i in range(items.count())}


def played(page: Page) -> list[str]:
    return page.get_by_test_id("move-list").locator("code.move-notation").all_inner_texts()


@pytest.fixture
def axe_context(browser, base_url):
    context = browser.new_context(base_url=base_url, bypass_csp=True)
    yield context
    context.close()


def test_perfect_play_after_a_nim_game_finished_by_clicking(axe_context, base_url):
    page = axe_context.new_page()
    start_from_lobby(page, "2,3")
    status = page.get_by_test_id("status")
    for _ in range(10):
        expect(status).to_contain_text(re.compile("Your move|Game over"))
        if "Game over" in status.inner_text():
            break
        page.locator(".move-target[data-move]").first.click()
        expect(status).not_to_contain_text("Your move")
    expect(status).to_contain_text("Game over")
    moves = played(page)
    switch = page.get_by_test_id("perfect-play")
    expect(switch).to_be_enabled()
    switch.check()
    # the last position with a move to judge: the one before the final move
    expect(page.get_by_test_id("perfect-box")).to_contain_text(f"after ply {len(moves) - 1}")
    expect(page.get_by_test_id("perfect-moves").locator("li")).not_to_have_count(0)
    assert shown(page) == expected("2,3", moves[:-1])
    # an earlier position, picked in the move list as the teaching panel does
    page.get_by_test_id("move-list").locator("li").first.click()
    expect(page.get_by_test_id("perfect-box")).to_contain_text("after ply 1")
    expect(page.get_by_test_id("perfect-box")).not_to_contain_text("null")
    want = expected("2,3", moves[:1])
    expect(page.get_by_test_id("perfect-moves").locator("li")).to_have_count(len(want))
    assert shown(page) == want
    for move, words in want.items():
        item = page.get_by_test_id("perfect-moves").locator(f'li[data-move="{move}"]')
        expect(item).to_have_attribute("aria-label", re.compile(f"{words}$"))
        expect(item.locator(".verdict-mark")).not_to_be_empty()  # a mark, not colour alone
        # the board shows that position, its moves coloured, the verdict in each one's tooltip
        stick = page.locator(f'#board [data-move="{move}"]')
        expect(stick).to_have_attribute("data-verdict", item.get_attribute("data-verdict"))
        expect(stick).to_have_attribute("title", re.compile(f": {words}$"))
    expect(page.get_by_test_id("perfect-on-board")).to_be_visible()
    piles_then = page.locator(".nim-count").all_inner_texts()
    assert serious_violations(page) == []
    nim = get_game("nim").from_options({"piles": "2,3"})
    assert piles_then == [str(n) for n in nim.position(nim.push_notation(nim.start(), moves[0]))["board"]["piles"]]
    SHOTS.mkdir(exist_ok=True)
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.get_by_test_id("perfect-panel").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"perfect-play-{width}.png"), full_page=True)
    # off: the board is back at the end of the game
    switch.uncheck()
    expect(page.locator("#board [data-verdict]")).to_have_count(0)
    expect(page.get_by_test_id("perfect-box")).to_be_hidden()


def test_the_creator_may_see_it_while_playing_and_a_spectator_may_not(axe_context, browser, base_url):
    page = axe_context.new_page()
    start_from_lobby(page, "2,3")
    expect(page.get_by_test_id("status")).to_contain_text("Your move")
    page.get_by_test_id("perfect-play").check()
    want = expected("2,3", [])
    expect(page.get_by_test_id("perfect-moves").locator("li")).to_have_count(len(want))
    assert shown(page) == want
    # the board itself is coloured: each stick carries its move's verdict in its name
    for move, words in want.items():
        stick = page.locator(f'#board [data-move="{move}"]')
        expect(stick).to_have_attribute("aria-label", re.compile(f"perfect play: {words}$"))
    assert serious_violations(page) == []  # the coloured board too
    spectator = browser.new_context(base_url=base_url).new_page()
    spectator.goto(page.url.split("?")[0])
    expect(spectator.get_by_test_id("status")).not_to_contain_text("Connecting")
    expect(spectator.get_by_test_id("perfect-play")).to_be_disabled()
    expect(spectator.get_by_test_id("perfect-why")).to_contain_text("once the game is over")
    spectator.context.close()


def test_a_position_too_big_to_solve_says_so_plainly(page: Page, base_url):
    res = requests.post(f"{base_url}/api/games", json={"game": "cantris", "options": {"board": "10x5", "seed": 3},
                                                       "players": ["human", "human"]}, timeout=10)
    body = res.json()
    page.goto("/")
    # as the lobby does for a game it creates: the creator's manage token, where the page reads it
    page.evaluate("([id, token]) => localStorage.setItem(`arcade.manage.${id}`, token)",
                  [body["id"], body["manage_token"]])
    page.goto(body["seats"][0]["join_url"])
    expect(page.get_by_test_id("status")).to_contain_text("Your move")
    page.get_by_test_id("perfect-play").check()
    note = page.get_by_test_id("perfect-note")
    # one sentence, with the search's best moves in words, instead of a row per unsolved move (issue 40)
    expect(note).to_contain_text(re.compile(r"too big to solve here\. A search finds .+ best \(((good for (A|B))|even) "
                                            r"after a \d+-move search\)"), timeout=30_000)
    expect(page.get_by_test_id("perfect-moves").locator('li[data-verdict="unknown"]')).to_have_count(0)
