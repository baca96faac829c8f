"""A new player's walk-through: every game and variant created from the lobby and played to
the end against the computer, with clicks at 1280x800 and with taps on a 390 px phone.

Every turn the status line is read; after every turn the move list's figures of each AI move
(never "d0 · 0 n" for a searched one) and the last search's panel are read. Any console error
or 5xx answer fails the game; the finished game and its replay are read by axe-core. The time
each level took per AI move (the engine's own count, as the page shows it) is printed at the
end of the run.

The matrix, each variant once (the hidden deck twice: it once failed below "perfect"), levels
rotated so that each of 1 (beginner), 5 (club) and 10 (perfect) plays phone and desktop:

    Nim 3,4,5 · Sim · Shannon seed, random, Bridg-It 3 and 4 (the largest the engine offers)
    · Blacksin open, hidden (twice) · Cantris 6x3, 8x4, 10x5.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict

import pytest
from playwright.sync_api import Page, expect
from svg_lines import line_point
from test_a11y import serious_violations

from tests.helpers import SUMMARY

#: (id, game, lobby options, level, screen)
CASES = [
    ("nim", "nim", {}, 10, "desktop"),
    ("sim", "sim", {}, 5, "phone"),
    ("shannon-seed", "shannon", {"board": "seed"}, 1, "phone"),
    ("shannon-random", "shannon", {"board": "random", "seed": "7"}, 10, "desktop"),
    ("bridgit-3", "shannon", {"board": "bridgit-3"}, 5, "desktop"),
    ("bridgit-4", "shannon", {"board": "bridgit-4"}, 1, "phone"),
    ("blacksin-open", "blacksin", {"seed": "4"}, 1, "desktop"),
    ("blacksin-hidden-5", "blacksin", {"seed": "4", "hidden": True}, 5, "phone"),
    ("blacksin-hidden-10", "blacksin", {"seed": "5", "hidden": True}, 10, "desktop"),
    ("cantris-6x3", "cantris", {"board": "6x3", "seed": "2"}, 1, "desktop"),
    ("cantris-8x4", "cantris", {"board": "8x4", "seed": "2"}, 10, "phone"),
    ("cantris-10x5", "cantris", {"board": "10x5", "seed": "2"}, 5, "desktop"),
]
SCREENS = {"desktop": {"viewport": {"width": 1280, "height": 800}},
           "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}}
LEVEL_WORDS = {1: "beginner", 5: "club", 10: "perfect"}
TURN = re.compile(r"Your move|Game over|failed")

#: level -> the engine's milliseconds for each AI move the page showed
ai_times: dict[int, list[float]] = defaultdict(list)


@pytest.fixture(scope="module", autouse=True)
def print_times(request):
    """The time per AI move by level, printed in the run's summary (tests/e2e/conftest.py)."""
    yield
    request.config.stash.setdefault(SUMMARY, []).extend(
        f"walk-through: level {level} ({LEVEL_WORDS[level]}): {len(times)} AI moves read, "
        f"median {sorted(times)[len(times) // 2]:.0f} ms, longest {max(times):.0f} ms a move"
        for level, times in sorted(ai_times.items()))


@pytest.fixture
def base_url(make_live_server):
    """A server whose AI waits no longer than a person would notice between moves."""
    return make_live_server(AI_PAUSE=0.0, AI_TIME_CAP=10.0).url


def create_from_lobby(page: Page, game: str, options: dict, level: int, tap: bool) -> None:
    page.goto(f"/?game={game}")
    for name, value in options.items():
        field = page.locator(f"#opt-{name}")
        if value is True:
            field.check()
        elif field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    expect(page.get_by_test_id("seat-1-kind")).to_have_value("ai")
    page.get_by_test_id("seat-1-level").select_option(str(level))
    start = page.get_by_test_id("create")
    start.tap() if tap else start.click()
    expect(page).to_have_url(re.compile(r"/play/[\w-]+\?token="))
    expect(page.get_by_test_id("seats")).to_contain_text(f"Computer ({LEVEL_WORDS[level]})")


def press(page: Page, game: str, move: str, tap: bool) -> None:
    """Play ``move`` where a person would: a line at its middle (Sim's long diagonals a little
    off it, where they do not cross), anything else on its element."""
    if game in ("sim", "shannon"):
        if game == "sim":
            a, b = map(int, move.split("-"))
            selector, t = f'.sim-seg[data-seg="{move}"] .sim-line', 0.4 if b - a == 3 else 0.5
        else:
            selector, t = f'.shn-edge[data-edge="{move}"] .shn-line', 0.5
        page.locator(selector).scroll_into_view_if_needed()
        x, y = line_point(page, selector, t)
        if tap:  # a tap aims (the line shows as it would be played), a second one plays it
            page.touchscreen.tap(x, y)
            expect(page.locator("svg[data-aim]")).to_have_attribute("data-aim", move)
            page.touchscreen.tap(x, y)
        else:
            page.mouse.click(x, y)
        return
    target = page.locator(f'#board .move-target[data-move="{move}"]')
    target.tap() if tap else target.click()


