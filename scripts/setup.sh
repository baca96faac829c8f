#!/usr/bin/env bash
# Set up everything the app (and, with --test, the test suite) needs on a fresh machine:
# a virtualenv in .venv with the project installed, and for tests a Chromium for Playwright
# (Debian's package: `playwright install` cannot download browsers here). Safe to re-run.
set -euo pipefail
cd "$(dirname "$0")/.."
want_tests=${1:-}
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
extras=""
[ "$want_tests" = "--test" ] && extras="[test,bench]"
stamp=".venv/.installed$extras"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".$extras"
  touch "$stamp"
fi
if [ "$want_tests" = "--test" ]; then
  if ! command -v chromium >/dev/null 2>&1 && [ -z "${ARCADE_CHROMIUM:-}" ]; then
    echo "setup: installing Debian's chromium for the browser tests" >&2
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
  fi
fi
