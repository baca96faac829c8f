"""The teaching tools in Chromium: the search tree of a Nim position stepped through, Compare
on the play page, and a quick arena preset with its table, chart and CSV export."""

import re

from playwright.sync_api import Page, expect

from tests.helpers import as_creator


def create_game(page: Page, piles: str, players=("human", "human")) -> str:
    r = page.request.post("/api/games", data={"game": "nim", "options": {"piles": piles}, "players": list(players)})
    assert r.status == 201, r.text()
    as_creator(page, r.json())  # a game being played is searched for its creator only
    return r.json()["id"]


def drawn(page: Page) -> int:
    return page.locator("[data-testid=search-tree] [data-node]").count()


def test_tree_of_a_nim_position_steps_through(page: Page):
    gid = create_game(page, "3,2")
    page.goto(f"/play/{gid}/tree?algo=alphabeta&depth=0&nodes=200")
    summary = page.get_by_test_id("tree-summary")
    expect(summary).to_contain_text(re.compile(r"Drew \d+ of the \d+ nodes searched"))
    tree = page.get_by_test_id("search-tree")
    expect(tree.locator("[data-node]")).to_have_count(1)  # the root, entered
    expect(page.get_by_test_id("tree-narration")).to_contain_text("root")
    counts = [drawn(page)]
    for _ in range(3):
        page.get_by_test_id("tree-step").click()
        counts.append(drawn(page))
    page.keyboard.press("ArrowRight")
    counts.append(drawn(page))
    assert counts == sorted(counts) and counts[-1] > counts[0]
    expect(page.get_by_test_id("tree-step-count")).to_contain_text("step 5 /")
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_test_id("tree-step-count")).to_contain_text("step 4 /")
    # play, then pause: the playback moves on by itself
    page.get_by_test_id("tree-speed").select_option("32")
    page.get_by_test_id("tree-play").click()
    expect(page.get_by_test_id("tree-pause")).to_be_visible()
    page.wait_for_function("() => document.querySelectorAll('[data-testid=search-tree] [data-node]').length > 8")
    page.get_by_test_id("tree-pause").click()
    expect(page.get_by_test_id("tree-play")).to_be_visible()
    # the whole search: cut-offs visible as pruned stubs, the root valued, the PV lit
    page.get_by_test_id("tree-all").click()
    total = int(re.search(r"Drew (\d+) of", summary.inner_text()).group(1))
    pruned = tree.locator("[data-pruned]")
    assert pruned.count() > 0
    assert all(int(p.get_attribute("data-pruned")) > 0 for p in pruned.all())
    assert drawn(page) == total + pruned.count()
    expect(tree.locator("[data-cutoff]").first).to_be_visible()
    expect(tree.locator("[data-node='0'] .tn-value")).to_have_text("W3")
    assert tree.locator(".tn.pv").count() >= 2
    expect(page.get_by_test_id("tree-narration")).to_contain_text("Best move 1:1")
    expect(page.get_by_test_id("tree-download")).to_have_attribute("download", re.compile(r"trace-nim-.*\.json"))
    # another algorithm: plain minimax prunes nothing
    page.get_by_test_id("tree-algo").select_option("minimax")
    page.get_by_test_id("tree-search").click()
    expect(summary).to_contain_text("minimax:depth=0")
    page.get_by_test_id("tree-all").click()
    assert tree.locator("[data-pruned]").count() == 0


def test_compare_and_score_chart_on_the_play_page(page: Page):
    gid = create_game(page, "3,4,5", ("alphabeta:depth=2", "alphabeta:depth=2"))
    page.goto(f"/play/{gid}")
    expect(page.get_by_test_id("status")).to_contain_text("Game over", timeout=15000)
    expect(page.get_by_test_id("score-chart").locator("circle").first).to_be_visible()
    expect(page.get_by_test_id("score-chart").locator("circle title").first).to_contain_text(
        re.compile(r"— (win in \d+|loss in \d+|[+-]\d[\d.]*) for the mover"))  # the score in the engine's words
    # pick the position after ply 2 from the move list
    page.get_by_test_id("move-list").locator("li").nth(1).click()
    expect(page.get_by_test_id("teach-position")).to_contain_text("after ply 2")
    expect(page.get_by_test_id("open-tree")).to_have_attribute("href", re.compile(r"ply=2"))
    page.get_by_test_id("teach-depth").fill("0")
    page.get_by_test_id("compare").click()
    verdict = page.get_by_test_id("compare-verdict")
    expect(verdict).to_contain_text("All 9 values are equal")
    expect(verdict).to_have_attribute("data-agree", "true")
    values = page.get_by_test_id("compare-table").locator("td.value").all_inner_texts()
    assert len(values) == 9 and len(set(values)) == 1
    # theory next to the search
    page.get_by_test_id("theory-toggle").click()
    expect(page.get_by_test_id("theory-verdict")).to_contain_text("The search agrees")


def test_arena_quick_preset_table_chart_and_csv(page: Page):
    page.goto("/arena")
    card = page.locator("[data-preset=nim-quick]")
    card.get_by_test_id("preset-games").fill("8")
    card.get_by_test_id("preset-run").click()
    row = page.get_by_test_id("arena-table").locator("tbody tr").filter(has_text="Nim 3,4,5: perfect play")
    expect(row).to_have_count(1)
    expect(row.locator("[data-col=wins]")).to_have_text("8", timeout=15000)
    expect(row).to_contain_text("8 / 8")
    expect(page.get_by_test_id("arena-progress").first).to_have_attribute("aria-valuenow", "8")
    expect(page.get_by_test_id("arena-chart").locator("svg").first).to_be_visible()
    href = row.get_by_test_id("export-csv").get_attribute("href")
    assert re.fullmatch(r"/api/arena/[\w-]+\.csv", href)
    csv_text = page.request.get(href).text()
    assert csv_text.startswith("id,preset,status,game") and ",nim-quick,done,nim," in csv_text


def test_arena_run_can_be_cancelled(page: Page):
    page.goto("/arena")
    page.get_by_test_id("custom-options").fill("piles=3,4,5")
    page.get_by_test_id("custom-a").fill("minimax")
    page.get_by_test_id("custom-games").fill("500")
    page.get_by_test_id("custom-run").click()
    cancel = page.get_by_test_id("arena-cancel")
    expect(cancel).to_be_visible()
    cancel.click()
    expect(page.get_by_test_id("arena-status").first).to_have_text("cancelled", timeout=10000)
