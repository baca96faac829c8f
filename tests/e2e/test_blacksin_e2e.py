"""Blacksin end to end in Chromium: whole games played by clicking the move buttons against
the rules agent and against alpha-beta, a hidden-deck game against expectiminimax in which
the page must never show the remaining deck order, and two humans in two pages."""

import re

import requests
from playwright.sync_api import Page, expect

DECK = [18, 5, 9, 2, 19, 11, 13, 21, 14, 17, 15, 16, 10, 4, 7, 6, 8, 1, 3, 20, 12]
# Its tail is not increasing, so no remaining order of 3 or more cards is ever a sorted run
# (the unseen cards are shown sorted: a sorted remainder would show up there by itself).
HIDDEN_DECK = [7, 15, 3, 12, 20, 1, 9, 17, 5, 14, 21, 2, 11, 18, 6, 13, 4, 19, 10, 16, 8]


def new_game(base_url, players, **options):
    response = requests.post(f"{base_url}/api/games",
                             json={"game": "blacksin", "options": options, "players": players})
    assert response.status_code == 201, response.text
    return response.json()


def api_state(base_url, game_id):
    return requests.get(f"{base_url}/api/games/{game_id}").json()


def watch_errors(page: Page) -> list:
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


def moves_listed(page: Page):
    return page.get_by_test_id("move-list").locator("li")


def card_values(locator) -> list[int]:
    return [int(v) for v in locator.evaluate_all("els => els.map(e => e.dataset.card)")]


def cards(page: Page, seat: int) -> list[int]:
    return card_values(page.locator(f'[data-testid="hand-{seat}"] .bs-card[data-card]'))


def assert_table_matches(page: Page, board: dict) -> None:
    for seat in (0, 1):
        expect(page.get_by_test_id(f"sum-{seat}")).to_have_text(str(board["sums"][seat]))
        assert cards(page, seat) == board["hands"][seat]
        expect(page.get_by_test_id(f"erases-{seat}")).to_have_attribute("data-left", str(board["erases"][seat]))
        expect(page.get_by_test_id(f"stopped-{seat}")).to_have_count(1 if board["stopped"][seat] else 0)
        margin = page.get_by_test_id(f"margin-{seat}")
        expect(margin).to_have_attribute("data-margin", str(board["margins"][seat]))
        if board["margins"][seat] < 0:
            expect(margin).to_have_class(re.compile(r"\bbust\b"))


def play_to_the_end(page: Page, base_url: str, game_id: str, choose, check=None, limit=40) -> dict:
    """Click the move `choose(state)` picks whenever it is our turn, until the game is over."""
    status = page.get_by_test_id("status")
    for _ in range(limit):
        # the AI's exact search takes ~0.1-1 s; allow for a busy machine
        expect(status).to_contain_text(re.compile("Your move|Game over"), timeout=15_000)
        if "Game over" in status.inner_text():
            break
        state = api_state(base_url, game_id)
        assert_table_matches(page, state["board"])
        if check:
            check(state)
        move = choose(state)
        assert move in state["legal_moves"]
        # only the legal moves are enabled, each as a big button with its human label
        enabled = page.locator(".bs-move.move-target").evaluate_all("els => els.map(e => e.dataset.move)")
        assert sorted(enabled) == sorted(state["legal_moves"])
        before = moves_listed(page).count()
        page.locator(f'.bs-move.move-target[data-move="{move}"]').click()
        expect(moves_listed(page)).not_to_have_count(before)
    expect(status).to_contain_text("Game over")
    return api_state(base_url, game_id)


def assert_verdict(page: Page, state: dict) -> None:
    board, result = state["board"], state["result"]
    assert_table_matches(page, board)
    verdict = page.get_by_test_id("verdict")
    expect(verdict).to_be_visible()
    winner = result["winner"]
    expect(verdict).to_have_attribute("data-winner", "draw" if winner is None else str(winner))
    expect(verdict).to_contain_text("Draw" if winner is None else f"{state['sides'][winner].capitalize()} wins")
    expect(verdict).to_contain_text(f"target {board['target']}")
    for s in board["sums"]:
        expect(verdict).to_contain_text(str(s))
    why = result["reason"].split("): ", 1)[1]  # e.g. "opponent is bust, player wins"
    expect(page.get_by_test_id("verdict-reason")).to_contain_text(why[0].upper() + why[1:])
    expect(page.get_by_test_id("status")).to_contain_text(result["reason"])
    assert page.locator(".bs-move").count() == 0  # no buttons once it is over


