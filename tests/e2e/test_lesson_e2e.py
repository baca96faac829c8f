"""A lesson that keeps (issue 40), in Chromium: the teacher on any device (a teacher link), every
student in every challenge whatever page they are on, leaving and coming back, names as people
write them, challenges kept with the class, big positions. Console errors fail the test; axe finds
no serious or critical violation on the new and changed pages at 390 and 1280 px. Screenshots go to
``$ARCADE_SHOTS`` (else the test's temporary folder)."""

from __future__ import annotations

import csv
import re
import time

import pytest
import requests
from playwright.sync_api import Page, expect

from tests.e2e.test_a11y import serious_violations
from tests.e2e.test_classroom_e2e import DESKTOP, PHONE, shots  # noqa: F401 (a fixture)
from tests.e2e.test_school_e2e import move_and_answer
from tests.helpers import eventually


@pytest.fixture
def pages(browser, base_url):
    """``pages(**options)``: a page in a new browser context whose console errors are kept in
    ``errors`` (checked at the end of the test)."""
    made, errors = [], []

    def watch(page: Page) -> Page:
        # (Chromium's own line when the server closes a websocket whose last frame is under way
        # -- a removed student, a deleted class -- is the transport's, not the page's)
        page.on("console", lambda msg: errors.append(f"{page.url}: {msg.text}")
                if msg.type == "error" and "Data frame received after close" not in msg.text else None)
        page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
        return page

    def make(**options):
        options.setdefault("base_url", base_url)
        context = browser.new_context(bypass_csp=True, **options)  # (axe is injected)
        made.append(context)
        return watch(context.new_page())

    make.tab = lambda page: watch(page.context.new_page())  # another tab of the same browser
    make.errors = errors
    yield make
    for context in made:
        context.close()
    assert errors == []


def axe_at_both_sizes(page: Page) -> None:
    for size in (PHONE["viewport"], DESKTOP["viewport"]):
        page.set_viewport_size(size)
        assert serious_violations(page) == [], size
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]


def create_class_in_the_lobby(teacher: Page, game: str = "nim", name: str = "Year 9 algorithms") -> tuple[str, str]:
    """The lobby's "Teach a class"; the dashboard opens with the teacher link shown once."""
    teacher.goto(f"/?game={game}")
    teacher.get_by_test_id("class-name").fill(name)
    teacher.get_by_test_id("create-class").click()
    teacher.wait_for_url(re.compile(r"/class/[^/#]+$"))  # the token is gone from the address bar
    expect(teacher.get_by_test_id("class-code")).to_have_text(re.compile(r"^[A-Z0-9]{6}$"))
    expect(teacher.get_by_test_id("teacher-link-panel")).to_be_visible()
    expect(teacher.get_by_test_id("teacher-link-title")).to_contain_text("Keep your teacher link")
    link = teacher.get_by_test_id("teacher-link").input_value()
    assert re.search(r"/class/[^/#]+#token=[\w-]+$", link), link
    return link, teacher.get_by_test_id("class-code").inner_text()


