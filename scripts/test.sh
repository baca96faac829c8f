#!/usr/bin/env bash
# Set up (if needed) and run every check: ruff (lint), mypy (types), then every test: engine,
# server, and Chromium end to end, in three test processes (pytest-xdist: many tests wait on a
# browser or a server, so three keep two cores busy). Extra arguments go to
# pytest (e.g. -k nim, -m "not e2e", or -n 0 for one process; see README "Tests").
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
.venv/bin/ruff check --quiet .
.venv/bin/mypy --no-error-summary
exec .venv/bin/python -m pytest -n 3 "$@"
