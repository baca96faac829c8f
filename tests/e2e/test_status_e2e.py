"""The play page's status follows the server's state: a restart during the AI's search
leaves no stale "… is thinking…" or old progress, even when the cancelled search's last
events arrive after the restart."""

import time

import pytest
import requests
from playwright.sync_api import Page, expect


def server_thinking(base_url: str, game_id: str):
    return requests.get(f"{base_url}/api/games/{game_id}").json()["ai"]["thinking"]


@pytest.mark.parametrize("game, options, ai", [
    ("cantris", {"board": "10x5", "seed": 3}, "alphabeta:time=4"),   # deepens, with progress
    ("blacksin", {"hidden": True, "seed": 1}, "expecti:depth=0"),    # to the end: runs to the cap
])
def test_restart_during_the_ai_search(page: Page, base_url, game, options, ai):
    created = requests.post(f"{base_url}/api/games",
                            json={"game": game, "options": options, "players": ["human", ai]}).json()
    page.goto(created["seats"][0]["join_url"])
    page.get_by_test_id("speed").select_option("0")
    status, thinking = page.get_by_test_id("status"), page.get_by_test_id("thinking")
    expect(status).to_contain_text("Your move")
    for _ in range(2 if game == "cantris" else 1):  # 10x5: two removals a turn
        expect(status).to_contain_text("Your move")
        page.locator(".move-target").first.click()
    expect(status).to_contain_text("is thinking")
    expect(thinking).to_be_visible()
    if game == "cantris":
        expect(page.get_by_test_id("ai-progress")).to_contain_text("depth")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_test_id("restart").click()
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(0)
    expect(status).to_contain_text("Your move")
    expect(thinking).to_be_hidden()
    # the cancelled search ends on the server; the page still says what the server says
    deadline = time.time() + 15
    while server_thinking(base_url, created["id"]) is not None and time.time() < deadline:
        time.sleep(0.1)
    assert server_thinking(base_url, created["id"]) is None
    page.wait_for_timeout(300)  # any late event of the old search has arrived
    expect(status).to_contain_text("Your move")
    expect(thinking).to_be_hidden()
    # and the game goes on: the AI answers again
    for _ in range(2 if game == "cantris" else 1):
        expect(status).to_contain_text("Your move")
        page.locator(".move-target").first.click()
    expect(status).to_contain_text("is thinking")