def choose(page: Page, game: str, rng: random.Random) -> str:
    moves = page.locator("#board .move-target[data-move]").evaluate_all("els => els.map((e) => e.dataset.move)")
    assert moves, "the page says it is my move but offers none"
    if game == "blacksin" and "draw" in moves and rng.random() < 0.6:
        return "draw"  # (a person draws more often than they stop or erase)
    return rng.choice(sorted(set(moves)))


def check_ai_moves(page: Page, level: int) -> None:
    """Every AI move in the move list shows its search's figures; the last search's panel too."""
    metas = page.locator(".move-list li.seat-1 .move-meta").all_inner_texts()
    for meta in metas:
        assert not re.search(r"\bd0\b.*\b0 n\b", meta), f"an AI move reads {meta!r}"
    stats = page.get_by_test_id("ai-stats")
    if stats.locator("[data-stat=nodes]").count():
        nodes = int(stats.locator("[data-stat=nodes]").inner_text().replace(",", ""))
        depth = int(stats.locator("[data-stat=depth]").inner_text())
        assert nodes > 0 and depth > 0, f"the last search reads depth {depth}, {nodes} nodes"
        assert stats.locator("[data-stat=agent]").inner_text() == f"Computer ({LEVEL_WORDS[level]})"
        ms = float(stats.locator("[data-stat=time]").inner_text().split()[0].replace(",", ""))
        ai_times[level].append(ms)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_a_whole_game_against_the_computer(browser, base_url, case):
    name, game, options, level, screen = case
    tap = screen == "phone"
    context = browser.new_context(base_url=base_url, bypass_csp=True, **SCREENS[screen])  # (axe is injected)
    context.add_init_script("localStorage.setItem('arcade.speed', '0')")  # no animations to wait for
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
    page.on("response", lambda r: r.status >= 500 and problems.append(f"{r.status} {r.url}"))
    rng = random.Random(name)
    try:
        create_from_lobby(page, game, options, level, tap)
        status = page.get_by_test_id("status")
        seen = 0
        for _ in range(200):
            expect(status).to_contain_text(TURN, timeout=30_000)
            text = status.inner_text()
            assert "failed" not in text, text
            check_ai_moves(page, level)
            if text.startswith("Game over"):
                break
            assert text.startswith("Your move"), text
            listed = page.locator(".move-list li").count()
            assert listed >= seen
            seen = listed + 1
            press(page, game, choose(page, game, rng), tap)
            # the move is in the list (and the status leaves "Your move" unless it is mine again)
            expect(page.locator(".move-list li")).not_to_have_count(listed, timeout=10_000)
        else:
            pytest.fail(f"{name}: no end after 200 turns")
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "over")
        assert not problems, problems
        # the finished game, and its replay, read by axe-core: no serious or critical violation
        assert serious_violations(page) == [], name
        page.get_by_test_id("replay-link").click()
        expect(page).to_have_url(re.compile(r"/replay/"))
        assert serious_violations(page) == [], f"{name} replay"
        assert not problems, problems
    finally:
        context.close()


def test_a_tap_on_a_phone_shows_the_line_first_and_a_second_tap_plays_it(browser, base_url):
    """Sim's three long diagonals share the hexagon's centre: a tap there shows which one it
    takes before anything is played; a tap further along the one meant aims it, a second plays it."""
    context = browser.new_context(base_url=base_url, **SCREENS["phone"])
    page = context.new_page()
    try:
        create_from_lobby(page, "sim", {}, 1, tap=True)
        board = page.locator("svg[data-mover]")
        centre = line_point(page, '.sim-seg[data-seg="2-5"] .sim-line', 0.5)
        page.touchscreen.tap(*centre)
        expect(board).to_have_attribute("data-aim", re.compile(r"^(1-4|2-5|3-6)$"))
        assert page.locator(".move-list li").count() == 0  # nothing played yet
        along = line_point(page, '.sim-seg[data-seg="2-5"] .sim-line', 0.3)
        page.touchscreen.tap(*along)
        expect(board).to_have_attribute("data-aim", "2-5")
        assert page.locator(".move-list li").count() == 0
        page.touchscreen.tap(*along)
        expect(page.locator(".move-list li").first).to_contain_text("2-5")
    finally:
        context.close()