def test_the_teacher_link_opens_the_dashboard_on_any_device(pages, base_url, shots):  # noqa: F811 (imported)
    teacher = pages(**DESKTOP)
    teacher.context.grant_permissions(["clipboard-read", "clipboard-write"])
    link, code = create_class_in_the_lobby(teacher)
    teacher.screenshot(path=str(shots / "lesson-teacher-link-1280.png"))
    teacher.get_by_test_id("copy-teacher-link").click()
    expect(teacher.get_by_test_id("copy-note")).to_contain_text("Copied")
    assert teacher.evaluate("navigator.clipboard.readText()") == link
    axe_at_both_sizes(teacher)
    requests.post(f"{base_url}/api/classes/join", json={"code": code, "name": "Brave Fox"})

    # the projector PC: no token until the link is opened; then the whole dashboard
    projector = pages(**DESKTOP)
    class_url = link.split("#")[0]
    projector.goto(class_url)
    expect(projector.get_by_test_id("no-teacher-link")).to_be_visible()
    for part in ("class-title", "qr", "pair", "delete-class", "students-heading"):
        expect(projector.locator(f"[data-testid={part}], #{part}")).to_be_hidden()  # no half-drawn dashboard
    axe_at_both_sizes(projector)
    projector.screenshot(path=str(shots / "lesson-no-teacher-link-1280.png"))
    projector.get_by_test_id("paste-link").fill("not a link")
    projector.get_by_test_id("paste-link-form").get_by_role("button", name="Open").click()
    expect(projector.get_by_test_id("paste-link-error")).to_contain_text("not a teacher link")
    projector.get_by_test_id("paste-link").fill(link)
    projector.get_by_test_id("paste-link-form").get_by_role("button", name="Open").click()
    expect(projector.get_by_test_id("class-code")).to_have_text(code)
    assert projector.url == class_url  # the token left the address bar
    expect(projector.get_by_test_id("class-count")).to_have_text("1 student joined.")
    expect(projector.locator("[data-student]")).to_have_count(1)
    assert projector.evaluate("document.querySelector('[data-testid=qr]').naturalWidth") > 0
    expect(projector.get_by_test_id("teacher-link-panel")).to_be_hidden()  # shown once, at creation
    projector.get_by_test_id("open-teacher-link").click()
    expect(projector.get_by_test_id("teacher-link")).to_have_value(link)

    # another device opening the link directly; the lobby lists the class
    phone = pages(**PHONE)
    phone.goto(link)
    expect(phone.get_by_test_id("class-code")).to_have_text(code)
    assert "#" not in phone.url
    phone.goto("/")
    listed = phone.get_by_test_id("your-classes")
    expect(listed).to_contain_text("Year 9 algorithms")
    expect(listed).to_contain_text(f"code {code}")
    expect(listed).to_contain_text("1 student")
    axe_at_both_sizes(phone)
    listed.get_by_role("link", name="Year 9 algorithms").click()
    expect(phone.get_by_test_id("class-code")).to_have_text(code)

    # a wrong token is one clear page too
    stranger = pages(**DESKTOP)
    stranger.goto(class_url + "#token=wrong")
    expect(stranger.get_by_test_id("no-teacher-link")).to_be_visible()
    expect(stranger.get_by_test_id("no-teacher-why")).to_contain_text("not this class's")


def new_class(base_url: str, game: str = "nim", options: dict | None = None, name: str = "Lesson") -> dict:
    return requests.post(f"{base_url}/api/classes", json={"name": name, "game": game, "options": options or {},
                                                          "opponent": "alphabeta:strength=3"}).json()


def join_on_the_page(student: Page, code: str, name: str) -> None:
    student.goto(f"/join?code={code}")
    expect(student.get_by_test_id("join-name")).not_to_have_value("")
    student.get_by_test_id("join-name").fill(name)
    student.get_by_test_id("join-button").click()
    expect(student.get_by_test_id("student-name")).to_have_text(name)


def board_and_status(student: Page) -> tuple[str, str]:
    """The board and the status as one render left them: read in one step (read one after
    the other, a render between the two pairs the board of the computer thinking with the
    "Your move" of its answer)."""
    board, status = student.evaluate(
        "() => [document.querySelector('#board').innerHTML, document.querySelector('[data-testid=status]').innerText]")
    return board, status


def latest_game_id(base_url: str, made: dict) -> str:
    """The id of the newest game of the class's one student (as the teacher's dashboard lists it)."""
    state = requests.get(f"{base_url}/api/classes/{made['id']}", params={"token": made["teacher_token"]},
                         timeout=10).json()
    (student,) = state["students"]
    return student["games"][-1]["id"]


def challenge(base_url: str, made: dict, moves: list[str] | None = None, seconds: int = 60, **where) -> dict:
    answer = requests.post(f"{base_url}/api/classes/{made['id']}/challenges",
                           json={"token": made["teacher_token"], "moves": moves or [], "seconds": seconds, **where})
    assert answer.status_code == 201, answer.text
    return answer.json()


