#!/usr/bin/env bash
# Re-fetch the vendored front-end files from their official npm packages (pinned versions)
# and check that the committed copies are identical. Usage: scripts/vendor.sh [--update]
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent socket.io-client@4.8.4 >/dev/null && tar xzf socket.io-client-4.8.4.tgz)
for f in dist/socket.io.min.js:socket.io.min.js LICENSE:LICENSE; do
  src="$tmp/package/${f%%:*}"; dst="static/vendor/socket.io-client/${f##*:}"
  if [ "${1:-}" = "--update" ]; then cp "$src" "$dst"; echo "updated $dst";
  elif cmp -s "$src" "$dst"; then echo "ok $dst"; else echo "DIFFERS $dst (run with --update)"; exit 1; fi
done
