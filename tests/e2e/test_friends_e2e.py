"""Two people at one game: the invite names the friend's side, the page says when the friend
has left (not "not here yet"), and the asker hears when a takeback is declined."""

import re

from playwright.sync_api import Page, expect


def test_two_friends_invite_leave_and_decline(page: Page, context):
    page.goto("/?game=nim")
    page.get_by_test_id("seat-1-kind").select_option("human")
    page.get_by_test_id("create").click()
    expect(page).to_have_url(re.compile(r"/play/[\w-]+\?token="))
    invites = page.get_by_test_id("invites")
    expect(invites).to_contain_text("Second (send to your friend)")
    expect(page.get_by_test_id("pause")).to_be_hidden()  # no AI: nothing to pause
    friend = context.new_page()
    friend.goto(invites.locator("a").first.get_attribute("href"))
    expect(page.get_by_test_id("presence-1")).to_have_text("here")
    page.locator('[data-move="2:2"]').click()
    expect(friend.get_by_test_id("move-list").locator("li")).to_have_count(1)
    page.get_by_test_id("takeback").click()
    friend.get_by_test_id("takeback-decline").click()
    expect(page.get_by_test_id("error")).to_contain_text("declined your takeback")
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(1)
    friend.close()
    expect(page.get_by_test_id("presence-1")).to_have_text("left the game page")
