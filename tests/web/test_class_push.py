"""A student's move costs the dashboard one student, not the class (issue 38): a teacher's socket
that joins with ``"updates": "cards"`` gets the whole class once, then only the cards of the
students whose games changed; a socket that joins as CONTRACT.md says still gets ``class_state``
after every change."""

from __future__ import annotations

from tests.helpers import eventually, wait_for_state
from tests.web.test_classes import student
from webapp import get_socketio


def events(sio, name: str) -> list:
    return [e["args"][0] for e in sio.get_received() if e["name"] == name]


def test_a_move_sends_the_cards_dashboard_that_students_card_and_the_others_the_class(app, client, klass):
    pupils = [student(client, klass, name) for name in ("Swift Otter", "Calm Heron", "Kind Seal")]
    games = [client.post(f"/api/classes/{klass['id']}/games", json={"token": p["student_token"]}).get_json()
             for p in pupils]
    socketio = get_socketio(app)
    whole = socketio.test_client(app, flask_test_client=client)
    cards = socketio.test_client(app, flask_test_client=client)
    whole.emit("class_join", {"class_id": klass["id"], "token": klass["teacher_token"]})
    cards.emit("class_join", {"class_id": klass["id"], "token": klass["teacher_token"], "updates": "cards"})
    assert len(events(whole, "class_state")[-1]["students"]) == 3
    assert len(events(cards, "class_state")[-1]["students"]) == 3  # the whole class, once
    # the pushes of the class's own changes (the new games) have gone out: a move is news alone
    eventually(lambda: not app.extensions["class_push"]._pending, timeout=10, what="the class's pushes")
    events(whole, "class_state"), events(cards, "class_state")

    mover = socketio.test_client(app, flask_test_client=client)
    mover.emit("move", {"game_id": games[1]["id"], "token": pupils[1]["student_token"], "move": "3:3"})
    wait_for_state(client, games[1]["id"], lambda s: len(s["history"]) >= 2, timeout=10)

    def shown(received: list) -> bool:  # a push holding both the move and the AI's reply
        return any(c["id"] == pupils[1]["student_id"] and c["games"][-1]["moves"] >= 2
                   for push in received for c in push["students"])

    got_cards: list = []
    eventually(lambda: got_cards.extend(events(cards, "class_students")) or got_cards, shown, timeout=10,
               what="the moving student's card")
    assert all(push["class_id"] == klass["id"] for push in got_cards)
    assert {c["id"] for push in got_cards for c in push["students"]} == {pupils[1]["student_id"]}
    got_whole: list = []
    eventually(lambda: got_whole.extend(events(whole, "class_state")) or got_whole, shown, timeout=10,
               what="the whole class with the move")
    assert all(len(state["students"]) == 3 for state in got_whole)
    # the card is the class_state's entry for that student, as built at the same push
    assert got_cards[-1]["students"][0] == got_whole[-1]["students"][1]
    assert events(cards, "class_state") == []  # no whole class for a move

    # a change of the class itself (a rename) sends the whole class to both
    client.post(f"/api/classes/{klass['id']}/students/{pupils[0]['student_id']}",
                 json={"token": klass["teacher_token"], "name": "Brave Fox"})
    renamed = eventually(lambda: events(cards, "class_state"), timeout=10, what="the renamed class")
    assert [s["name"] for s in renamed[-1]["students"]][0] == "Brave Fox"


def test_a_move_and_its_card_read_no_game_from_the_store(app, client, klass, monkeypatch):
    """The move is tried on this process's copy, the AI's reply stored from it, the room and
    the dashboard's card told from it: the store is written, never read, for a move (a read is
    a statement on a busy server's SQLite file, a round trip to a shared store)."""
    pupil = student(client, klass, "Swift Otter")
    game = client.post(f"/api/classes/{klass['id']}/games", json={"token": pupil["student_token"]}).get_json()
    socketio = get_socketio(app)
    cards = socketio.test_client(app, flask_test_client=client)
    cards.emit("class_join", {"class_id": klass["id"], "token": klass["teacher_token"], "updates": "cards"})
    mover = socketio.test_client(app, flask_test_client=client)
    mover.emit("join", {"game_id": game["id"], "token": pupil["student_token"]})
    eventually(lambda: not app.extensions["class_push"]._pending, timeout=10, what="the class's pushes")
    events(cards, "class_students")
    backend = app.extensions["arcade"].store.backend
    reads = []
    read = backend.read
    monkeypatch.setattr(backend, "read", lambda game_id, known: reads.append(game_id) or read(game_id, known))

    mover.emit("move", {"game_id": game["id"], "token": pupil["student_token"], "move": "3:3"})
    got: list = []
    eventually(lambda: got.extend(events(cards, "class_students")) or got,
               lambda pushes: any(c["games"][-1]["moves"] >= 2 for p in pushes for c in p["students"]),
               timeout=10, what="the card with the move and the reply")
    assert reads == []
    assert len(client.get(f"/api/games/{game['id']}").get_json()["history"]) >= 2  # (and a reader still reads it)
    assert reads == [game["id"]]
