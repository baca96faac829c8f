"""Nim's sticks as targets: a touch beside a stick (in the gap) still takes it, and the
keyboard's focus shows which sticks its move takes."""

import requests
from playwright.sync_api import Page, expect


def test_a_stick_is_a_wide_target_and_the_focus_shows_the_take(page: Page, base_url):
    game = requests.post(f"{base_url}/api/games", json={"game": "nim", "players": ["human", "human"]},
                         timeout=10).json()
    page.goto(game["seats"][0]["join_url"])
    expect(page.get_by_test_id("status")).to_contain_text("Your move")
    stick = page.locator('.nim-stick[data-move="3:2"]')
    box = stick.bounding_box()
    stick.focus()
    # the focused stick and the one to its right are marked as taken
    expect(page.locator('.nim-pile[data-pile="3"] .nim-stick.to-take')).to_have_count(2)
    stick.blur()
    expect(page.locator(".nim-stick.to-take")).to_have_count(0)
    # a tap 4 px left of the stick's edge, in the gap, plays it
    page.mouse.click(box["x"] - 4, box["y"] + box["height"] / 2)
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(1)
    expect(page.get_by_test_id("move-list").locator("li code")).to_have_text("3:2")
