"""Predict the prune in the browser (issue 43): a teacher and four phone-size students; a hand-made
tree, then a Nim class game's real position at depth 2. The students tap different node sets;
after the reveal each phone shows every node marked exactly as engine/textbook.py's run says
(the expected marks computed here from the textbook's own visits), and the projector plays the
run back, every pruned node marked with its reason. axe: no serious or critical violation on
each new page state, at 390 and 1280 px."""

from __future__ import annotations

import json

import requests
from playwright.sync_api import Page, expect

from engine.games import get_game
from tests.e2e.test_a11y import serious_violations
from tests.e2e.test_classroom_e2e import DESKTOP, PHONE, join, shots  # noqa: F401  (a fixture)
from tests.web.test_prune import every_node, expected_marks, node_id
from webapp.classes.prune import HandTree

NAMES = ["Ann Fox", "Bob Owl", "Cy Seal", "Dee Lynx"]
TREE = [[[3, 12], [8, 2]], [[4, 6], [14, 5]], [[1, 9], [7, 7]]]
NIM = {"name": "Prune class", "game": "nim", "options": {"piles": [2, 3]}, "opponent": "alphabeta:strength=3"}


def teacher_page(browser, base_url, klass, **size) -> Page:
    context = browser.new_context(base_url=base_url, bypass_csp=True, **size)
    page = context.new_page()
    page.goto("/join")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"arcade.class.{klass['id']}", klass["teacher_token"]])
    page.goto(f"/class/{klass['id']}")
    return page


def tap_sets(ids: list[str], truth: list[str]) -> list[list[str]]:
    """Four different answers: the truth, nothing, the truth's first node, two wrong leaves."""
    return [truth, [], truth[:1], [i for i in ids[1:] if i not in truth][-2:]]


def answer_on_phones(students: list[Page], taps: list[list[str]]) -> None:
    for student, tapped in zip(students, taps):
        expect(student.get_by_test_id("prune")).to_be_visible(timeout=15000)
        for node in tapped:
            target = student.locator(f"[data-testid=prune] [data-testid=prune-tree] [data-node='{node}']")
            if target.get_attribute("aria-pressed") != "true":  # (a parent's tap took its subtree)
                target.click()
        student.get_by_test_id("prune").get_by_test_id("prune-send").click()
        expect(student.get_by_test_id("prune").get_by_test_id("prune-result")).to_have_text(
            "Answer sent: wait for the reveal.")


def check_marks(students: list[Page], taps: list[list[str]], expected) -> None:
    for student, tapped in zip(students, taps):
        marks = expected(set(tapped))
        result = student.get_by_test_id("prune").get_by_test_id("prune-result")
        right = sum(m == "right" for m in marks.values())
        expect(result).to_contain_text(f"{right} of {len(marks)} nodes right", timeout=15000)
        shown = student.locator("[data-testid=prune] [data-testid=prune-tree] [data-mark]")
        expect(shown).to_have_count(len(marks))
        got = {g.get_attribute("data-node"): g.get_attribute("data-mark") for g in shown.all()}
        assert got == marks