def test_open_game_against_the_rules_agent(page: Page, base_url):
    errors = watch_errors(page)
    game = new_game(base_url, ["human", "rules"], deck=",".join(map(str, DECK)))
    page.goto(game["seats"][0]["join_url"])
    expect(page.get_by_test_id("status")).to_contain_text("Your move (Player)")
    # the open deck lies face up, top first, the top card marked "next"
    deck = page.get_by_test_id("deck")
    assert card_values(deck.locator(".bs-card")) == DECK[4:]
    expect(deck.locator(".bs-next")).to_have_attribute("data-card", "19")
    expect(deck.locator(".bs-next-tag")).to_have_text("next")
    expect(page.get_by_test_id("target")).to_contain_text("41")
    labels = dict(zip(page.locator(".bs-move").evaluate_all("els => els.map(e => e.dataset.move)"),
                      page.locator(".bs-move-label").all_inner_texts()))
    assert labels == {"draw": "Draw", "stop": "Stop", "erase_self": "Erase my last card",
                      "erase_opponent": "Erase their last card"}
    expect(page.locator('.bs-move[data-move="draw"]')).to_contain_text("next card 19")
    expect(page.locator('.bs-move[data-move="erase_opponent"]')).to_contain_text("2 → 5")

    def choose(state):
        b = state["board"]
        if not state["history"]:
            return "erase_opponent"  # their 2 goes, animated as a crossed-out card
        if b["deck"] and b["sums"][0] + b["deck"][0] <= b["target"]:
            return "draw"
        return "stop"

    def check(state):
        assert card_values(page.get_by_test_id("deck").locator(".bs-card")) == state["board"]["deck"]

    final = play_to_the_end(page, base_url, game["id"], choose, check)
    assert_verdict(page, final)
    assert final["board"]["erases"][0] == 3
    assert [h["move"] for h in final["history"]][0] == "erase_opponent"
    assert final["history"][0]["details"] == {"card": 2, "from": 1}
    assert not errors


def test_open_game_against_alphabeta_with_a_hint(page: Page, base_url):
    errors = watch_errors(page)
    game = new_game(base_url, ["human", "alphabeta"], deck=",".join(map(str, DECK)))
    page.goto(game["seats"][0]["join_url"])
    expect(page.get_by_test_id("status")).to_contain_text("Your move")
    expect(page.locator(".bs-move.hinted")).to_have_count(0)
    page.get_by_test_id("hint").click()
    hinted = page.locator(".bs-move.hinted")
    expect(hinted).to_have_count(1)
    expect(page.get_by_test_id("hint-box").locator("code")).to_have_text(hinted.get_attribute("data-move"))
    hint = hinted.get_attribute("data-move")

    def choose(state):
        if not state["history"]:
            return hint  # follow the hint once
        b = state["board"]
        return "draw" if b["deck"] and b["sums"][0] + b["deck"][0] <= b["target"] else "stop"

    final = play_to_the_end(page, base_url, game["id"], choose)
    assert_verdict(page, final)
    assert final["history"][0]["move"] == hint
    nodes = page.get_by_test_id("ai-stats").locator("[data-stat=nodes]")
    assert int(nodes.inner_text().replace(",", "")) > 0
    assert not errors


def contains_run(numbers: list[int], run: list[int]) -> bool:
    return any(numbers[i:i + len(run)] == run for i in range(len(numbers) - len(run) + 1))


