#!/usr/bin/env bash
# Set up (if needed) and start the arcade; it prints the lobby's URL. Extra arguments go to
# `python -m webapp` (e.g. --host 0.0.0.0 --port 8000): the production server (gunicorn, one worker
# on gevent: see docs/deployment.md); Ctrl-C stops it and its search workers.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/python -m webapp "$@"
