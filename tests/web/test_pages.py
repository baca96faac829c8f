"""The site's pages as a browser gets them: an unknown page or game is a page in the site's
layout (its header, a phone's viewport, a way back), never a bare error; the API stays JSON."""

import pytest


@pytest.mark.parametrize("path", ["/no-such-page", "/play/NOSUCHID", "/replay/NOSUCHID", "/play/NOSUCHID/tree"])
def test_a_missing_page_is_a_page_of_the_site_with_a_way_back(client, path):
    r = client.get(path, headers={"Accept": "text/html"})
    page = r.get_data(as_text=True)
    assert r.status_code == 404 and r.mimetype == "text/html"
    assert 'name="viewport"' in page and 'class="topbar"' in page
    assert 'href="/" data-testid="error-back"' in page and "does not exist" in page


def test_the_api_still_answers_json(client):
    r = client.get("/api/no-such-endpoint")
    assert r.status_code == 404 and r.get_json()["error"] == "no such API endpoint"


@pytest.mark.parametrize("path", ["/", "/arena", "/lessons"])
def test_every_page_carries_the_engines_scale_of_proved_results(client, path):
    """The teaching pages write a proved value (W3, "win in 3") and an open window's end (±∞)
    from the engine's own WIN, MATE_BOUND and INF, sent in the page, never a copy in a script."""
    import json
    import re

    from engine.game import INF, MATE_BOUND, WIN

    page = client.get(path).get_data(as_text=True)
    block = re.search(r'<script type="application/json" id="score-scale">(.*?)</script>', page)
    assert block and json.loads(block.group(1)) == {"win": WIN, "mate_bound": MATE_BOUND, "inf": INF}
