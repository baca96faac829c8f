#!/usr/bin/env bash
# Set up everything the app (and, with --test, the test suite) needs on a fresh machine:
# a virtualenv in .venv with the project installed, and for tests a Chromium for Playwright
# (Debian's package: `playwright install` cannot download browsers here) and Debian's
# redis-server (the multi-process tests; `--redis` installs only that, for scripts/cluster.sh).
# Safe to re-run.
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
# an install with the test extras holds the plain one too
[ -z "$extras" ] && [ -f ".venv/.installed[test,bench]" ] && stamp=".venv/.installed[test,bench]"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".$extras"
  touch "$stamp"
fi
apt_install() {  # apt_install PACKAGE WHY
  echo "setup: installing Debian's $1 for $2" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$1" >/dev/null
}
if [ "$want_tests" = "--test" ]; then
  if ! command -v chromium >/dev/null 2>&1 && [ -z "${ARCADE_CHROMIUM:-}" ]; then
    apt_install chromium "the browser tests"
  fi
fi
if [ "$want_tests" = "--test" ] || [ "$want_tests" = "--redis" ]; then  # scripts/cluster.sh
  command -v redis-server >/dev/null 2>&1 || apt_install redis-server "several server processes on one Redis"
fi
