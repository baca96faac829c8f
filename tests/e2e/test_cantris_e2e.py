"""Cantris end to end in Chromium: a whole 6x3 game against the AI played by clicking tiles,
two humans on 10x5 in two pages (the A A B B turn order), and the seed's worked example with
its chain animated step by step."""

import re

import requests
from playwright.sync_api import Page, expect

WORKED = "0000/3321/2213/1132/4321/3214/2143/1432"  # the seed's example (8x4)
WORKED_AFTER = "0000/0001/0003/3302/4321/3214/2143/1432"  # after removing 3,2: 12 points

# The board as the page draws it: rows top to bottom, one digit a cell, 0 empty.
READ_BOARD = """([rows, cols]) => {
  const grid = Array.from({ length: rows }, () => Array(cols).fill(0));
  for (const t of document.querySelectorAll(".cantris-tile.real")) {
    const [r, c] = t.dataset.cell.split(",").map(Number);
    grid[r][c] = Number(t.dataset.value);
  }
  return grid.map((row) => row.join("")).join("/");
}"""

# Record every "+points" label the animation shows (they last a fraction of a second).
WATCH_GAINS = """() => {
  window.gains = [];
  const seen = new WeakSet();  // a label can come both as an added node and inside one
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) {
      if (node.nodeType !== 1) continue;
      for (const g of [node, ...node.querySelectorAll(".cantris-gain")]) {
        if (g.matches(".cantris-gain") && !seen.has(g)) { seen.add(g); window.gains.push(g.textContent); }
      }
    }
  }).observe(document.getElementById("board"), { childList: true, subtree: true });
}"""


def create(base_url, options, players):
    response = requests.post(f"{base_url}/api/games",
                             json={"game": "cantris", "options": options, "players": players})
    assert response.status_code == 201, response.text
    return response.json()


def api_state(base_url, game):
    return requests.get(f"{base_url}/api/games/{game['id']}").json()


def set_speed(page: Page, value: str) -> None:
    page.get_by_test_id("speed").select_option(value)


def settled(page: Page) -> None:
    """Wait until no animation is running: the page shows the real board."""
    expect(page.get_by_test_id("cantris-grid")).to_have_attribute("data-animating", "false")
    expect(page.locator(".cantris-anim")).to_have_count(0)


def board_text(page: Page, rows: int, cols: int) -> str:
    return page.evaluate(READ_BOARD, [rows, cols])


def moves_listed(page: Page):
    return page.get_by_test_id("move-list").locator("li")


def test_play_6x3_against_the_ai_to_the_end(page: Page, base_url):
    game = create(base_url, {"board": "6x3", "seed": 2024}, ["human", "alphabeta:depth=3"])
    page.goto(game["seats"][0]["join_url"])
    set_speed(page, "2")  # animated, fast: the AI's answer arrives mid-animation and queues
    status = page.get_by_test_id("status")
    expect(status).to_contain_text("Your move (A)")
    expect(page.locator(".cantris-tile.move-target")).to_have_count(18)  # every tile is a move
    expect(page.get_by_test_id("cantris-turn")).to_contain_text("A (you) to move")
    for _ in range(20):  # 18 tiles: A removes at most 9
        expect(status).to_contain_text(re.compile("Your move|Game over"))
        if "Game over" in status.inner_text():
            break
        before = moves_listed(page).count()
        settled(page)
        page.locator(".cantris-tile.move-target").first.click()
        expect(moves_listed(page)).not_to_have_count(before)
        expect(status).to_contain_text(re.compile("Your move|Game over"))
    expect(status).to_contain_text("Game over")
    settled(page)
    state = api_state(base_url, game)
    board = state["board"]
    assert state["status"] == "over"
    for seat in (0, 1):  # the scores shown are the server's
        expect(page.get_by_test_id(f"cantris-score-value-{seat}")).to_have_text(str(board["scores"][seat]))
    assert board_text(page, 6, 3) == "/".join("".join(map(str, row)) for row in board["cells"])
    result = page.get_by_test_id("cantris-result")
    expect(result).to_contain_text(state["result"]["reason"])
    winner = state["result"]["winner"]
    if winner is not None:
        expect(result).to_contain_text(f"{state['sides'][winner]} wins")
        expect(page.get_by_test_id(f"cantris-score-{winner}")).to_contain_text("wins")
    empty = [c for c, v in enumerate(board["cells"][-1]) if v == 0]
    assert empty, "the game ends on an empty column"
    marks = page.get_by_test_id("cantris-empty-col")
    expect(marks).to_have_count(len(empty))
    assert sorted(int(c) for c in marks.evaluate_all("els => els.map(e => e.dataset.col)")) == empty
    expect(page.locator(".move-target")).to_have_count(0)


