"""The lesson formats' pages in the browser (issue 43): homework set on the dashboard and answered on
the students' pages (a board tap, a tree's taps), the results per student and position on the
dashboard; a class tournament started on the dashboard, the next opponent on each phone, the
standings on the projector page; a predict-the-prune puzzle on every page. axe finds no serious
or critical violation on any of these page states, at 390 px and at 1280 px."""

from __future__ import annotations

import re

import requests
from playwright.sync_api import Page, expect

from engine.analyse import all_verdicts, best_moves
from engine.games import get_game
from tests.e2e.test_a11y import serious_violations
from tests.e2e.test_classroom_e2e import PHONE, join, shots  # noqa: F401  (a fixture)
from tests.e2e.test_prune_e2e import teacher_page

NIM = {"name": "Formats class", "game": "nim", "options": {"piles": [2, 3]}, "opponent": "alphabeta:depth=2"}
TREE = [[[3, 12], [8, 2]], [[4, 6], [14, 5]]]
WIDTHS = {390: 844, 1280: 800}


def audit(page: Page, name: str, folder) -> None:
    """No serious or critical axe violation at 390 px and at 1280 px; a screenshot at each."""
    for width, height in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)  # (the trees are drawn for the width they find)
        assert serious_violations(page) == [], f"{name} at {width} px"
        assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{name} scrolls sideways at {width} px"
        page.screenshot(path=str(folder / f"{name}-{width}.png"), full_page=True)


def test_homework_tournament_and_prune_pages(browser, base_url, shots):  # noqa: F811
    klass = requests.post(f"{base_url}/api/classes", json=NIM).json()
    teacher = teacher_page(browser, base_url, klass, viewport={"width": 1280, "height": 800})
    students = []
    for name in ("Ann Fox", "Bob Owl", "Cy Seal"):
        student = browser.new_context(base_url=base_url, bypass_csp=True, **PHONE).new_page()
        join(student, klass["code"], name, by_link=True)
        students.append(student)
    expect(teacher.locator("[data-student]")).to_have_count(3, timeout=15000)

    # homework: a best move and a tree, set on the dashboard
    teacher.get_by_test_id("open-homework").click()
    teacher.get_by_test_id("homework-title").fill("Week 3")
    teacher.get_by_test_id("homework-what").fill("1:1")
    teacher.get_by_test_id("homework-add").click()
    teacher.get_by_test_id("homework-kind").select_option("pruned")
    teacher.get_by_test_id("homework-what").fill(str(TREE))
    teacher.get_by_test_id("homework-add").click()
    expect(teacher.get_by_test_id("homework-positions").locator("li")).to_have_count(2)
    teacher.get_by_test_id("homework-assign").click()
    expect(teacher.locator("[data-homework-student]")).to_have_count(3, timeout=15000)

    ann, bob = students[0], students[1]
    nim = get_game("nim").from_options(NIM["options"])
    best = best_moves(all_verdicts(nim, nim.replay(["1:1"]), 8.0, cancel=None))
    assert "2:3" in best and "1:1" not in best  # (misère: leave the other the last stick)
    for pupil, pile in ((ann, "2:3"), (bob, "1:1")):
        first = pupil.locator("[data-homework] [data-position='0']")
        expect(first).to_be_visible(timeout=15000)
        first.locator(f"[data-move='{pile}']").click()
        expect(first).to_contain_text("Your answer", timeout=15000)
    tree = ann.locator("[data-homework] [data-position='1']")
    tree.locator("[data-node='r.1.1']").click()
    tree.get_by_test_id("prune-send").click()
    expect(tree.get_by_test_id("prune-result")).to_have_text("Answer sent: the verdict comes after the due date.")
    row = teacher.locator("[data-homework-student='Ann Fox']")
    expect(row.locator("td").nth(1)).to_have_text("✓", timeout=15000)  # r.1.1 and below: the textbook's prune
    expect(row.locator("td").nth(2)).to_have_text("2 / 2")
    expect(teacher.locator("[data-homework-student='Bob Owl'] td").nth(0)).to_have_text("✗")
    expect(teacher.locator("[data-homework-student='Cy Seal'] td").nth(2)).to_have_text("0 / 2")
    audit(ann, "formats-homework-student", shots)
    ann.get_by_test_id("homework-student").screenshot(path=str(shots / "formats-homework-phone.png"))
    audit(teacher, "formats-homework-dashboard", shots)
    teacher.get_by_test_id("formats").screenshot(path=str(shots / "formats-homework-panel.png"))

    # a tournament among the three: round robin, the odd one out against the computer
    teacher.set_viewport_size({"width": 1280, "height": 800})
    teacher.get_by_test_id("open-tournament").click()
    teacher.get_by_test_id("tournament-start").click()
    expect(teacher.get_by_test_id("tournament-status")).to_have_text("Round robin: round 1 of 3.", timeout=15000)
    expect(teacher.locator("[data-standing]")).to_have_count(3)
    for pupil in students:
        expect(pupil.get_by_test_id("next-opponent")).to_contain_text(re.compile("Round 1: you play"), timeout=15000)
        expect(pupil.locator("#board [data-move]").first).to_be_attached(timeout=15000)  # the game opened
    bob_card = teacher.locator("[data-student]", has_text="Bob Owl")
    expect(bob_card).not_to_contain_text("Not playing yet", timeout=15000)  # the dashboard follows
    audit(students[2], "formats-tournament-student", shots)
    students[2].get_by_test_id("tournament-student").screenshot(path=str(shots / "formats-tournament-phone.png"))
    audit(teacher, "formats-tournament-dashboard", shots)
    teacher.get_by_test_id("formats").screenshot(path=str(shots / "formats-tournament-panel.png"))
    projector = teacher.context.new_page()
    projector.goto(teacher.get_by_test_id("tournament-projector").get_attribute("href"))
    expect(projector.locator("[data-standing]")).to_have_count(3)
    expect(projector.locator("[data-round='1'] li")).to_have_count(2)
    audit(projector, "formats-tournament-projector", shots)

    # predict the prune: the value question, answered, revealed, played back
    teacher.set_viewport_size({"width": 1280, "height": 800})
    teacher.get_by_test_id("open-prune").click()
    teacher.get_by_test_id("prune-question").select_option("value")
    teacher.get_by_test_id("prune-start").click()
    box = ann.get_by_test_id("prune")
    expect(box.locator("[data-value]").first).to_be_visible(timeout=15000)
    audit(ann, "formats-prune-question", shots)
    box.locator("[data-value='8']").click()
    box.get_by_test_id("prune-send").click()
    expect(teacher.get_by_test_id("prune-answered")).to_contain_text("1 of 3 answered", timeout=15000)
    teacher.get_by_test_id("prune-reveal").click()
    expect(box.get_by_test_id("prune-result")).to_have_text("The root's value is 8: right!", timeout=15000)
    audit(ann, "formats-prune-revealed", shots)
    audit(teacher, "formats-prune-dashboard", shots)
    projector.goto(teacher.get_by_test_id("prune-projector").get_attribute("href"))
    projector.get_by_test_id("pb-end").click()
    expect(projector.get_by_test_id("playback-summary")).to_contain_text("the root's value is 8")
    audit(projector, "formats-prune-projector", shots)
    for pupil in students:
        pupil.context.close()
    teacher.context.close()
