"""``--message-queue redis://...``: Socket.IO emits travel through Redis; bad URLs are refused."""

import json

import pytest
import requests

from tests.cluster.procs import free_port
from webapp.__main__ import main
from webapp.cluster import CHANNEL, PacketQueue


def test_a_game_is_played_through_the_message_queue(redis_server, redis_url, servers, players):
    """With a message queue the game is played and every ``state`` it pushes is published on
    the arcade's channel, once, as the Socket.IO packet the other processes send on."""
    (server,) = servers(1, "--message-queue", redis_url)
    pubsub = redis_server.client.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(CHANNEL)
    try:
        r = requests.post(f"{server.url}/api/games", timeout=5,
                          json={"game": "nim", "options": {"piles": "3,4,5"}, "players": ["human", "alphabeta"]})
        assert r.status_code == 201, r.text
        gid, token = r.json()["id"], r.json()["seats"][0]["token"]
        p = players(server.url)
        p.sio.emit("join", {"game_id": gid, "token": token})
        p.wait("state")
        p.sio.emit("move", {"game_id": gid, "token": token, "move": "2:2"})
        after, _ = p.wait("state", lambda s: len(s["history"]) == 2)
        assert after["history"][1]["seat"] == 1
        published = []  # Redis kept them for us
        for _ in range(200):
            message = pubsub.get_message(timeout=0.2)
            if message is not None:
                published.append(message)
            elif published:
                break
    finally:
        pubsub.close()
    frames = [PacketQueue.unframe(m["data"]) for m in published]
    events = [(room, json.loads(packet[1:])) for _host, _namespace, room, packet in frames]  # "2" + [event, data]
    states = [data for room, (event, data) in events if event == "state" and room == gid]
    assert [len(s["history"]) for s in states] == [1, 2], events[:3]  # the move, the AI's reply
    assert states[-1] == after


def test_a_process_hears_the_queue_before_it_serves_anyone(redis_server, redis_url, servers):
    """A process subscribes as it starts, not at its first Socket.IO connection: a player who
    joins it at once must not miss what the other processes publish meanwhile."""
    def subscribers() -> int:
        ((_channel, count),) = redis_server.client.pubsub_numsub(CHANNEL)
        return count

    before = subscribers()
    (server,) = servers(1, "--message-queue", redis_url)  # ready: it answers HTTP
    assert subscribers() == before + 1  # with no socket connected yet
    server.stop()
    assert "not subscribed" not in server.output()


@pytest.mark.parametrize("url, says", [
    ("http://127.0.0.1:6379/0", "must be a redis://HOST:PORT/DB URL"),
    ("redis://127.0.0.1:notaport/0", "not a valid Redis URL"),
])
def test_a_bad_message_queue_url_is_refused(url, says, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--message-queue", url])
    assert exit_.value.code == 2
    assert says in capsys.readouterr().err


def test_an_unreachable_message_queue_is_refused(capsys, monkeypatch):
    url = f"redis://127.0.0.1:{free_port()}/0"  # nobody listens there
    monkeypatch.setenv("ARCADE_MESSAGE_QUEUE", url)
    with pytest.raises(SystemExit) as exit_:
        main([])
    assert exit_.value.code == 2
    assert f"cannot reach the message queue at {url}" in capsys.readouterr().err
