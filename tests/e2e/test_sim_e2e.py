"""Sim end to end in Chromium: a whole game against the perfect AI, two humans in two pages,
and the hint drawn on its segment. Moves are played by clicking the segments."""

import re

import requests
from playwright.sync_api import Page, expect
from svg_lines import line_point


def click_segment(page: Page, move: str) -> None:
    """A real click on the segment's line: its middle, or for a long diagonal (the three meet
    at the centre, where no click can tell them apart) 40 % along it."""
    segment = page.locator(f'.sim-seg.move-target[data-move="{move}"]')
    expect(segment).to_have_count(1)
    segment.scroll_into_view_if_needed()
    a, b = map(int, move.split("-"))
    page.mouse.click(*line_point(page, f'.sim-seg[data-seg="{move}"] .sim-line', 0.4 if b - a == 3 else 0.5))


def moves_listed(page: Page):
    return page.get_by_test_id("move-list").locator("li")


def test_play_sim_against_the_ai_to_the_end(page: Page, base_url):
    page.goto("/?game=sim")
    expect(page.get_by_test_id("seat-1-kind")).to_have_value("ai")
    expect(page.get_by_test_id("seat-1-spec")).to_have_value("alphabeta")  # searches to the end
    page.get_by_test_id("create").click()
    expect(page).to_have_url(re.compile(r"/play/[\w-]+\?token="))
    game_id = re.search(r"/play/([\w-]+)", page.url).group(1)
    status = page.get_by_test_id("status")
    expect(status).to_contain_text("Your move (Red)")
    expect(page.locator(".sim-seg")).to_have_count(15)
    expect(page.locator(".sim-point")).to_have_count(6)
    saw_danger = False
    for _ in range(8):  # Red colours at most 8 of the 15 segments
        expect(status).to_contain_text(re.compile("Your move|Game over"))
        if "Game over" in status.inner_text():
            break
        # the dashed segments are exactly those that would complete a red triangle
        board = requests.get(f"{base_url}/api/games/{game_id}").json()["board"]
        danger = page.locator(".sim-seg.danger")
        expect(danger).to_have_count(len(board["red_dangers"]))
        assert sorted(danger.evaluate_all("els => els.map(e => e.dataset.move)")) == sorted(board["red_dangers"])
        expect(page.locator(".sim-warning")).to_have_count(len(board["red_dangers"]))
        saw_danger = saw_danger or bool(board["red_dangers"])
        # play a safe segment while there is one (the game lasts longer), else any
        safe = page.locator(".sim-seg.move-target:not(.danger)")
        target = safe if safe.count() else page.locator(".sim-seg.move-target")
        move = target.first.get_attribute("data-move")
        click_segment(page, move)
        # our move is drawn (in the same render the status stops saying "Your move") ...
        expect(page.locator(f'.sim-seg.seat-0[data-seg="{move}"]')).to_have_count(1)
        # ... then the AI answers, or the game is over
        expect(status).to_contain_text(re.compile("Your move|Game over"))
    expect(status).to_contain_text("Game over")
    expect(status).to_contain_text("Red completed triangle")
    expect(status).to_contain_text("You lose")  # Blue, the second player, wins with perfect play
    assert saw_danger
    # the red triangle that lost is filled and its three sides are red
    triangle = page.get_by_test_id("losing-triangle")
    expect(triangle).to_be_visible()
    points = triangle.get_attribute("data-triangle").split("-")
    sides = [f"{a}-{b}" for i, a in enumerate(points) for b in points[i + 1:]]
    for side in sides:
        expect(page.locator(f'.sim-seg.seat-0.in-triangle[data-seg="{side}"]')).to_have_count(1)
    expect(page.get_by_test_id("sim-caption")).to_contain_text("Red lost")
    assert page.locator(".move-target").count() == 0 and page.locator(".sim-warning").count() == 0
    nodes = page.get_by_test_id("ai-stats").locator("[data-stat=nodes]")
    assert int(nodes.inner_text().replace(",", "")) > 0


def test_two_humans_in_two_pages(page: Page, context, base_url):
    seats = requests.post(f"{base_url}/api/games",
                          json={"game": "sim", "players": ["human", "human"]}).json()["seats"]
    red, blue = page, context.new_page()
    red.goto(seats[0]["join_url"])
    blue.goto(seats[1]["join_url"])
    expect(red.get_by_test_id("status")).to_contain_text("Your move (Red)")
    expect(blue.get_by_test_id("status")).to_contain_text("Red (human) to move")
    assert blue.locator(".move-target").count() == 0  # not Blue's turn
    for i, (who, move) in enumerate([(red, "1-2"), (blue, "3-4"), (red, "1-3"), (blue, "5-6")]):
        click_segment(who, move)
        seat = i % 2
        for p in (red, blue):  # the move shows in both pages
            expect(p.locator(f'.sim-seg.seat-{seat}[data-seg="{move}"]')).to_have_count(1)
            expect(moves_listed(p)).to_have_count(i + 1)
    # Red to move: 2-3 would close the red triangle 1-2-3, so it is dashed with a warning
    expect(red.locator('.sim-seg.danger[data-move="2-3"]')).to_have_count(1)
    expect(red.locator('.sim-warning[data-warn="2-3"]')).to_have_count(1)
    expect(red.get_by_test_id("sim-caption")).to_contain_text("would complete a red triangle")
    click_segment(red, "2-3")
    for p in (red, blue):
        expect(p.get_by_test_id("losing-triangle")).to_have_attribute("data-triangle", "1-2-3")
        expect(p.get_by_test_id("status")).to_contain_text("Game over: Blue")
    expect(blue.get_by_test_id("status")).to_contain_text("You win")
    expect(red.get_by_test_id("status")).to_contain_text("You lose")