def test_hidden_game_never_shows_the_remaining_order(page: Page, base_url):
    assert not HIDDEN_DECK[-3] < HIDDEN_DECK[-2] < HIDDEN_DECK[-1]
    errors = watch_errors(page)
    game = new_game(base_url, ["human", "expecti:depth=4"], deck=",".join(map(str, HIDDEN_DECK)), hidden=True)
    page.goto(game["seats"][0]["join_url"])
    expect(page.get_by_test_id("status")).to_contain_text("Your move")
    checked = []

    def remaining(state):
        drawn = sum(1 for h in state["history"] if h["move"] == "draw")
        return HIDDEN_DECK[4 + drawn:]

    def check(state):
        rest = remaining(state)
        assert "deck" not in state["board"] and "deck" not in state["options"]
        # the deck face down with its count, the unseen cards as a sorted set
        expect(page.get_by_test_id("deck-count")).to_have_text(str(len(rest)))
        chips = [int(v) for v in page.get_by_test_id("unseen").locator(".bs-chip").all_inner_texts()]
        assert chips == sorted(rest)
        # no element names a next card
        assert page.locator(".bs-next, .bs-next-tag").count() == 0
        assert page.get_by_test_id("deck").locator("[data-card]").count() == 0
        if state["status"] == "playing":
            expect(page.locator('.bs-move[data-move="draw"]')).to_contain_text(f"of {len(rest)} would bust")
        # the remaining order appears nowhere in the page, in any spelling
        html = page.content()
        if len(rest) >= 3:
            for sep in (",", ", ", " ", "-", "|", "</span><span>", '</span><span class="bs-chip">'):
                assert sep.join(map(str, rest)) not in html
            numbers = [int(n) for n in re.findall(r"\d+", page.get_by_test_id("board").inner_text())]
            assert not contains_run(numbers, rest)
        checked.append(len(rest))

    def choose(state):
        b = state["board"]
        return "draw" if b["deck_size"] and b["margins"][0] >= 10 else "stop"

    final = play_to_the_end(page, base_url, game["id"], choose, check)
    check(final)
    assert_verdict(page, final)
    assert len(checked) >= 3 and not errors
    assert page.get_by_test_id("deck").locator("[data-card]").count() == 0


def test_two_humans_in_two_pages(page: Page, context, base_url):
    errors = watch_errors(page)
    game = new_game(base_url, ["human", "human"], deck=",".join(map(str, DECK)))
    player, opponent = page, context.new_page()
    errors_opponent = watch_errors(opponent)
    player.goto(game["seats"][0]["join_url"])
    opponent.goto(game["seats"][1]["join_url"])
    expect(player.get_by_test_id("status")).to_contain_text("Your move (Player)")
    expect(opponent.get_by_test_id("status")).to_contain_text("Player (human) to move")
    # each page has its own hand at the bottom of the table
    expect(player.get_by_test_id("side-0")).to_have_class(re.compile(r"\bbottom\b"))
    expect(opponent.get_by_test_id("side-1")).to_have_class(re.compile(r"\bbottom\b"))
    assert opponent.locator(".bs-move.move-target").count() == 0  # not the opponent's turn
    expect(opponent.locator('.bs-move[data-move="draw"]')).to_be_disabled()

    player.locator('.bs-move.move-target[data-move="draw"]').click()
    for p in (player, opponent):
        expect(moves_listed(p)).to_have_count(1)
        expect(p.get_by_test_id("sum-0")).to_have_text("46")  # 18 + 9 + 19: bust
        expect(p.get_by_test_id("margin-0")).to_contain_text("bust by 5")
        expect(p.get_by_test_id("bs-last")).to_contain_text("Player drew 19")
    assert cards(opponent, 0) == [18, 9, 19]

    opponent.locator('.bs-move.move-target[data-move="erase_opponent"]').click()
    for p in (player, opponent):
        expect(moves_listed(p)).to_have_count(2)
        expect(p.get_by_test_id("sum-0")).to_have_text("27")
        expect(p.get_by_test_id("erases-1")).to_have_attribute("data-left", "3")
    assert cards(player, 0) == [18, 9]

    player.locator('.bs-move.move-target[data-move="stop"]').click()
    for p in (player, opponent):
        expect(p.get_by_test_id("stopped-0")).to_have_count(1)
    # the player has stopped: the opponent moves on alone, and stops at 7 against 27
    expect(opponent.get_by_test_id("status")).to_contain_text("Your move (Opponent)")
    opponent.locator('.bs-move.move-target[data-move="stop"]').click()
    # read the stored state once the move has landed (the click is sent asynchronously)
    expect(player.get_by_test_id("verdict")).to_contain_text("Player wins")
    state = api_state(base_url, game["id"])
    assert state["status"] == "over"
    for p in (player, opponent):
        expect(p.get_by_test_id("verdict")).to_contain_text("Player wins")
        assert_verdict(p, state)
    expect(player.get_by_test_id("status")).to_contain_text("You win")
    expect(opponent.get_by_test_id("status")).to_contain_text("You lose")
    assert not errors and not errors_opponent
