"""Phones: every page fits 360 px and up without sideways scrolling (the teaching panels
opened too), and the text drawn in boards and charts stays readable (>= 12 px rendered)."""

import pytest
import requests
from playwright.sync_api import Page, expect

from tests.helpers import as_creator

GAMES = {
    "nim": {},
    "sim": {},
    "shannon": {"board": "random", "seed": 226},
    "blacksin": {"seed": 3},
    "cantris": {"board": "10x5", "seed": 3},
}

WIDTH = "[document.documentElement.scrollWidth, innerWidth]"

# The smallest rendered size (CSS px) of the SVG text matched by a selector: its font size
# times the SVG's scale on the screen.
SMALLEST_TEXT = """(selector) => {
  const sizes = [...document.querySelectorAll(selector)].filter((t) => t.getBBox().width > 0)
    .map((t) => parseFloat(getComputedStyle(t).fontSize) * Math.hypot(t.getScreenCTM().a, t.getScreenCTM().b));
  return sizes.length ? Math.min(...sizes) : null;
}"""


@pytest.fixture(scope="module")
def base_url(make_module_live_server):
    """A server of this module's own whose Compare gives each algorithm 1 s, not 5: what is measured
    here is the page with a Compare open (searches that ran out of time included)."""
    return make_module_live_server(COMPARE_TIME_CAP=1.0).url


@pytest.fixture(params=[(390, 844), (360, 740)], ids=["390", "360"])
def phone(request, browser, base_url):
    width, height = request.param
    context = browser.new_context(base_url=base_url, viewport={"width": width, "height": height})
    yield context.new_page()
    context.close()


def fits(page: Page, what: str) -> None:
    scroll, inner = page.evaluate(WIDTH)
    assert scroll <= inner, f"{what}: {scroll} px wide on a {inner} px screen"


def test_site_pages_fit(phone: Page, base_url):
    created = requests.post(f"{base_url}/api/games", json={"game": "nim", "players": ["human", "random"]}).json()
    game_id = created["id"]
    as_creator(phone, created)  # a game being played is searched for its creator only
    for path in ["/", "/?game=shannon", "/?game=blacksin", "/lessons", "/arena", f"/play/{game_id}/tree",
                 f"/replay/{game_id}"]:
        phone.goto(path)
        phone.wait_for_load_state("networkidle")
        fits(phone, path)


@pytest.mark.parametrize("game", list(GAMES))
def test_play_pages_fit_and_read(phone: Page, base_url, game):
    created = requests.post(f"{base_url}/api/games", json={
        "game": game, "options": GAMES[game], "players": ["alphabeta:depth=1", "human"]}).json()
    as_creator(phone, created)  # Compare and the theory below: a game being played is its creator's to search
    phone.goto(created["seats"][1]["join_url"])
    expect(phone.get_by_test_id("status")).to_contain_text("Your move")  # the AI moved: a score to chart
    fits(phone, game)
    if game == "shannon":
        assert phone.evaluate(SMALLEST_TEXT, ".shn-svg text") >= 12
    expect(phone.get_by_test_id("score-chart").locator("svg")).to_be_visible()
    assert phone.evaluate(SMALLEST_TEXT, ".score-chart text") >= 12
    phone.get_by_test_id("compare").click()
    expect(phone.get_by_test_id("compare-result").locator("svg").first).to_be_visible(timeout=30_000)  # four searches
    phone.get_by_test_id("theory-toggle").click()
    phone.wait_for_load_state("networkidle")
    fits(phone, f"{game} with Compare and Theory open")
    assert phone.evaluate(SMALLEST_TEXT, ".compare-result text, [data-testid=compare-result] text") >= 12


@pytest.mark.parametrize("game, options, needed", [
    ("nim", {}, ("board",)),
    ("cantris", {"board": "8x4"}, ("cantris-grid", "cantris-turn", "cantris-score-0", "cantris-score-1")),
])
def test_a_players_buttons_share_the_first_screen_with_the_board(phone: Page, base_url, game, options, needed,
                                                                 tmp_path):
    """On a phone the board, whose turn and the Hint and Restart buttons are all on the first
    screen, with no scrolling."""
    created = requests.post(f"{base_url}/api/games", json={
        "game": game, "options": options, "players": ["human", "alphabeta:strength=5"]}).json()
    phone.goto(created["seats"][0]["join_url"])
    expect(phone.get_by_test_id("status")).to_contain_text("Your move")
    screen = phone.viewport_size["height"]
    for testid in ("hint", "restart"):
        box = phone.get_by_test_id(testid).bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= screen, f"{game}: {testid} at {box}"
    buttons_top = phone.locator(".actions").bounding_box()["y"]
    for testid in (*needed, "status"):  # and nothing of the board under the buttons
        box = phone.get_by_test_id(testid).bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= buttons_top, f"{game}: {testid} at {box}"
    phone.screenshot(path=tmp_path / f"ux2-{game}-{phone.viewport_size['width']}.png")  # each test's own folder


@pytest.mark.parametrize("game", ["nim", "blacksin", "cantris"])
def test_a_move_brought_into_view_is_not_under_the_players_buttons(phone: Page, base_url, game):
    """On a phone the Hint, Restart… bar stays at the bottom of the screen, over the page: a
    move that the browser brings into view (a tap's target, a key's focus) comes out above it,
    where a tap at its middle plays it, not under it (WCAG 2.4.11, focus not obscured)."""
    created = requests.post(f"{base_url}/api/games", json={
        "game": game, "options": GAMES[game], "players": ["human", "alphabeta:strength=5"]}).json()
    phone.goto(created["seats"][0]["join_url"])
    expect(phone.get_by_test_id("status")).to_contain_text("Your move")
    covered = phone.evaluate("""() => [...document.querySelectorAll("#board .move-target")].flatMap((target) => {
        window.scrollTo(0, 0);
        target.focus();
        const r = target.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
        const hit = document.elementFromPoint(x, y);
        return hit && target.contains(hit) ? [] : [`${target.dataset.move} at y ${Math.round(y)}: ${hit && hit.className}`];
    })""")
    assert phone.locator("#board .move-target").count() > 0
    assert covered == [], covered
