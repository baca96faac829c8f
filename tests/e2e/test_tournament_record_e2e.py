"""A game of a class tournament (``python -m engine tournament --records DIR``), imported in
the lobby as a person would, opens in the replay page at its last move."""

import json
import re

from playwright.sync_api import Page, expect

from engine.cli import main
from engine.grade import STUDENTS


def test_a_tournament_record_opens_in_the_replay_page(page: Page, tmp_path, capsys):
    records = tmp_path / "records"
    assert main(["tournament", "sim", "--agents", str(STUDENTS / "correct.py"), "alphabeta:depth=2",
                 "--games", "1", "--seed", "3", "--records", str(records)]) == 0
    capsys.readouterr()
    record = records / "game-0001.json"
    moves = len(json.loads(record.read_text())["moves"])
    assert moves >= 5  # Sim needs at least five moves before a triangle
    page.goto("/")
    page.get_by_test_id("import-record").set_input_files(str(record))
    expect(page).to_have_url(re.compile(r"/replay/[\w-]+$"))
    expect(page.get_by_test_id("replay-status")).to_contain_text(f"After move {moves} of {moves}")
    expect(page.get_by_test_id("replay-status")).to_be_visible()
