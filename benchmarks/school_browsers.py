"""A class of real phone-size Chromium pages behind one address, against the production server.

    .venv/bin/python benchmarks/school_browsers.py --phones 60
    .venv/bin/python benchmarks/school_browsers.py --phones 60 --root /work/wt/before   # another checkout

Starts ``python -m webapp`` (``--root``'s checkout, its real limits) on a free loopback port,
creates a Nim class (the computer at the "casual" level), then opens ``--phones`` browser
contexts of one headless Chromium at 390 x 844 (all from 127.0.0.1, as a class behind a school's
NAT is): each opens the join link, types a nickname, taps Join and New game, and then plays
``--rounds`` moves, tapping the first move on its board and waiting until the page shows the
computer's answer. Reported: the phones that joined and played, every answer the pages got
with a status of 400 or more and every console error (refused: must be 0), the time from a tap
to the page showing the computer's reply (median, p95), the most connections the server
held at once (``/proc/net/tcp``), the serving process's resident memory at start and with the
phones connected (and so per phone: a real browser's connections, its websocket as Chromium
opens it), and the server's CPU per move while the phones play. Not run by the test suite
(tests/e2e/test_school_e2e.py runs twelve phones).

Bounded: at most ``MAX_PHONES`` phones, every wait has a timeout, loopback only.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import sys
import threading
import time
from pathlib import Path

import load  # benchmarks/load.py
import requests
import serving
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect, sync_playwright

from webapp.server import stop_process_group

MAX_PHONES = 120
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
CLASS = {"name": "Benchmark class", "game": "nim", "options": {}, "opponent": "alphabeta:strength=3"}
ANSWERED = re.compile("Your move|You won|You lost")
# every text the status line takes: a move and the computer's answer can both come between two looks
WATCH_STATUS = """() => { const el = document.querySelector('[data-testid="status"]'); window.statuses = [];
  new MutationObserver(() => window.statuses.push(el.textContent)).observe(el, {childList: true, subtree: true}); }"""
REPLIED = """() => { const s = window.statuses, i = s.findIndex((t) => t !== "Your move");
  return i >= 0 && s.slice(i).some((t) => /^(Your move|You won|You lost)/.test(t)); }"""


def established(port: int) -> int:
    """The server's established connections on ``port`` (its side, /proc/net/tcp)."""
    rows = Path("/proc/net/tcp").read_text().splitlines()[1:]
    return sum(1 for row in rows if row.split()[3] == "01" and int(row.split()[1].split(":")[1], 16) == port)


def run(url: str, pgid: int, phones: int, rounds: int) -> dict:
    port = int(url.rsplit(":", 1)[1])
    made = requests.post(f"{url}/api/classes", json=CLASS, timeout=30).json()
    server = serving.server_process(pgid)
    memory = {"start_mb": serving.server_reading(server)["rss_mb"]}
    cpu_before: dict = {}
    spent = {"server": 0.0}
    refused: list[str] = []
    peak = [0]
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.1):
            peak[0] = max(peak[0], established(port))

    threading.Thread(target=watch, daemon=True).start()
    replies: list[float] = []
    joined = played = 0
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        pages = []
        try:
            for i in range(phones):
                page = browser.new_context(base_url=url, **PHONE).new_page()
                page.on("response", lambda r: r.status >= 400 and refused.append(f"{r.status} {r.url}"))
                page.on("console", lambda m: m.type == "error" and refused.append(f"console: {m.text}"))
                try:
                    page.goto(f"/join?code={made['code']}")
                    page.get_by_test_id("join-name").fill(f"Phone {i + 1}")
                    page.get_by_test_id("join-button").click()
                    expect(page.get_by_test_id("student-name")).to_have_text(f"Phone {i + 1}", timeout=60000)
                    page.get_by_test_id("new-game").click()
                except (PlaywrightError, AssertionError) as exc:  # this phone could not join: the next one tries
                    refused.append(f"phone {i + 1} could not join: {str(exc).splitlines()[0]}")
                    continue
                pages.append(page)
                joined += 1
            cpu_before = load.process_tree_cpu(pgid)
            for _ in range(rounds):
                for page in list(pages):
                    try:
                        status = page.get_by_test_id("status")
                        expect(status).to_have_text(ANSWERED, timeout=30000)
                        if status.inner_text() != "Your move":
                            page.get_by_test_id("new-game").click()
                            expect(status).to_have_text("Your move", timeout=30000)
                        page.evaluate(WATCH_STATUS)
                        started = time.perf_counter()
                        page.locator("#board .move-target").first.click()
                        page.wait_for_function(REPLIED, timeout=60000, polling="raf")  # taken, then answered
                    except (PlaywrightError, AssertionError) as exc:  # (the others play on)
                        refused.append(f"phone {pages.index(page) + 1} could not play: {str(exc).splitlines()[0]}")
                        pages.remove(page)
                        continue
                    replies.append(time.perf_counter() - started)
                    played += 1
            spent = load.cpu_split(cpu_before, load.process_tree_cpu(pgid))
            memory["phones_connected_mb"] = serving.server_reading(server)["rss_mb"]
        finally:
            done.set()
            browser.close()
    return {"phones": phones, "joined": joined, "played": len(pages), "moves": played, "refused": len(refused),
            "refused_examples": refused[:3] + [r for r in refused if r.startswith("phone ")][:3],
            "reply_ms": {"median": round(1000 * statistics.median(replies), 1) if replies else None,
                         "p95": round(1000 * load.percentile(replies, 95), 1) if replies else None},
            "peak_server_connections": peak[0],
            "server_memory": {**memory, "kb_per_phone": round(
                1024 * (memory.get("phones_connected_mb", memory["start_mb"]) - memory["start_mb"]) / max(1, joined), 1)},
            "server_cpu_ms_per_move": round(1000 * spent["server"] / max(1, played), 2)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=2, help="moves each phone plays")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not 1 <= args.phones <= MAX_PHONES or not 1 <= args.rounds <= 20:
        parser.error(f"--phones 1..{MAX_PHONES}, --rounds 1..20")
    port = load.free_port()
    url = f"http://127.0.0.1:{port}"
    store = f"/tmp/school-browsers-{port}.sqlite3"
    cmd = [sys.executable, "-m", "webapp", "--host", "127.0.0.1", "--port", str(port), "--store", store]
    proc = serving.start_server(cmd, url, args.root.resolve(), real_limits=True)
    try:
        report = run(url, proc.pid, args.phones, args.rounds)
    finally:
        stop_process_group(proc)
        for suffix in ("", "-wal", "-shm"):
            Path(store + suffix).unlink(missing_ok=True)
    print(json.dumps(report, indent=2) if args.json else
          f"{report['joined']} of {report['phones']} phones joined, {report['played']} played all their moves, "
          f"{report['moves']} moves; refused "
          f"{report['refused']} {report['refused_examples']}; reply median {report['reply_ms']['median']} ms, "
          f"p95 {report['reply_ms']['p95']} ms; the server held up to {report['peak_server_connections']} connections; "
          f"its memory {report['server_memory']['start_mb']} MB at start, "
          f"{report['server_memory'].get('phones_connected_mb')} MB with the phones connected "
          f"({report['server_memory']['kb_per_phone']} kB a phone); its CPU {report['server_cpu_ms_per_move']} ms a move")


if __name__ == "__main__":
    main()
