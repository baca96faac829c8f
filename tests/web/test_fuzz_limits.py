"""Hypothesis over issue 41's limits: random sequences of join attempts (right codes, wrong
codes, bad codes, from a few addresses), page loads (new browsers) and class changes. Whatever
the order: an address is answered at most its allowed number of wrong codes, then refused
(429, ``Retry-After``, a right code too) while others are not; a refusal adds no student; an
address is given at most its allowed number of new cookies; every refusal is clear JSON."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from webapp import create_app
from webapp.clients import COOKIE

CONFIG = {"TESTING": True, "AI_PROCESSES": 0, "STORE": ":memory:", "CREATE_LIMIT": 1_000_000,
          "JOIN_MISS_LIMITS": "3 per minute; 5 per hour", "NEW_CLIENT_LIMIT": "2 per minute",
          "CLASS_CHANGE_LIMIT": 4, "JOIN_LIMIT": 1_000_000, "SOCKET_EVENT_LIMIT": ""}
NIM = {"name": "Year 9", "game": "nim", "options": {"piles": [1, 2, 3]}, "opponent": "random"}
ADDRESSES = ["10.0.0.1", "10.0.0.2", "2001:db8::1", "2001:db8::2"]  # the last two: one /64
FUZZ = settings(max_examples=15, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])

actions = st.lists(st.tuples(st.sampled_from(["right", "wrong", "bad", "page", "rename"]),
                             st.sampled_from(ADDRESSES)), min_size=1, max_size=30)


def bucket(address: str) -> str:
    return "v6" if address.startswith("2001:db8::") else address


def clear_refusal(r) -> dict:
    body = r.get_json()
    assert body["code"] and body["message"], body
    return body


@FUZZ
@given(steps=actions)
def test_join_guesses_cookies_and_changes_stay_within_their_limits(steps):
    client = create_app(dict(CONFIG)).test_client()
    klass = client.post("/api/classes", json=NIM, environ_base={"REMOTE_ADDR": "10.9.9.9"}).get_json()
    pupil = client.post("/api/classes/join", json={"code": klass["code"], "name": "First"},
                        environ_base={"REMOTE_ADDR": "10.9.9.9"}).get_json()
    misses, blocked, cookies, renames = Counter(), set(), Counter(), Counter()
    for n, (what, address) in enumerate(steps):
        where = {"REMOTE_ADDR": address}
        students = len(client.get(f"/api/classes/{klass['id']}?token={klass['teacher_token']}").get_json()["students"])
        if what == "page":
            client.delete_cookie(COOKIE)
            r = client.get("/join", environ_base=where)
            assert r.status_code == 200
            cookies[bucket(address)] += COOKIE in r.headers.get("Set-Cookie", "")
            assert cookies[bucket(address)] <= 2
            continue
        if what == "rename":
            r = client.post(f"/api/classes/{klass['id']}/students/{pupil['student_id']}", environ_base=where,
                            json={"token": klass["teacher_token"], "name": f"Pupil {n}"})
            cookie = client.get_cookie(COOKIE)
            who = cookie.value if cookie is not None else bucket(address)  # the client: its cookie, else its address
            renames[who] += 1
            assert r.status_code == (200 if renames[who] <= 4 else 429), r.get_json()
            continue
        code = {"right": klass["code"], "wrong": "ZZZZZZ" if klass["code"] != "ZZZZZZ" else "YYYYYY",
                "bad": "  "}[what]
        r = client.post("/api/classes/join", json={"code": code, "name": f"Kid {n}"}, environ_base=where)
        after = len(client.get(f"/api/classes/{klass['id']}?token={klass['teacher_token']}").get_json()["students"])
        if what == "bad":
            assert r.status_code == 400 and after == students  # a malformed code is no guess
            clear_refusal(r)
        elif bucket(address) in blocked:
            assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1 and after == students
            assert "wrong class codes" in clear_refusal(r)["message"]
        elif what == "right":
            assert r.status_code == 201 and after == students + 1, r.get_json()
        else:
            assert r.status_code == 404 and after == students
            misses[bucket(address)] += 1
            if misses[bucket(address)] >= 3:
                blocked.add(bucket(address))