def test_hint_highlights_a_segment(page: Page, base_url):
    seats = requests.post(f"{base_url}/api/games",
                          json={"game": "sim", "players": ["human", "alphabeta"]}).json()["seats"]
    page.goto(seats[0]["join_url"])
    expect(page.get_by_test_id("status")).to_contain_text("Your move")
    expect(page.locator(".sim-seg.hinted")).to_have_count(0)
    page.get_by_test_id("hint").click()
    hinted = page.locator(".sim-seg.hinted")
    expect(hinted).to_have_count(1)
    move = hinted.get_attribute("data-move")
    expect(page.get_by_test_id("hint-box").locator("code")).to_have_text(move)
    # the hinted segment is a move target: playing it clears the hint
    click_segment(page, move)
    expect(page.locator(f'.sim-seg.seat-0[data-seg="{move}"]')).to_have_count(1)
    expect(page.locator(".sim-seg.hinted")).to_have_count(0)


SEGMENTS = [f"{a}-{b}" for a in range(1, 7) for b in range(a + 1, 7)]


def restart(page: Page) -> None:
    """Restart the game from the page (its confirm dialog accepted) and wait for the empty board."""
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_test_id("restart").click()
    expect(moves_listed(page)).to_have_count(0)
    expect(page.get_by_test_id("status")).to_contain_text("Your move")


def test_a_click_anywhere_along_a_segment_plays_it(page: Page, base_url):
    """The hexagon's segments cross each other (a short diagonal's middle lies on a long one,
    short diagonals cross at a third of their length), yet a click on a segment plays it: the
    nearest line wins, at a crossing the one whose middle is nearer."""
    seats = requests.post(f"{base_url}/api/games",
                          json={"game": "sim", "players": ["human", "human"]}).json()["seats"]
    page.goto(seats[0]["join_url"])
    expect(page.get_by_test_id("status")).to_contain_text("Your move (Red)")
    board = page.locator(".sim-svg")
    board.scroll_into_view_if_needed()
    # the hover highlight names the segment a click would play, at 10 % .. 90 % of each
    for seg in SEGMENTS:
        a, b = map(int, seg.split("-"))
        for t in (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9):
            if b - a == 3 and t == 0.5:
                continue  # the centre, where the three long diagonals meet: no click can choose
            page.mouse.move(*line_point(page, f'.sim-seg[data-seg="{seg}"] .sim-line', t))
            expect(board).to_have_attribute("data-aim", seg)
            expect(page.locator(f'.sim-seg.aimed[data-seg="{seg}"]')).to_have_count(1)
    page.mouse.move(2, 2)
    expect(board).not_to_have_attribute("data-aim", re.compile("."))
    # and real clicks play it, on the empty board each time
    for seg in SEGMENTS:
        a, b = map(int, seg.split("-"))
        for t in (0.15, 0.45 if b - a == 3 else 0.5, 0.85):
            page.mouse.click(*line_point(page, f'.sim-seg[data-seg="{seg}"] .sim-line', t))
            expect(moves_listed(page)).to_have_count(1)
            expect(moves_listed(page).locator("code")).to_have_text(seg)
            restart(page)


def test_a_coloured_segment_takes_no_click_meant_for_a_free_one(page: Page, context, base_url):
    seats = requests.post(f"{base_url}/api/games",
                          json={"game": "sim", "players": ["human", "human"]}).json()["seats"]
    red, blue = page, context.new_page()
    red.goto(seats[0]["join_url"])
    blue.goto(seats[1]["join_url"])
    click_segment(red, "1-3")
    expect(blue.get_by_test_id("status")).to_contain_text("Your move (Blue)")
    click_segment(blue, "4-5")
    expect(red.get_by_test_id("status")).to_contain_text("Your move (Red)")
    # on the red 1-3, a little past where it crosses the free 2-6 (a third of the way)
    x, y = line_point(red, '.sim-seg[data-seg="1-3"] .sim-line', 0.36)
    red.mouse.click(x, y)
    expect(moves_listed(red)).to_have_count(3)
    expect(moves_listed(red).nth(2).locator("code")).to_have_text("2-6")
