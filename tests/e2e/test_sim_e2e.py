"""Sim end to end in Chromium: a whole game against the perfect AI, two humans in two pages,
and the hint drawn on its segment. Moves are played by clicking the segments."""

import re

import requests
from playwright.sync_api import Page, expect

# A point on segment `move` where a click really lands on it: the three long diagonals cross
# at the centre of the hexagon (the middle of their bounding boxes), so walk along the
# segment until the element under the point is the segment's own hit area.
FIND_CLICK_POINT = """(move) => {
  const g = document.querySelector(`.sim-seg[data-move="${move}"]`);
  const line = g.querySelector(".sim-line");
  const ctm = line.getScreenCTM();
  const [x1, y1, x2, y2] = ["x1", "y1", "x2", "y2"].map((k) => line[k].baseVal.value);
  for (const t of [0.5, 0.4, 0.6, 0.33, 0.67, 0.25, 0.75]) {
    const p = new DOMPoint(x1 + t * (x2 - x1), y1 + t * (y2 - y1)).matrixTransform(ctm);
    const hit = document.elementFromPoint(p.x, p.y);
    if (hit && g.contains(hit)) return [p.x, p.y];
  }
  return null;
}"""


def click_segment(page: Page, move: str) -> None:
    segment = page.locator(f'.sim-seg.move-target[data-move="{move}"]')
    expect(segment).to_have_count(1)
    segment.scroll_into_view_if_needed()
    point = page.evaluate(FIND_CLICK_POINT, move)
    assert point, f"no clickable point on segment {move}"
    page.mouse.click(*point)


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
        expect(p.get_by_test_id("status")).to_contain_text("Game over — Blue")
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
