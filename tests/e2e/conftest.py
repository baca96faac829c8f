"""Playwright in the system's Chromium (``playwright install`` cannot download browsers here)."""

from __future__ import annotations

import os
import shutil

import pytest


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

