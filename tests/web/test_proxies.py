"""Behind the sample nginx (``--trusted-proxies 1``) each client is told apart by the address
the proxy forwards; without trusted proxies a forwarded address is ignored (anyone can send
the header)."""

from __future__ import annotations

NIM = {"game": "nim", "options": {"piles": [1, 2]}, "players": ["human", "human"]}


def create(client, forwarded: str):
    return client.post("/api/games", json=NIM, headers={"X-Forwarded-For": forwarded})


def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_limit(make_app):
    client = make_app(CREATE_LIMIT=2, TRUSTED_PROXIES=1).test_client()
    assert [create(client, "10.0.0.1").status_code for _ in range(3)] == [201, 201, 429]
    assert create(client, "10.0.0.2").status_code == 201  # another person behind the same proxy


def test_without_trusted_proxies_a_forwarded_address_changes_nothing(make_app):
    client = make_app(CREATE_LIMIT=2).test_client()
    statuses = [create(client, f"10.0.0.{i}").status_code for i in range(3)]
    assert statuses == [201, 201, 429]  # one client, whatever it claims
