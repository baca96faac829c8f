"""Takeback in Chromium: against the AI at once, against a friend by consent; AI-vs-AI step;
a record imported in the lobby."""

import json
import re

import requests
import socketio
from playwright.sync_api import Page, expect

from tests.helpers import ai_stays_idle, eventually


def create(base_url: str, players, piles="3,4,5") -> dict:
    res = requests.post(f"{base_url}/api/games", json={"game": "nim", "options": {"piles": piles},
                                                       "players": players}, timeout=10)
    assert res.status_code == 201, res.text
    return res.json()


def piles(page: Page) -> list[str]:
    return page.locator(".nim-count").all_inner_texts()


def test_take_back_against_the_ai(page: Page, base_url):
    game = create(base_url, ["human", "alphabeta"])
    page.goto(game["seats"][0]["join_url"])
    status = page.get_by_test_id("status")
    expect(status).to_contain_text("Your move")
    start = piles(page)
    expect(page.get_by_test_id("takeback")).to_be_hidden()  # nothing to take back yet
    page.locator('[data-move="1:1"]').click()
    moves = page.get_by_test_id("move-list").locator("li")
    expect(moves).to_have_count(2)  # my move and the AI's reply
    expect(status).to_contain_text("Your move")
    page.get_by_test_id("takeback").click()
    expect(moves).to_have_count(0)
    expect(page.locator(".nim-count")).to_have_text(start)
    expect(status).to_contain_text("Your move")


def test_take_back_against_a_friend_needs_their_consent(page: Page, context, base_url):
    game = create(base_url, ["human", "human"])
    friend = context.new_page()
    page.goto(game["seats"][0]["join_url"])
    expect(page.get_by_test_id("presence-1")).to_have_text("not here yet")
    friend.goto(game["seats"][1]["join_url"])
    expect(page.get_by_test_id("presence-1")).to_have_text("here")  # the friend has joined
    expect(friend.get_by_test_id("presence-0")).to_have_text("here")
    page.locator('[data-move="2:2"]').click()
    expect(friend.get_by_test_id("move-list").locator("li")).to_have_count(1)
    page.get_by_test_id("takeback").click()
    expect(page.get_by_test_id("takeback-offer")).to_contain_text("waiting for the answer")
    offer = friend.get_by_test_id("takeback-offer")
    expect(offer).to_contain_text("asks to take back")
    # declined: the move stays
    friend.get_by_test_id("takeback-decline").click()
    expect(offer).to_be_hidden()
    expect(page.get_by_test_id("takeback-offer")).to_be_hidden()
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(1)
    # asked again, accepted: both boards go back to the start
    page.get_by_test_id("takeback").click()
    friend.get_by_test_id("takeback-accept").click()
    for p in (page, friend):
        expect(p.get_by_test_id("move-list").locator("li")).to_have_count(0)
        expect(p.locator(".nim-count")).to_have_text(["3", "4", "5"])
    expect(page.get_by_test_id("status")).to_contain_text("Your move")


def test_a_teacher_steps_an_ai_game(page: Page, base_url, live_server):
    game = create(base_url, ["alphabeta", "random:seed=4"], piles="4,5,6,7")
    # pause at once (the AIs move every 0.05 s in tests), as the teacher's page would
    client = socketio.Client(reconnection=False)
    client.connect(base_url, transports=["websocket"], wait_timeout=5)
    try:
        client.emit("pause", {"game_id": game["id"], "token": game["manage_token"]})
        eventually(lambda: requests.get(f"{base_url}/api/games/{game['id']}", timeout=10).json()["paused"],
                   every=0.05, what="the game to be paused")
    finally:
        client.disconnect()
    # the lobby keeps the creator's manage token in this browser: do the same
    page.goto("/")
    page.evaluate("([id, t]) => localStorage.setItem(`arcade.manage.${id}`, t)", [game["id"], game["manage_token"]])
    page.goto(game["url"])
    expect(page.get_by_test_id("resume")).to_be_visible()
    expect(page.get_by_test_id("status")).to_contain_text("Paused")
    moves = page.get_by_test_id("move-list").locator("li")
    before = requests.get(f"{base_url}/api/games/{game['id']}", timeout=10).json()["ply"]
    expect(moves).to_have_count(before)
    page.get_by_test_id("step").click()
    expect(moves).to_have_count(before + 1)
    ai_stays_idle(live_server.app.test_client(), game["id"])  # the server plays no further move ...
    expect(moves).to_have_count(before + 1)  # ... so the page shows one step, one move
    page.get_by_test_id("ai-speed").select_option("0.2")
    page.get_by_test_id("resume").click()
    expect(page.get_by_test_id("status")).to_contain_text("Game over", timeout=20_000)
    state = requests.get(f"{base_url}/api/games/{game['id']}", timeout=10).json()
    assert state["ai_pause"] == 0.2


def test_import_a_record_in_the_lobby(page: Page, base_url, tmp_path):
    record = {"game": "nim", "options": {"piles": [3, 4, 5], "misere": True},
              "moves": [{"move": "1:1"}, {"move": "2:2"}, {"move": "3:3"}]}
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    page.goto("/")
    page.get_by_test_id("import-record").set_input_files(str(path))
    expect(page).to_have_url(re.compile(r"/replay/[\w-]+$"))
    expect(page.get_by_test_id("replay-status")).to_contain_text("After move 3 of 3")
    expect(page.locator(".nim-count")).to_have_text(["2", "2", "2"])
    # a file that is no record is refused with a clear message
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}')
    page.goto("/")
    page.get_by_test_id("import-record").set_input_files(str(bad))
    expect(page.get_by_test_id("import-error")).to_contain_text("is not a game record")
    # a record with an illegal move is refused by the server, naming the move
    illegal = tmp_path / "illegal.json"
    illegal.write_text(json.dumps(dict(record, moves=[{"move": "1:1"}, {"move": "1:9"}])))
    page.get_by_test_id("import-record").set_input_files(str(illegal))
    expect(page.get_by_test_id("import-error")).to_contain_text("move 2 ('1:9') is not legal")
