"""The replay of a finished game marks each move that threw away a win (perfect play's verdict,
GET /api/games/<id>/verdicts), checked against the textbook's minimax."""

import re

import requests
from playwright.sync_api import Page, expect

from engine import textbook
from engine.games import get_game
from tests.helpers import eventually


def finished_game(base_url: str, players: list[str]) -> str:
    res = requests.post(f"{base_url}/api/games", json={"game": "nim", "options": {"piles": "2,3"},
                                                       "players": players}, timeout=10)
    assert res.status_code == 201, res.text
    gid = res.json()["id"]
    eventually(lambda: requests.get(f"{base_url}/api/games/{gid}", timeout=10).json()["status"] == "over",
               every=0.05, what="the AI game to end")
    return gid


def textbook_blunders(moves: list[str]) -> list[int]:
    """The plies (1-based) whose move turned a won position into a lost one, by textbook minimax."""
    nim = get_game("nim").from_options({"piles": "2,3"})
    state, out = nim.start(), []
    for ply, move in enumerate(moves, start=1):
        sign = 1 if nim.to_move(state) == 0 else -1
        if sign * textbook.minimax(nim, state) > 0 and sign * textbook.minimax(nim, nim.push_notation(state, move)) < 0:
            out.append(ply)
        state = nim.push_notation(state, move)
    return out


def test_the_replay_marks_the_move_that_threw_away_a_win(page: Page, base_url):
    gid = finished_game(base_url, ["random:seed=1", "alphabeta"])  # a random first player in a won position
    moves = [m["move"] for m in requests.get(f"{base_url}/api/games/{gid}/record", timeout=10).json()["moves"]]
    blunders = textbook_blunders(moves)
    assert blunders, moves
    page.goto(f"/replay/{gid}")
    note = page.get_by_test_id("replay-verdicts")
    expect(note).to_contain_text(f"Perfect play: {len(blunders)} move")
    items = page.get_by_test_id("replay-moves").locator("li")
    expect(items).to_have_count(len(moves))
    for ply in range(1, len(moves) + 1):
        item = items.nth(ply - 1)
        expect(item).to_have_attribute("data-verdict", re.compile("win|loss"))
        if ply in blunders:
            expect(item).to_contain_text("?? threw away a win")
            expect(item).to_have_attribute("data-verdict", "loss")
        else:
            expect(item).not_to_contain_text("??")


def test_a_game_without_mistakes_says_so(page: Page, base_url):
    gid = finished_game(base_url, ["alphabeta", "alphabeta"])
    page.goto(f"/replay/{gid}")
    expect(page.get_by_test_id("replay-verdicts")).to_contain_text("no move threw away a win or a draw")
