"""The play page's status follows the server's state: a restart during the AI's search
leaves no stale "… is thinking…" or old progress, even when the cancelled search's last
events arrive after the restart. The game-over line is coloured by the viewer's result; the
invite link survives a reload and has a Copy button."""

import re

import pytest
import requests
from playwright.sync_api import Page, expect

from tests.helpers import eventually


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
    eventually(lambda: server_thinking(base_url, created["id"]), lambda thinking: thinking is None, every=0.1,
               what="the cancelled search to end on the server")
    page.wait_for_timeout(300)  # any late event of the old search has arrived
    expect(status).to_contain_text("Your move")
    expect(thinking).to_be_hidden()
    # and the game goes on: the AI answers again
    for _ in range(2 if game == "cantris" else 1):
        expect(status).to_contain_text("Your move")
        page.locator(".move-target").first.click()
    expect(status).to_contain_text("is thinking")


def test_game_over_line_is_coloured_by_each_viewers_result(page: Page, context, base_url):
    game = requests.post(f"{base_url}/api/games", json={
        "game": "nim", "options": {"piles": [2]}, "players": ["human", "human"]}).json()
    loser, winner, spectator = page, context.new_page(), context.new_page()
    loser.goto(game["seats"][0]["join_url"])
    winner.goto(game["seats"][1]["join_url"])
    spectator.goto(game["url"])
    loser.locator('[data-move="1:2"]').click()  # misère: whoever takes the last stick loses
    colours = {}
    for who, result in ((loser, "loss"), (winner, "win"), (spectator, "spectator")):
        status = who.get_by_test_id("status")
        expect(status).to_contain_text("Game over")
        expect(status).to_have_attribute("data-result", result)
        colours[result] = status.evaluate("e => getComputedStyle(e).color")
    assert len(set(colours.values())) == 3  # a loss is never shown in the winner's green


def test_invite_link_survives_a_reload_with_a_copy_button(page: Page):
    page.goto("/?game=nim")
    page.get_by_test_id("seat-1-kind").select_option("human")
    page.get_by_test_id("create").click()
    invites = page.get_by_test_id("invites")
    expect(invites.locator("a").first).to_have_attribute("href", re.compile(r"/play/[\w-]+\?token="))
    page.reload()
    expect(invites.locator("a").first).to_have_attribute("href", re.compile(r"/play/[\w-]+\?token="))
    expect(invites.get_by_test_id("copy-invite").first).to_be_visible()


def test_a_side_and_its_player_read_as_one_sentence(page: Page, base_url):
    """The computer is named as the lobby's level once, never in doubled parentheses."""
    game = requests.post(f"{base_url}/api/games", json={
        "game": "nim", "options": {"piles": [2]}, "players": ["human", "alphabeta:strength=5"]}).json()
    page.goto(game["seats"][0]["join_url"])
    seats = page.get_by_test_id("seats")
    expect(seats).to_contain_text("First (you)")
    expect(seats).to_contain_text("Second: Computer (club)")  # as the lobby names it
    page.locator('[data-move="1:2"]').click()  # misère: taking the last stick loses
    status = page.get_by_test_id("status")
    expect(status).to_contain_text("Game over: Second wins — the computer (club);")
    expect(status).to_contain_text("You lose.")
    for text in (status.inner_text(), seats.inner_text()):
        assert "((" not in text and "))" not in text and "(Computer" not in text
