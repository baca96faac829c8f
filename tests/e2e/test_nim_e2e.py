"""Nim end to end in Chromium: lobby -> game against the AI -> played to the end by clicking."""

import re

from playwright.sync_api import Page, expect


def start_from_lobby(page: Page, piles: str = "3,4,5") -> None:
    page.goto("/?game=nim")
    page.fill("#opt-piles", piles)
    expect(page.get_by_test_id("seat-1-kind")).to_have_value("ai")
    page.get_by_test_id("create").click()
    expect(page).to_have_url(re.compile(r"/play/[\w-]+\?token="))


def board_piles(page: Page) -> list[str]:
    return page.locator(".nim-count").all_inner_texts()


def test_play_nim_against_the_ai_to_the_end(page: Page):
    start_from_lobby(page)
    status = page.get_by_test_id("status")
    expect(status).to_contain_text("Your move")
    for _ in range(20):
        if "Game over" in status.inner_text():
            break
        expect(status).to_contain_text(re.compile("Your move|Game over"))
        if "Game over" in status.inner_text():
            break
        before = len(page.get_by_test_id("move-list").locator("li").all())
        page.locator(".move-target[data-move]").first.click()
        # our move and the AI's answer both land in the move list (or the game ends)
        expect(page.get_by_test_id("move-list").locator("li")).not_to_have_count(before)
        expect(status).to_contain_text(re.compile("Your move|Game over"))
    expect(status).to_contain_text("Game over")
    # 3,4,5 is a first-player win, but a player who clicks the first stick loses to perfect play
    expect(status).to_contain_text("You lose")
    stats = page.get_by_test_id("ai-stats")
    expect(stats).to_contain_text("Nodes")
    nodes = int(stats.locator("[data-stat=nodes]").inner_text().replace(",", ""))
    assert nodes > 0


def test_spectator_sees_the_same_moves_and_reload_resumes(page: Page, context):
    start_from_lobby(page, "2,3,4")
    player_url = page.url
    spectator = context.new_page()
    spectator.goto(player_url.split("?")[0])
    expect(spectator.get_by_test_id("seats")).to_contain_text("You are watching")
    page.locator('[data-move="3:1"]').click()
    # the AI answers: two moves in both move lists
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(2)
    expect(spectator.get_by_test_id("move-list").locator("li")).to_have_count(2)
    assert board_piles(spectator) == board_piles(page)
    # a spectator's page offers no move targets
    assert spectator.locator(".move-target").count() == 0
    # reloading the player's page rejoins with the full state and the seat
    page.reload()
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(2)
    expect(page.get_by_test_id("status")).to_contain_text("Your move")
    assert page.locator(".move-target").count() > 0


def test_a_named_level_in_the_lobby_plays_at_that_strength(page: Page):
    page.goto("/?game=nim")
    page.get_by_test_id("seat-1-level").select_option("1")
    expect(page.get_by_test_id("seat-1-spec")).to_have_value("alphabeta:strength=1")
    expect(page.get_by_test_id("seat-1-depth")).to_be_disabled()
    page.get_by_test_id("create").click()
    expect(page).to_have_url(re.compile(r"/play/[\w-]+\?token="))
    expect(page.get_by_test_id("seats")).to_contain_text("Computer (beginner)")
    page.locator('[data-move="1:1"]').click()
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(2)  # the level-1 AI answered