def test_a_student_on_the_full_game_page_or_the_tree_gets_everything(pages, base_url, shots):  # noqa: F811
    made = new_class(base_url)
    student = pages(**PHONE)
    join_on_the_page(student, made["code"], "Tom & Jerry")
    student.get_by_test_id("new-game").click()
    expect(student.get_by_test_id("full-page")).to_be_visible()
    student.get_by_test_id("full-page").click()
    student.wait_for_url(re.compile(r"/play/[^/]+\?token="))
    expect(student.get_by_test_id("class-bar-name")).to_have_text("Tom & Jerry")
    game_id = student.url.split("/play/")[1].split("?")[0]
    tree = pages.tab(student)
    tree.goto(f"/play/{game_id}/tree")
    expect(tree.get_by_test_id("class-bar-name")).to_have_text("Tom & Jerry")

    made_challenge = challenge(base_url, made)
    for page in (student, tree):
        expect(page.get_by_test_id("challenge")).to_be_visible(timeout=3000)
        expect(page.get_by_test_id("challenge-status")).to_contain_text("You play First, to move")
    student.locator("[data-testid='challenge-board'] .move-target").first.click()
    expect(student.get_by_test_id("challenge-status")).to_contain_text("Your answer")
    state = requests.get(f"{base_url}/api/classes/{made['id']}/challenges/{made_challenge['id']}",
                         params={"token": made["teacher_token"]}).json()
    assert (state["answered"], state["students"]) == (1, 1)
    student.screenshot(path=str(shots / "lesson-full-page-challenge-390.png"), full_page=True)
    for page in (student, tree):
        axe_at_both_sizes(page)
        page.set_viewport_size(PHONE["viewport"])

    requests.post(f"{base_url}/api/classes/{made['id']}/challenges/{made_challenge['id']}/reveal",
                  json={"token": made["teacher_token"]})
    expect(student.get_by_test_id("student-verdict")).to_contain_text(re.compile("Win|Loss"))
    expect(student.locator("[data-testid='student-verdict'] tr.mine")).to_have_count(1)  # their own row

    sid = requests.get(f"{base_url}/api/classes/{made['id']}", params={"token": made["teacher_token"]}).json()
    sid = sid["students"][0]["id"]
    requests.post(f"{base_url}/api/classes/{made['id']}/students/{sid}",
                  json={"token": made["teacher_token"], "name": "Tom and Jerry"})
    for page in (student, tree):
        expect(page.get_by_test_id("class-bar-name")).to_have_text("Tom and Jerry", timeout=2000)

    requests.delete(f"{base_url}/api/classes/{made['id']}", params={"token": made["teacher_token"]})
    expect(student.get_by_test_id("status")).to_contain_text("ended the class", timeout=2000)
    expect(tree.get_by_test_id("class-bar-note")).to_contain_text("ended the class", timeout=2000)
    # the search tree of a class game still being played is the teacher's (issue 41): the
    # student's tree page was refused it (403), and its console says so; nothing else may fail
    pages.errors[:] = [e for e in pages.errors if not ("/tree" in e and "403" in e)]


def test_leaving_asks_first_and_a_student_comes_back_with_their_games(pages, base_url, shots):  # noqa: F811
    made = new_class(base_url)
    teacher = pages(**DESKTOP)
    teacher.goto(f"{made['dashboard_url']}#token={made['teacher_token']}")
    student = pages(**PHONE)
    join_on_the_page(student, made["code"], "Siobhán O’Brien")
    student.get_by_test_id("new-game").click()
    expect(student.get_by_test_id("status")).to_have_text("Your move", timeout=15000)
    game = f"{base_url}/api/games/{latest_game_id(base_url, made)}"
    played, before = len(requests.get(game, timeout=10).json()["history"]), student.locator("#board").inner_html()
    student.locator("#board .move-target").first.click()
    # the computer's answer is stored (or the game is over), and the page shows it: a board of
    # after the move that waits for them (not the one before it, nor the computer thinking)
    eventually(lambda: requests.get(game, timeout=10).json(),
               lambda s: s["status"] == "over" or (len(s["history"]) >= played + 2 and s["ai"]["thinking"] is None),
               what="the computer's answer")
    status = re.compile("Your move|You won|You lost")
    board = eventually(lambda: board_and_status(student),
                       lambda seen: seen[0] != before and status.search(seen[1]), what="the page to show it")[0]

    student.get_by_test_id("leave").click()
    expect(student.get_by_test_id("leave-confirm")).to_be_visible()
    student.screenshot(path=str(shots / "lesson-leave-confirm-390.png"), full_page=True)
    axe_at_both_sizes(student)
    student.set_viewport_size(PHONE["viewport"])
    student.get_by_test_id("leave-no").click()
    expect(student.get_by_test_id("leave-confirm")).to_be_hidden()
    expect(student.get_by_test_id("student-home")).to_be_visible()  # "Stay" changes nothing
    student.get_by_test_id("leave").click()
    student.get_by_test_id("leave-yes").click()
    expect(student.get_by_test_id("join-error")).to_contain_text("You left the class")
    expect(student.get_by_test_id("join-name")).to_have_value("Siobhán O’Brien")

    card = teacher.locator("[data-student]")
    expect(card.get_by_test_id("thumb-status")).to_contain_text("left the class")
    challenge(base_url, made)
    expect(teacher.get_by_test_id("answer-count")).to_contain_text("0 of 0 answered")  # no ghost
    teacher.screenshot(path=str(shots / "lesson-student-left-1280.png"))

    student.get_by_test_id("join-button").click()  # the same code and nickname
    expect(student.get_by_test_id("student-name")).to_have_text("Siobhán O’Brien")
    expect(student.get_by_test_id("status")).to_have_text(re.compile("Your move|You won|You lost"), timeout=15000)
    assert student.locator("#board").inner_html() == board  # their game, as they left it
    expect(card.get_by_test_id("thumb-status")).not_to_contain_text("left the class")
    expect(teacher.get_by_test_id("answer-count")).to_contain_text("0 of 1 answered")
    expect(card).to_have_count(1)


