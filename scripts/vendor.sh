#!/usr/bin/env bash
# Re-fetch the vendored front-end files from their official npm packages (pinned versions)
# and check that the committed copies are identical. Usage: scripts/vendor.sh [--update]
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# vendor PACKAGE VERSION DEST_DIR FILE:NAME...  (FILE inside the package, NAME in DEST_DIR)
vendor() {
  local package=$1 version=$2 dest=$3; shift 3
  mkdir -p "$tmp/$package"
  (cd "$tmp/$package" && npm pack --silent "$package@$version" >/dev/null && tar xzf "$package-$version.tgz")
  for f in "$@"; do
    src="$tmp/$package/package/${f%%:*}"; dst="$dest/${f##*:}"
    if [ "${UPDATE:-}" = "1" ]; then mkdir -p "$dest"; cp "$src" "$dst"; echo "updated $dst";
    elif cmp -s "$src" "$dst"; then echo "ok $dst"; else echo "DIFFERS $dst (run with --update)"; exit 1; fi
  done
}

[ "${1:-}" = "--update" ] && UPDATE=1
# The pages' Socket.IO client.
vendor socket.io-client 4.8.4 static/vendor/socket.io-client dist/socket.io.min.js:socket.io.min.js LICENSE:LICENSE
# axe-core, for the accessibility tests only (never served by the app).
vendor axe-core 4.14.1 tests/e2e/vendor/axe-core axe.min.js:axe.min.js LICENSE:LICENSE