def run_puzzle(teacher: Page, students: list[Page], ids: list[str], truth: list[str], expected, folder, name) -> None:
    taps = tap_sets(ids, truth)
    for student in students:  # a new puzzle replaces the last one on every phone
        drawn = student.locator("[data-testid=prune] [data-testid=prune-tree] [data-node]")
        expect(drawn).to_have_count(len(ids), timeout=15000)
    # the node a student taps drags its subtree: what is sent is the closed set
    closed = [sorted({d for t in tapped for d in ids if d == t or d.startswith(t + ".")}, key=ids.index) for tapped in taps]
    answer_on_phones(students, taps)
    expect(teacher.get_by_test_id("prune-answered")).to_contain_text("4 of 4 answered", timeout=15000)
    students[2].screenshot(path=str(folder / f"prune-{name}-phone.png"), full_page=True)
    assert serious_violations(students[2]) == []
    teacher.get_by_test_id("prune-reveal").click()
    expect(teacher.get_by_test_id("prune-answered")).to_contain_text("revealed")
    check_marks(students, closed, expected)
    assert serious_violations(students[3]) == []
    students[3].get_by_test_id("prune").screenshot(path=str(folder / f"prune-{name}-marked-phone.png"))
    for row, tapped in zip(NAMES, closed):
        marks = expected(set(tapped))
        right = sum(m == "right" for m in marks.values())
        expect(teacher.locator(f"[data-result='{row}']")).to_contain_text(f"{right} / {len(marks)}")
    assert serious_violations(teacher) == []
    teacher.get_by_test_id("formats").screenshot(path=str(folder / f"prune-{name}-dashboard.png"))

    link = teacher.get_by_test_id("prune-projector").get_attribute("href")
    projector = teacher.context.new_page()
    projector.goto(link)
    expect(projector.get_by_test_id("pb-count")).to_have_text(f"step 0 of {projector_events(link, teacher)}")
    projector.get_by_test_id("pb-play").click()
    expect(projector.locator("[data-testid=playback-tree] .pb-done").first).to_be_visible(timeout=10000)
    projector.get_by_test_id("pb-end").click()
    pruned = projector.locator("[data-testid=playback-tree] [data-pruned]")
    expect(pruned).to_have_count(len(truth))
    assert sorted(g.get_attribute("data-node") for g in pruned.all()) == sorted(truth)
    cut = projector.locator("[data-testid=playback-tree] [data-pruned=cut] title").first
    assert "cut" in cut.text_content() and "never visited" in cut.text_content()
    visited = f"{len(ids) - len(truth)} of {len(ids)} nodes visited"
    expect(projector.get_by_test_id("playback-summary")).to_contain_text(visited)
    projector.get_by_test_id("pb-back").click()
    projector.get_by_test_id("pb-back").click()
    expect(projector.get_by_test_id("narration")).not_to_be_empty()
    assert serious_violations(projector) == []
    projector.screenshot(path=str(folder / f"prune-{name}-projector.png"), full_page=True)
    projector.close()


def projector_events(link: str, teacher: Page) -> int:
    class_id, prune_id = link.split("/")[2], link.split("/")[4]
    token = teacher.evaluate(f"localStorage.getItem('arcade.class.{class_id}')")
    base = teacher.url.split("/class/")[0]
    data = requests.get(f"{base}/api/classes/{class_id}/prunes/{prune_id}?token={token}").json()
    return len(data["puzzle"]["events"])


def test_predict_the_prune_in_class(browser, base_url, shots):  # noqa: F811
    klass = requests.post(f"{base_url}/api/classes", json=NIM).json()
    teacher = teacher_page(browser, base_url, klass, **DESKTOP)
    students = []
    for name in NAMES:
        student = browser.new_context(base_url=base_url, bypass_csp=True, **PHONE).new_page()
        join(student, klass["code"], name, by_link=True)
        students.append(student)
    expect(teacher.locator("[data-student]")).to_have_count(4, timeout=15000)

    # a hand-made tree
    teacher.get_by_test_id("open-prune").click()
    teacher.get_by_test_id("prune-leaves").fill(json.dumps(TREE))
    teacher.get_by_test_id("prune-start").click()
    game = HandTree(TREE)
    ids = [node_id(game, (), p) for p in every_node(game, (), 3)]
    truth = sorted(i for i, m in expected_marks(game, (), 3, set()).items() if m == "wrong")
    run_puzzle(teacher, students, ids, truth, lambda tapped: expected_marks(game, (), 3, tapped), shots, "hand")

    # a Nim class game's real position, two plies deep
    students[0].get_by_test_id("new-game").click()
    expect(students[0].get_by_test_id("status")).to_have_text("Your move", timeout=15000)
    option = teacher.locator("[data-testid=prune-source] option", has_text="Ann Fox's game")
    expect(option).to_have_count(1, timeout=15000)
    teacher.get_by_test_id("prune-source").select_option(label=option.inner_text())
    teacher.get_by_test_id("prune-depth").select_option("2")
    teacher.get_by_test_id("prune-start").click()
    nim = get_game("nim").from_options(NIM["options"])
    state = nim.start()
    ids = [node_id(nim, state, p) for p in every_node(nim, state, 2)]
    truth = sorted(i for i, m in expected_marks(nim, state, 2, set()).items() if m == "wrong")
    assert truth  # the position prunes something
    run_puzzle(teacher, students, ids, truth, lambda tapped: expected_marks(nim, state, 2, tapped), shots, "nim")
    for student in students:
        student.context.close()
    teacher.context.close()
