"""Playwright in the system's Chromium (``playwright install`` cannot download browsers here)."""

from __future__ import annotations

import os
import shutil

import pytest
from playwright.sync_api import expect

# How long a check waits for the page to show something: a person waits, and on this 2-core
# machine three test processes with their browsers and servers can stall a page for seconds.
# (Speed is measured by the benchmarks, never by these waits.)
expect.set_options(timeout=15_000)


def chromium_path() -> str:
    for candidate in (os.environ.get("ARCADE_CHROMIUM"), shutil.which("chromium"),
                      shutil.which("chromium-browser"), shutil.which("google-chrome")):
        if candidate and os.path.exists(candidate):
            return candidate
    pytest.fail("no Chromium found: install Debian's chromium (scripts/setup.sh does) or set ARCADE_CHROMIUM")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": chromium_path(),
        "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"],
    }


@pytest.fixture(scope="session")
def base_url(live_server):
    return live_server.url


def pytest_collection_modifyitems(items):
    for item in items:
        if "/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)