def test_two_humans_on_10x5_take_two_removals_a_turn(page: Page, context, base_url):
    game = create(base_url, {"board": "10x5", "seed": 11}, ["human", "human"])
    a, b = page, context.new_page()
    a.goto(game["seats"][0]["join_url"])
    b.goto(game["seats"][1]["join_url"])
    set_speed(a, "0")
    turn = {p: p.get_by_test_id("cantris-turn") for p in (a, b)}
    main = {p: p.get_by_test_id("cantris-turn-main") for p in (a, b)}
    expect(main[a]).to_have_text("A (you): removal 1 of 2")
    expect(main[b]).to_have_text("A: removal 1 of 2")
    expect(a.get_by_test_id("status")).to_contain_text("Your move (A)")
    expect(b.get_by_test_id("status")).to_contain_text("A (human) to move")
    assert b.locator(".move-target").count() == 0

    a.locator('[data-move="0,0"]').click()
    # still A's turn, with one removal left; B's page shows A to move
    expect(main[a]).to_have_text("A (you): removal 2 of 2")
    expect(turn[a]).to_contain_text("1 removal left in this turn, then B")
    expect(a.get_by_test_id("status")).to_contain_text("Your move (A)")
    expect(main[b]).to_have_text("A: removal 2 of 2")
    expect(b.get_by_test_id("status")).to_contain_text("A (human) to move")
    expect(moves_listed(b)).to_have_count(1)
    assert b.locator(".move-target").count() == 0
    expect(a.locator('[data-cell="0,0"]')).to_have_count(0)  # the tile is gone in both pages
    expect(b.locator('[data-cell="0,0"]')).to_have_count(0)

    a.locator('[data-move="0,1"]').click()
    expect(main[b]).to_have_text("B (you): removal 1 of 2")
    expect(b.get_by_test_id("status")).to_contain_text("Your move (B)")
    expect(main[a]).to_have_text("B: removal 1 of 2")
    expect(a.locator(".move-target")).to_have_count(0)

    b.locator('[data-move="0,2"]').click()
    expect(main[b]).to_have_text("B (you): removal 2 of 2")
    expect(main[a]).to_have_text("B: removal 2 of 2")
    b.locator('[data-move="0,3"]').click()
    expect(main[a]).to_have_text("A (you): removal 1 of 2")
    expect(main[b]).to_have_text("A: removal 1 of 2")
    for p in (a, b):
        expect(moves_listed(p)).to_have_count(4)
        assert p.locator(".move-side").all_inner_texts() == ["A", "A", "B", "B"]
    scores = api_state(base_url, game)["board"]["scores"]
    for p in (a, b):
        for seat in (0, 1):
            expect(p.get_by_test_id(f"cantris-score-value-{seat}")).to_have_text(str(scores[seat]))


def test_the_seeds_worked_example_and_its_chain(page: Page, base_url):
    game = create(base_url, {"board": "8x4", "cells": WORKED}, ["human", "human"])
    page.goto(game["seats"][0]["join_url"])
    set_speed(page, "0")
    expect(page.get_by_test_id("status")).to_contain_text("Your move (A)")
    assert board_text(page, 8, 4) == WORKED
    # every tile is a move, empty cells are not
    expect(page.locator("[data-move]")).to_have_count(28)
    # the hint is drawn on its tile
    page.get_by_test_id("hint").click()
    hinted = page.locator(".cantris-tile.hinted")
    expect(hinted).to_have_count(1)
    expect(page.get_by_test_id("hint-box").locator("code")).to_have_text(hinted.get_attribute("data-move"))

    page.locator('[data-move="3,2"]').click()
    expect(page.get_by_test_id("cantris-score-value-0")).to_have_text("12")
    settled(page)
    assert board_text(page, 8, 4) == WORKED_AFTER
    expect(page.get_by_test_id("cantris-last")).to_contain_text("A removed 3,2: +3, chain +9 = 12")
    expect(page.locator(".cantris-tile.hinted")).to_have_count(0)

    # the same move animated: the removal pops with +3, then the two runs clear with +6 and +3
    game = create(base_url, {"board": "8x4", "cells": WORKED}, ["human", "human"])
    page.goto(game["seats"][0]["join_url"])
    set_speed(page, "1")
    expect(page.get_by_test_id("status")).to_contain_text("Your move (A)")
    page.evaluate(WATCH_GAINS)
    page.locator('[data-move="3,2"]').click()
    expect(page.get_by_test_id("cantris-score-value-0")).to_have_text("12")
    page.wait_for_function("() => window.gains.length >= 3")
    settled(page)
    assert page.evaluate("window.gains") == ["+3", "+6", "+3"]
    assert board_text(page, 8, 4) == WORKED_AFTER


# Record, on every frame, whether the "empty column" mark showed while the tiles still fell.
WATCH_EMPTY_MARK = """() => {
  window.markWhileFalling = false;
  window.endAnimated = false;
  const frame = () => {
    const grid = document.querySelector(".cantris-grid");
    const mark = document.querySelector(".cantris-empty-col");
    if (grid && mark && grid.dataset.animating === "true") {
      window.endAnimated = true;
      if (getComputedStyle(mark).display !== "none" && getComputedStyle(mark).visibility !== "hidden") {
        window.markWhileFalling = true;
      }
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}"""


def test_the_empty_column_is_marked_once_the_tiles_have_fallen(page: Page, base_url):
    game = create(base_url, {"board": "6x3", "seed": 2024}, ["human", "alphabeta:depth=3"])
    page.goto(game["seats"][0]["join_url"])
    set_speed(page, "1")  # animated at the normal pace
    page.evaluate(WATCH_EMPTY_MARK)
    status = page.get_by_test_id("status")
    for _ in range(20):
        expect(status).to_contain_text(re.compile("Your move|Game over"))
        if "Game over" in status.inner_text():
            break
        settled(page)
        page.locator(".cantris-tile.move-target").first.click()
        expect(status).not_to_contain_text("Your move")
    expect(status).to_contain_text("Game over")
    settled(page)
    expect(page.get_by_test_id("cantris-empty-col").first).to_be_visible()
    assert page.evaluate("window.endAnimated"), "the last move was animated with the game over"
    assert not page.evaluate("window.markWhileFalling"), "the empty column was marked over falling tiles"
