"""``webapp.concurrency.wait_readable`` under gevent, as the production server waits on a search
worker's pipe: in a child process patched as the server is (the patch cannot be undone in this
one). Only the waiting greenlet waits; it wakes for data, for the peer's end, or after its
timeout."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
from gevent import monkey; monkey.patch_all()
import json, time, gevent
from webapp.concurrency import patched, wait_readable
from webapp.search_pool import worker_pipe

ticks = []
def ticker():  # another greenlet: it must run while wait_readable waits
    while True:
        ticks.append(time.monotonic()); gevent.sleep(0.01)
gevent.spawn(ticker)

ours, theirs = worker_pipe()
started = time.monotonic()
timed_out = wait_readable(ours, 0.3)
waited = time.monotonic() - started
ticks_meanwhile = len([t for t in ticks if started <= t <= started + waited])
gevent.spawn_later(0.1, theirs.send, "done")
arrived = wait_readable(ours, 10)
message = ours.recv()
theirs.close()
ended = wait_readable(ours, 10)
print(json.dumps({"patched": patched(), "timed_out": timed_out, "waited": waited, "ticks": ticks_meanwhile,
                  "arrived": arrived, "message": message, "ended": ended}))
"""


def test_under_gevent_a_wait_on_a_pipe_holds_only_its_greenlet_and_wakes_for_data_end_or_timeout():
    done = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["patched"] is True
    assert seen["timed_out"] is False and 0.25 <= seen["waited"] < 5, seen  # its timeout, then False
    assert seen["ticks"] >= 5, seen  # the other greenlet ran all along (30 ticks if nothing else runs)
    assert seen["arrived"] is True and seen["message"] == "done", seen
    assert seen["ended"] is True, seen  # the peer's end reads as readable (recv then raises EOFError)
