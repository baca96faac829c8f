"""The search-tree page's Monte Carlo view, as a person uses it: switch to it, search, step
through the simulations (each node's visits grow as the trace says), the solver's proofs, the
alpha-beta choice beside it and back to the alpha-beta tree; at 1280 px and on a phone; axe
finds no serious or critical violation."""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_a11y import serious_violations
from tests.e2e.test_layout import fits
from tests.helpers import as_creator


def create_game(page: Page, game: str, options: dict) -> str:
    r = page.request.post("/api/games", data={"game": game, "options": options, "players": ["human", "human"]})
    assert r.status == 201, r.text()
    as_creator(page, r.json())  # a game being played is searched for its creator only
    return r.json()["id"]


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_mcts_view_steps_through_the_simulations(page: Page, width, height):
    page.set_viewport_size({"width": width, "height": height})
    gid = create_game(page, "nim", {"piles": "2,3"})
    page.goto(f"/play/{gid}/tree")
    page.get_by_role("button", name="Monte Carlo tree search").click()
    expect(page.get_by_test_id("mcts-view")).to_be_visible()
    expect(page.get_by_test_id("search-tree")).to_be_hidden()
    count = page.get_by_test_id("mcts-step-count")
    expect(count).to_have_text("simulation 200 of 200", timeout=15_000)  # it opens on a search at the defaults
    page.get_by_test_id("mcts-sims").fill("40")
    page.get_by_test_id("mcts-solver").check()
    page.get_by_test_id("mcts-search").click()
    expect(count).to_have_text(re.compile(r"^simulation ([1-9]|[1-3]\d|40) of \1$"))  # the solver may stop early
    total = int(count.inner_text().split()[-1])
    tree = page.get_by_test_id("mcts-tree")
    root = tree.locator('[data-node=""] > .mcts-node-label')
    expect(root).to_contain_text(f"n {total}")

    page.get_by_test_id("mcts-reset").click()
    expect(count).to_have_text(f"simulation 0 of {total}")
    expect(tree.locator("[data-node]")).to_have_count(1)  # the root alone
    page.get_by_test_id("mcts-step").click()
    expect(count).to_have_text(f"simulation 1 of {total}")
    expect(tree.locator(".on-path")).to_have_count(2)  # the root and the node the first simulation added
    expect(tree.locator(".mcts-new")).to_have_count(1)
    expect(page.get_by_test_id("mcts-narration")).to_contain_text("Simulation 1: selection down")
    expect(root).to_contain_text("n 1")

    page.get_by_test_id("mcts-all").click()
    expect(root).to_contain_text(f"n {total}")
    expect(root).to_contain_text("proved: First wins")  # misère 2,3 is solved within 40 simulations
    versus = page.get_by_test_id("mcts-versus")
    expect(versus).to_contain_text("Alpha-beta")
    expect(versus).not_to_contain_text("…")  # alpha-beta's column filled in
    expect(versus.locator("tr").nth(1)).to_contain_text("2:1")  # both find the winning move of 2,3
    expect(versus.locator("tr").nth(2)).to_contain_text(re.compile(r"win in \d+ \(proved\)"))  # the engine's words
    if shots := os.environ.get("ARCADE_SHOTS"):  # a folder to look at the page in
        page.screenshot(path=f"{shots}/mcts-tree-{width}.png", full_page=True)
    fits(page, f"the MCTS view at {width} px")
    page.get_by_test_id("mcts-open-alphabeta").click()
    expect(page.get_by_test_id("search-tree")).to_be_visible()
    expect(page.get_by_test_id("mcts-view")).to_be_hidden()


def test_mcts_view_opens_from_its_address_and_passes_axe(browser, base_url):
    context = browser.new_context(base_url=base_url, bypass_csp=True, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    gid = create_game(page, "sim", {})
    page.goto(f"/play/{gid}/tree?family=mcts")
    # (the alpha-beta view behind it searches Sim to the end first: up to the server's time cap)
    expect(page.get_by_test_id("mcts-step-count")).to_have_text(re.compile(r"simulation 200 of 200"), timeout=20_000)
    expect(page.get_by_test_id("mcts-versus")).not_to_contain_text("…", timeout=15_000)
    assert serious_violations(page) == []
    context.close()


def test_compare_shows_mcts_beside_the_ladder(browser, base_url):
    context = browser.new_context(base_url=base_url, bypass_csp=True, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    gid = create_game(page, "nim", {"piles": "2,3,4"})
    page.goto(f"/play/{gid}")
    page.get_by_test_id("teach-depth").fill("0")
    page.get_by_test_id("compare").click()
    expect(page.get_by_test_id("compare-verdict")).to_have_attribute("data-agree", "true", timeout=20_000)
    block = page.get_by_test_id("compare-mcts")
    rows = block.locator("tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("as many states as the full engine")
    expect(rows.nth(1)).to_contain_text("as much time as the full engine")
    expect(block).to_contain_text("not a minimax value")
    if shots := os.environ.get("ARCADE_SHOTS"):
        block.screenshot(path=f"{shots}/compare-mcts.png")
    assert serious_violations(page) == []
    context.close()


def test_a_link_to_the_mcts_view_opens_it_even_when_its_script_arrives_last(page: Page):
    """A loaded server (CI) sent the alpha-beta script's search before the MCTS script came: the
    alpha-beta view rewrote the address without ``family=mcts``, and the page stayed on
    alpha-beta. Here the MCTS script is held until the alpha-beta view has written its address."""
    gid = create_game(page, "nim", {"piles": "2,3"})
    held = []
    page.route("**/js/mcts-tree.js*", lambda route: held.append(route))  # (not continued: the browser waits)
    page.goto(f"/play/{gid}/tree?family=mcts", wait_until="commit")
    expect(page).to_have_url(re.compile(r"[?&]algo="))  # the alpha-beta view searched and wrote its address
    assert len(held) == 1
    held[0].continue_()
    expect(page.get_by_test_id("mcts-view")).to_be_visible()
    expect(page.get_by_role("button", name="Monte Carlo tree search")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("mcts-step-count")).to_have_text("simulation 200 of 200", timeout=30_000)


@pytest.mark.parametrize("game,options", [
    ("nim", {"piles": "3,4,5"}), ("sim", {}), ("shannon", {"board": "bridgit-3"}),
    ("blacksin", {"seed": 3, "hidden": True}), ("cantris", {"board": "6x3", "seed": 2}),
])
def test_every_game_has_its_mcts_tree(page: Page, game, options):
    gid = create_game(page, game, options)
    page.goto(f"/play/{gid}/tree?family=mcts")
    count = page.get_by_test_id("mcts-step-count")
    # (the alpha-beta view behind it searches first, in the test server's own threads, up to its time cap)
    expect(count).to_have_text("simulation 200 of 200", timeout=30_000)
    nodes = page.get_by_test_id("mcts-tree").locator("[data-node]")
    assert nodes.count() > 10
    page.get_by_test_id("mcts-back").click()
    expect(count).to_have_text("simulation 199 of 200")
    expect(page.get_by_test_id("mcts-narration")).to_contain_text("Simulation 199: selection down")
