"""A lesson in the browser (issue 28): a teacher creates a class from the lobby, five students
join on phones (code typed, or the QR's link opened), play, and the dashboard's thumbnails follow;
the teacher projects a game, challenges the class, reveals the engine's verdict, and deletes the
class. axe finds no serious or critical violation on the join page, the dashboard and the
projector, at 390 px and on a desktop. Screenshots go to ``$ARCADE_SHOTS`` (else the test's
temporary folder)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import requests
from playwright.sync_api import Page, expect

from tests.e2e.test_a11y import serious_violations

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
NAMES = ["Brave Fox", "Calm Owl", "Kind Seal", "Lucky Lynx", "Witty Heron"]


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("ARCADE_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def contexts(browser, base_url):
    """``contexts(**options)``: a page in a new browser context (``base_url=`` another server)."""
    made = []

    def make(**options):
        options.setdefault("base_url", base_url)
        context = browser.new_context(bypass_csp=True, **options)  # (axe is injected)
        made.append(context)
        return context.new_page()

    yield make
    for context in made:
        context.close()


def create_class(teacher: Page, shots: Path) -> tuple[str, str]:
    teacher.goto("/?game=nim")
    teacher.get_by_test_id("class-name").fill("Year 9 algorithms")
    teacher.get_by_test_id("class-level").select_option("3")
    teacher.get_by_test_id("teach-class").screenshot(path=str(shots / "classroom-lobby-form.png"))
    teacher.get_by_test_id("create-class").click()
    teacher.wait_for_url(re.compile(r"/class/[^/]+$"))
    code = teacher.get_by_test_id("class-code")
    expect(code).to_have_text(re.compile(r"^[A-Z0-9]{6}$"))
    return teacher.url.rsplit("/", 1)[1], code.inner_text()


def join(student: Page, code: str, name: str, *, by_link: bool) -> None:
    if by_link:
        student.goto(f"/join?code={code}")
        expect(student.get_by_test_id("join-code")).to_have_value(code)
    else:
        student.goto("/join")
        student.get_by_test_id("join-code").fill(code.lower())
    expect(student.get_by_test_id("join-name")).to_have_value(re.compile(r"^\w+ \w+$"))  # a suggestion
    student.get_by_test_id("join-name").fill(name)
    student.get_by_test_id("join-button").click()
    expect(student.get_by_test_id("student-name")).to_have_text(name)


def play_a_move(student: Page) -> None:
    expect(student.get_by_test_id("status")).to_have_text("Your move", timeout=15000)
    student.locator("#board .move-target").first.click()
    expect(student.get_by_test_id("status")).to_have_text(re.compile("Your move|You won|You lost"), timeout=15000)


def test_a_lesson(contexts, base_url, shots):
    lesson(contexts, base_url, base_url, shots)


def lesson(contexts, base_url: str, students_url: str, shots: Path) -> None:
    """The lesson, the teacher on the server at ``base_url``, the students on ``students_url``
    (the same server, or another process of a cluster)."""
    teacher = contexts(**DESKTOP, base_url=base_url)
    class_id, code = create_class(teacher, shots)
    assert "/join" in teacher.get_by_test_id("join-link").inner_text()
    qr = requests.get(f"{base_url}/api/classes/{class_id}/qr.svg").text
    assert f"join?code={code}" in qr  # the QR holds the link a phone opens

    students = []
    for i, name in enumerate(NAMES):
        student = contexts(**PHONE, base_url=students_url)
        join(student, code, name, by_link=i >= 3)
        students.append(student)
    # a nickname already in the class is refused with a clear message, and the page stays
    late = contexts(**PHONE, base_url=students_url)
    late.goto(f"/join?code={code}")
    late.get_by_test_id("join-name").fill("calm owl")
    late.get_by_test_id("join-button").click()
    expect(late.get_by_test_id("join-error")).to_contain_text("already in this class")

    cards = teacher.locator("[data-student]")
    expect(cards).to_have_count(5)
    expect(cards.first).to_contain_text("Not playing yet")

    for student in students:
        student.get_by_test_id("new-game").click()
        play_a_move(student)
    for name in NAMES:
        card = teacher.locator(f"[data-student]:has(.student-name:text-is('{name}'))")
        expect(card.get_by_test_id("thumb-meta")).to_contain_text(re.compile(r"[1-9]\d* moves?"), timeout=15000)
        expect(card.locator(".thumb-board .nim-pile").first).to_be_visible()

    # a thumbnail changes as its student moves
    first = teacher.locator("[data-student]").first
    before = first.locator(".thumb-board").inner_html()
    reload_and_move(students[0])
    expect(first.locator(".thumb-board")).not_to_have_js_property("innerHTML", before, timeout=15000)
    teacher.screenshot(path=str(shots / "classroom-dashboard.png"), full_page=True)
    students[1].screenshot(path=str(shots / "classroom-phone.png"), full_page=True)

    # the projector view of one game, in a tab of its own: large, light, both players named, its
    # search tree one click away; the dashboard stays in its tab
    with teacher.context.expect_page() as opened:
        first.get_by_test_id("thumb").click()
    projector = opened.value
    expect(projector).to_have_url(re.compile(r"/class/.+/project/.+"))
    expect(projector.get_by_test_id("status")).not_to_have_text("Connecting…")
    expect(projector.get_by_test_id("projector-players")).to_have_text(f"{NAMES[0]} (First) vs the computer (Second)")
    expect(projector.locator("#board .nim-pile").first).to_be_visible()
    assert projector.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"
    expect(projector.get_by_test_id("open-tree")).to_have_attribute("href", re.compile(r"/play/.+/tree"))
    projector.screenshot(path=str(shots / "classroom-projector.png"))
    assert serious_violations(projector) == []
    projector.close()
    expect(teacher.locator("[data-student]")).to_have_count(5)

    challenge_the_class(teacher, students, shots)

    # axe: the dashboard and the join page, desktop and phone
    assert serious_violations(teacher) == []
    assert serious_violations(students[0]) == []
    assert serious_violations(late) == []
    teacher.set_viewport_size({"width": 390, "height": 844})
    assert serious_violations(teacher) == []
    for page in (teacher, students[0]):
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than a phone
    teacher.screenshot(path=str(shots / "classroom-dashboard-390.png"), full_page=True)
    teacher.set_viewport_size(DESKTOP["viewport"])

    delete_the_class(teacher, students, base_url, students_url, class_id)


def challenge_the_class(teacher: Page, students: list[Page], shots: Path) -> None:
    """The start position to the class, five answers counted live, then the verdict."""
    teacher.get_by_test_id("open-challenge").click()
    teacher.get_by_test_id("challenge-position").select_option("")
    teacher.get_by_test_id("send-challenge").click()
    for i, student in enumerate(students):
        expect(student.get_by_test_id("challenge")).to_be_visible(timeout=10000)
        targets = student.locator("[data-testid='challenge-board'] .move-target")
        targets.nth(i % 2).click()
        expect(student.get_by_test_id("challenge-status")).to_contain_text("Your answer")
    expect(teacher.get_by_test_id("answer-count")).to_contain_text("5 of 5 answered", timeout=10000)
    counts = teacher.locator("[data-testid='answer-bars'] .answer-count")
    assert sum(int(n) for n in counts.all_inner_texts()) == 5
    teacher.get_by_test_id("reveal").click()
    expect(teacher.locator(".verdict-table td[class^='verdict-']").first).to_be_visible()
    verdicts = teacher.locator(".verdict-table td[class^='verdict-']").all_inner_texts()
    assert verdicts and all(re.match(r"(Win|Loss|Draw) (in \d+|at once)|Draw", v) for v in verdicts), verdicts
    expect(teacher.get_by_test_id("found-best")).to_contain_text(re.compile("Found a best move|Nobody found"))
    expect(students[2].get_by_test_id("student-verdict")).to_contain_text(re.compile("Win|Loss"))
    teacher.screenshot(path=str(shots / "classroom-challenge.png"), full_page=True)
    students[2].screenshot(path=str(shots / "classroom-phone-verdict.png"), full_page=True)


def delete_the_class(teacher: Page, students: list[Page], base_url: str, students_url: str, class_id: str) -> None:
    """The teacher deletes the class: its games are gone, the students are told."""
    games = requests.get(f"{base_url}/api/classes/{class_id}",
                         params={"token": teacher.evaluate(f"localStorage.getItem('arcade.class.{class_id}')")}).json()
    game_ids = [s["games"][-1]["id"] for s in games["students"]]
    teacher.once("dialog", lambda dialog: dialog.accept())
    teacher.get_by_test_id("delete-class").click()
    expect(teacher.get_by_test_id("class-deleted")).to_be_visible()
    for game_id in game_ids:
        assert requests.get(f"{students_url}/api/games/{game_id}").status_code == 404
    expect(students[0].get_by_test_id("join-error")).to_contain_text("ended the class")


def reload_and_move(student: Page) -> None:
    """A reload comes back to the same student and game; then one more move."""
    student.reload()
    expect(student.get_by_test_id("student-home")).to_be_visible()
    status = student.get_by_test_id("status")
    expect(status).to_have_text(re.compile("Your move|You won|You lost"), timeout=15000)
    if status.inner_text() != "Your move":
        student.get_by_test_id("new-game").click()
    play_a_move(student)


def test_the_pages_at_phone_and_desktop_size_pass_axe(contexts, base_url, shots):
    made = requests.post(f"{base_url}/api/classes", json={"name": "Axe", "game": "sim", "options": {},
                                                          "opponent": "alphabeta:strength=1"}).json()
    pupil = requests.post(f"{base_url}/api/classes/join", json={"code": made["code"], "name": "Axe Student"}).json()
    requests.post(f"{base_url}/api/classes/{made['id']}/games", json={"token": pupil["student_token"]})
    for size in (PHONE, DESKTOP):
        page = contexts(**size)
        page.goto("/join")
        expect(page.get_by_test_id("join-name")).to_have_value(re.compile(r"\w+ \w+"))
        page.screenshot(path=str(shots / f"classroom-join-{size['viewport']['width']}.png"))
        assert serious_violations(page) == []
        page.goto(made["dashboard_url"])
        page.evaluate(f"localStorage.setItem('arcade.class.{made['id']}', '{made['teacher_token']}')")
        page.reload()
        expect(page.get_by_test_id("class-code")).to_have_text(made["code"])
        expect(page.locator("[data-student] .thumb-board [data-point]").first).to_be_attached()
        assert serious_violations(page) == []
        with page.context.expect_page() as opened:
            page.get_by_test_id("project").click()
        projector = opened.value
        expect(projector.get_by_test_id("status")).not_to_have_text("Connecting…")
        assert serious_violations(projector) == []
        assert projector.evaluate("document.documentElement.scrollWidth") <= size["viewport"]["width"]


def test_a_student_who_starts_game_after_game_follows_only_the_one_on_screen(contexts, base_url, live_server):
    """The class page opens each new game on the same connection: it leaves the last one, so
    the server neither pushes it nor keeps it in memory for that page (a lesson of many games
    would otherwise keep them all)."""
    made = requests.post(f"{base_url}/api/classes", json={"name": "Many games", "game": "nim", "options": {},
                                                          "opponent": "alphabeta:strength=1"}).json()
    student = contexts(**PHONE)
    join(student, made["code"], "Eager Otter", by_link=True)
    student.on("dialog", lambda dialog: dialog.accept())  # "Start a new game? ..." mid-game: yes
    store = live_server.app.extensions["arcade"].store
    shown = []
    for _ in range(3):
        student.get_by_test_id("new-game").click()
        link = student.get_by_test_id("full-page")
        expect(link).to_have_attribute("href", re.compile(r"^/play/(?!" + "|".join(shown or ["-"]) + r")[^?]+\?"))
        shown.append(link.get_attribute("href").split("/")[2].split("?")[0])
        play_a_move(student)  # the page shows the new game and plays it
    watched = store.watched()
    assert shown[-1] in watched
    assert [gid for gid in shown[:-1] if gid in watched] == []
