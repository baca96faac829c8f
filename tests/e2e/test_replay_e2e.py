"""Replay a finished game in Chromium: step through it, read each AI move's search, download the
record, and continue from an earlier position as a new game."""

import json
import re
from pathlib import Path

import requests
from playwright.sync_api import Page, expect

from tests.helpers import eventually


def finished_game(base_url: str) -> str:
    """An AI-vs-AI Nim game played to the end (alpha-beta against a seeded random player)."""
    res = requests.post(f"{base_url}/api/games", json={"game": "nim", "options": {"piles": "2,3"},
                                                       "players": ["alphabeta", "random:seed=2"]}, timeout=10)
    assert res.status_code == 201, res.text
    gid = res.json()["id"]
    eventually(lambda: requests.get(f"{base_url}/api/games/{gid}", timeout=10).json()["status"],
               lambda status: status == "over", every=0.05, what="the AI game to finish")
    return gid


def test_replay_steps_through_a_finished_game(page: Page, base_url):
    gid = finished_game(base_url)
    record = requests.get(f"{base_url}/api/games/{gid}/record", timeout=10).json()
    n = len(record["moves"])
    page.goto(f"/replay/{gid}")
    status = page.get_by_test_id("replay-status")
    expect(status).to_contain_text(f"After move {n} of {n}")
    expect(status).to_contain_text("Game over")
    # back to the start with the button, then forward one move with the keyboard
    page.get_by_test_id("replay-first").click()
    expect(status).to_contain_text("Start position")
    expect(page.locator(".nim-count")).to_have_text(["2", "3"])
    expect(page.get_by_test_id("replay-stats")).to_contain_text("no move yet")
    page.keyboard.press("ArrowRight")
    first = record["moves"][0]
    expect(status).to_contain_text(f"After move 1 of {n}: First {first['move']}")
    # the first move was alpha-beta's: its search is shown
    stats = page.get_by_test_id("replay-stats")
    expect(stats).to_contain_text("Computer (perfect)")  # (alphabeta: the lobby's perfect level, in words)
    expect(stats).to_contain_text(f"{first['nodes']:,}")
    # the drawn board is the position after that move
    pile, take = (int(x) for x in first["move"].split(":"))
    piles = [2, 3]
    piles[pile - 1] -= take
    expect(page.locator(".nim-count")).to_have_text([str(p) for p in piles])
    # a click in the move list jumps there
    page.get_by_test_id("replay-moves").locator("button").last.click()
    expect(status).to_contain_text(f"After move {n} of {n}")

    with page.expect_download() as download:
        page.get_by_test_id("download-record").click()
    saved = json.loads(Path(download.value.path()).read_text())
    assert [m["move"] for m in saved["moves"]] == [m["move"] for m in record["moves"]]
    assert saved["result"] == record["result"]


def test_continue_from_an_earlier_position(page: Page, base_url):
    gid = finished_game(base_url)
    record = requests.get(f"{base_url}/api/games/{gid}/record", timeout=10).json()
    page.goto(f"/replay/{gid}?ply=1")
    expect(page.get_by_test_id("replay-status")).to_contain_text("After move 1 of")
    # seat 0 (First) was alpha-beta: make it a person, keep the recorded random player as Second
    page.get_by_test_id("continue-seat-0").select_option("human")
    page.get_by_test_id("continue-seat-1").select_option("random:seed=2")
    page.get_by_test_id("continue").click()
    expect(page).to_have_url(re.compile(r"/play/[\w-]+\?token="))
    # the new game starts after the recorded first move; the random player answers, then it is ours
    moves = page.get_by_test_id("move-list").locator("li")
    expect(moves.first).to_contain_text(record["moves"][0]["move"])
    expect(page.get_by_test_id("status")).to_contain_text(re.compile("Your move|Game over"))