def test_the_dashboard_keeps_every_challenge_and_opens_each_again(pages, base_url, shots):  # noqa: F811
    made = new_class(base_url)
    pupils = [requests.post(f"{base_url}/api/classes/join", json={"code": made["code"], "name": n}).json()
              for n in ("O'Brien", "Tom & Jerry")]
    teacher = pages(**DESKTOP)
    teacher.goto(f"{made['dashboard_url']}#token={made['teacher_token']}")
    expect(teacher.locator("[data-student]")).to_have_count(2)
    for moves in ([], ["1:1"]):
        made_challenge = challenge(base_url, made, moves)
        verdict = requests.get(f"{base_url}/api/classes/{made['id']}/challenges/{made_challenge['id']}",
                               params={"token": made["teacher_token"]}).json()
        right, wrong = verdict["right_moves"][0], next(m for m in verdict["legal_moves"] if m not in verdict["right_moves"])
        for pupil, move in zip(pupils, (right, wrong)):
            requests.post(f"{base_url}/api/classes/{made['id']}/challenges/{made_challenge['id']}/answers",
                          json={"token": pupil["student_token"], "move": move})
        # as a teacher does: reveal once both answers of this challenge are on the screen
        expect(teacher.get_by_test_id("answer-count")).to_contain_text("2 of 2 answered", timeout=10000)
        teacher.get_by_test_id("reveal").click()
        expect(teacher.get_by_test_id("found-best")).to_contain_text("Right: O'Brien", timeout=10000)
    rows = teacher.locator("[data-testid='history-table'] tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(1)).to_contain_text("after 1 move")
    rows.first.get_by_role("button", name="Open challenge 1").click()
    expect(teacher.get_by_test_id("history-who")).to_have_text("Answers: O'Brien (right), Tom & Jerry (wrong).")
    expect(teacher.locator("[data-testid='history-verdict'] tr.right").first).to_be_visible()
    expect(teacher.locator("[data-testid='history-board'] .nim-pile").first).to_be_visible()
    teacher.screenshot(path=str(shots / "lesson-history-1280.png"), full_page=True)
    axe_at_both_sizes(teacher)
    teacher.screenshot(path=str(shots / "lesson-history-1280b.png"), full_page=True)


VERDICT_SENTENCE = re.compile(r"(Win|Loss) (at once|in \d+ moves)|Draw|(Good for (Short|Cut)|Even) after a \d+-move search")


def test_a_bridgit_challenge_reaches_the_phones_at_once_and_its_verdict_follows(pages, base_url, shots):  # noqa: F811
    made = new_class(base_url, "shannon", {"board": "bridgit-4"}, name="Bridg-It")
    teacher = pages(**DESKTOP)
    teacher.goto(f"{made['dashboard_url']}#token={made['teacher_token']}")
    phones = [pages(**PHONE) for _ in range(2)]
    for phone, name in zip(phones, ("Ada", "Bea")):
        join_on_the_page(phone, made["code"], name)
    expect(teacher.locator("[data-student]")).to_have_count(2)
    teacher.get_by_test_id("open-challenge").click()
    teacher.get_by_test_id("challenge-seconds").select_option("120")

    sent = time.monotonic()
    teacher.get_by_test_id("send-challenge").click()
    expect(teacher.get_by_test_id("solving")).to_contain_text(re.compile(r"Solving… \(\d+ of 25 moves judged\)"))
    progress_seen = time.monotonic() - sent
    for phone in phones:
        expect(phone.get_by_test_id("challenge")).to_be_visible()
    position_seen = time.monotonic() - sent
    print(f"Bridg-It 4: progress on the dashboard {progress_seen:.2f} s, the position on both phones "
          f"{position_seen:.2f} s after the click")
    # the figures are 0.5 s and 1 s (measured 0.63 s and 0.75 s with the machine's load average at 25,
    # the server's emits 17 ms after the request); the bound leaves room for a loaded machine, and is still far
    # below the verdict's 8 s that the phones used to wait for
    assert progress_seen < 1.5 and position_seen < 2.0, (progress_seen, position_seen)
    expect(teacher.get_by_test_id("solving")).to_be_visible()  # both before the verdict is in
    expect(phones[0].get_by_test_id("challenge-status")).to_contain_text("You play Short, to move")
    teacher.screenshot(path=str(shots / "lesson-bridgit-solving-1280.png"))

    expect(teacher.get_by_test_id("solving")).to_be_hidden(timeout=60_000)  # every move judged
    state = requests.get(f"{base_url}/api/classes/{made['id']}", params={"token": made["teacher_token"]}).json()
    right = state["challenge"]["right_moves"]
    wrong = next(m for m in state["challenge"]["legal_moves"] if m not in right)
    for phone, move in zip(phones, (right[0], wrong)):
        phone.locator(f"[data-testid='challenge-board'] [data-move='{move}']").first.click(force=True)
        expect(phone.get_by_test_id("challenge-status")).to_contain_text("Your answer")
    teacher.get_by_test_id("reveal").click()
    expect(teacher.get_by_test_id("found-best")).to_contain_text("Right: Ada.")
    expect(phones[0].get_by_test_id("your-verdict")).to_contain_text("Your answer was right!")
    expect(phones[1].get_by_test_id("your-verdict")).to_contain_text("Your answer was not right.")
    for page in (teacher, phones[0]):
        cells = page.locator(".verdict-table td[class^='verdict-']")
        expect(cells).to_have_count(25)
        for text in cells.all_inner_texts():
            assert VERDICT_SENTENCE.match(text), text  # a sentence, never "score -51 at depth 6"
    mine = phones[0].locator("[data-testid='student-verdict'] tr.mine")
    expect(mine).to_have_count(1)
    assert "1" in mine.locator(".answer-count").inner_text()
    phones[0].screenshot(path=str(shots / "lesson-bridgit-verdict-390.png"), full_page=True)
    teacher.screenshot(path=str(shots / "lesson-bridgit-verdict-1280.png"), full_page=True)
    axe_at_both_sizes(phones[0])


def test_the_projector_names_both_students_and_fills_the_screen(pages, base_url, shots):  # noqa: F811
    made = new_class(base_url, options={"piles": [3, 4, 5]})
    teacher = pages(**DESKTOP)
    teacher.goto(f"{made['dashboard_url']}#token={made['teacher_token']}")
    students = [pages(**PHONE) for _ in range(2)]
    for student, name in zip(students, ("Ada", "Zoë 🦊")):
        join_on_the_page(student, made["code"], name)
    teacher.get_by_test_id("pair").click()
    expect(teacher.get_by_test_id("toolbar-note")).to_contain_text("Pairs:")
    card = teacher.locator("[data-student]").first
    expect(card.get_by_test_id("project")).to_be_visible()
    with teacher.context.expect_page() as opened:
        card.get_by_test_id("project").click()
    projector = opened.value
    pair = r"(Ada|Zoë 🦊) \(First\) vs (Ada|Zoë 🦊) \(Second\)"
    expect(projector.get_by_test_id("projector-players")).to_have_text(re.compile(pair))
    expect(projector.get_by_test_id("status")).to_have_text(re.compile(r"(Ada|Zoë 🦊) to move \(First\)"))
    expect(projector.get_by_test_id("ai-stats")).to_have_count(0)  # two students: no AI search, no tree
    expect(projector.get_by_test_id("open-tree")).to_have_count(0)
    board = projector.locator("#board").bounding_box()
    sticks = projector.locator("#board .nim-sticks").first.bounding_box()
    stick = projector.locator("#board .nim-stick").first.bounding_box()
    assert board["height"] >= 0.6 * 800 and stick["height"] >= 150, (board, stick)  # large, not 64 px in a big box
    assert sticks["width"] >= 0.3 * board["width"], (sticks, board)
    projector.screenshot(path=str(shots / "lesson-projector-1280.png"))
    assert serious_violations(projector) == []
    expect(teacher.locator("[data-student]")).to_have_count(2)  # the dashboard stayed in its tab

    # a game in progress is not replaced without asking
    mover = next(s for s in students if s.get_by_test_id("status").inner_text() == "Your move")
    mover.locator("#board .move-target").first.click()
    expect(mover.get_by_test_id("status")).not_to_have_text("Your move")
    mover.once("dialog", lambda dialog: dialog.dismiss())
    before = mover.get_by_test_id("full-page").get_attribute("href")
    mover.get_by_test_id("new-game").click()
    expect(mover.get_by_test_id("full-page")).to_have_attribute("href", before)  # still the same game

    # deleting the class with a challenge open: no error on the dashboard afterwards
    challenge(base_url, made)
    expect(teacher.get_by_test_id("challenge-live")).to_be_visible()
    # as a teacher sees it: the history lists the challenge under way (its read is answered)
    expect(teacher.locator("[data-testid='history-table'] tbody tr", has_text="under way")).to_have_count(1)
    teacher.wait_for_load_state("networkidle")  # the panels' own reads of the class are answered first
    teacher.once("dialog", lambda dialog: dialog.accept())
    teacher.get_by_test_id("delete-class").click()
    expect(teacher.get_by_test_id("class-deleted")).to_be_visible()
    teacher.wait_for_timeout(1500)  # the countdown's second has passed (the console is checked at the end)


def answer_on(page: Page, move: str) -> None:
    """The student taps ``move`` once the new challenge is on their screen (until it comes, the
    last one's locked board and "Your answer: ..." are still there: a tap then is lost, or lands
    on the new board as it replaces the old one, on another move)."""
    expect(page.get_by_test_id("challenge")).to_be_visible()
    expect(page.get_by_test_id("challenge-status")).to_contain_text("tap the best move")
    page.locator(f"[data-testid='challenge-board'] [data-move='{move}']").first.click()
    expect(page.get_by_test_id("challenge-status")).to_contain_text("Your answer")


def send_challenge(pc: Page, base_url: str, class_id: str, token: str, moves: str = "") -> dict:
    """The teacher sends a challenge from the dashboard; its summary (right moves) read back."""
    def current() -> dict | None:
        return requests.get(f"{base_url}/api/classes/{class_id}", params={"token": token}, timeout=10).json()["challenge"]

    last = current()
    pc.get_by_test_id("challenge-moves").fill(moves)
    pc.get_by_test_id("send-challenge").click()
    expect(pc.get_by_test_id("toolbar-note")).to_contain_text("Challenge sent")
    # (the note may still be the last challenge's: its moves, judged for another position, once
    # made a test's "wrong" answer right) read the class once it holds the new one
    summary = eventually(current, lambda challenge: challenge is not None and challenge["id"] != (last or {}).get("id"),
                         what="the new challenge")
    # (on a loaded machine the moves may be judged in the background: read once every one is)
    return eventually(lambda: requests.get(f"{base_url}/api/classes/{class_id}/challenges/{summary['id']}",
                                           params={"token": token}, timeout=10).json(),
                      lambda challenge: not challenge.get("solving") and challenge["right_moves"],
                      what="the challenge's verdict on every move")


def test_a_lesson_that_keeps(pages, base_url, shots, tmp_path):  # noqa: F811
    """Issue 40's lesson: the class made on the teacher's laptop and run from the projector PC
    through the teacher link; names as people write them; a student on the full game page; one
    leaves and comes back; two challenges kept in the history and the CSV; the class deleted."""
    laptop = pages(**DESKTOP)
    link, code = create_class_in_the_lobby(laptop)
    class_id = link.split("/class/")[1].split("#")[0]
    token = link.split("#token=")[1]
    pc = pages(**DESKTOP)
    pc.goto(link)
    expect(pc.get_by_test_id("class-code")).to_have_text(code)

    names = ["O'Brien", "Tom & Jerry", "=1+2"]
    phones = [pages(**PHONE) for _ in names]
    for phone, name in zip(phones, names):
        join_on_the_page(phone, code, name)
    expect(pc.locator("[data-student]")).to_have_count(3)
    expect(pc.get_by_test_id("class-count")).to_have_text("3 students joined.")
    for phone in phones:
        phone.get_by_test_id("new-game").click()
        expect(phone.get_by_test_id("status")).to_have_text("Your move", timeout=15000)
        move_and_answer(phone)

    # =1+2 leaves (asked first) and comes back with the same name: the same game
    leaver = phones[2]
    piles = leaver.locator("#board .nim-count").all_inner_texts()
    leaver.get_by_test_id("leave").click()
    leaver.get_by_test_id("leave-yes").click()
    expect(pc.locator("[data-student]").nth(2).get_by_test_id("thumb-status")).to_contain_text("left the class")
    leaver.get_by_test_id("join-button").click()
    expect(leaver.get_by_test_id("student-name")).to_have_text("=1+2")
    expect(leaver.get_by_test_id("status")).to_have_text(re.compile("Your move|You won|You lost"), timeout=15000)
    assert leaver.locator("#board .nim-count").all_inner_texts() == piles  # their game, as they left it
    if leaver.get_by_test_id("status").inner_text() == "Your move":  # ... and theirs to play on
        expect(leaver.locator("#board .move-target").first).to_be_visible()
    expect(pc.locator("[data-student]")).to_have_count(3)

    # O'Brien goes to the full game page
    phones[0].get_by_test_id("full-page").click()
    expect(phones[0].get_by_test_id("class-bar-name")).to_have_text("O'Brien")

    pc.get_by_test_id("open-challenge").click()
    first = send_challenge(pc, base_url, class_id, token)
    wrong = next(m for m in first["legal_moves"] if m not in first["right_moves"])
    for phone, move in zip(phones, (first["right_moves"][0], wrong, first["right_moves"][-1])):
        answer_on(phone, move)
    expect(pc.get_by_test_id("answer-count")).to_contain_text("3 of 3 answered")
    pc.get_by_test_id("reveal").click()
    expect(phones[0].get_by_test_id("your-verdict")).to_contain_text("Your answer was right!")
    expect(pc.get_by_test_id("found-best")).to_contain_text("Right: =1+2, O'Brien.")

    second = send_challenge(pc, base_url, class_id, token, "1:1")
    wrong = next(m for m in second["legal_moves"] if m not in second["right_moves"])
    for phone, move in zip(phones[:2], (wrong, second["right_moves"][0])):
        answer_on(phone, move)
    expect(pc.get_by_test_id("answer-count")).to_contain_text("2 of 3 answered")
    pc.get_by_test_id("reveal").click()
    expect(pc.get_by_test_id("found-best")).to_contain_text("Right: Tom & Jerry.")
    rows = pc.locator("[data-testid='history-table'] tbody tr")
    expect(rows).to_have_count(2)
    rows.nth(1).get_by_role("button").click()
    expect(pc.get_by_test_id("history-who")).to_have_text("Answers: O'Brien (wrong), Tom & Jerry (right).")
    pc.screenshot(path=str(shots / "lesson-dashboard-1280.png"), full_page=True)
    axe_at_both_sizes(pc)

    with pc.expect_download() as download:
        pc.get_by_test_id("results-csv").click()
    path = tmp_path / "results.csv"
    download.value.save_as(path)
    with open(path, newline="", encoding="utf-8") as f:
        table = {row[0]: row[1:] for row in csv.reader(f)}  # as a spreadsheet parses its cells
    assert table["student"][4:] == ["challenge 1 (the start)", "challenge 2 (after 1 move)"]
    assert "=1+2" not in table and table["'=1+2"][4:] == [f"right ({first['right_moves'][-1]})", ""]
    assert table["O'Brien"][4:] == [f"right ({first['right_moves'][0]})", f"wrong ({wrong})"]
    assert table["Tom & Jerry"][5] == f"right ({second['right_moves'][0]})"

    # a rename reaches the student's phone at once (no reload)
    pc.once("dialog", lambda dialog: dialog.accept("Tom and Jerry"))
    pc.locator("[data-student]").nth(1).get_by_test_id("rename").click()
    expect(phones[1].get_by_test_id("student-name")).to_have_text("Tom and Jerry", timeout=2000)

    pc.once("dialog", lambda dialog: dialog.accept())
    pc.wait_for_load_state("networkidle")  # the panels' own reads of the class are answered first
    pc.get_by_test_id("delete-class").click()
    expect(pc.get_by_test_id("class-deleted")).to_be_visible()
    expect(phones[0].get_by_test_id("status")).to_contain_text("ended the class", timeout=2000)  # the full game page
    expect(phones[1].get_by_test_id("join-error")).to_contain_text("ended the class", timeout=2000)
