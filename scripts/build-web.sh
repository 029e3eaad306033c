#!/bin/sh
# Build the HTML report's front-end (web/src -> web/dist/report.js, .css)
# with npm and esbuild, from the locked versions in web/package-lock.json.
# web/dist is committed, so that a plain meson build embeds it without npm;
# run this after changing web/src or the lock, and commit web/dist (the test
# web-bundle-current fails while it is not what the sources give).
# With --install-only, only install web/node_modules (the tools the browser
# tests use), leaving web/dist alone.
set -eu
cd "$(dirname "$0")/.."

if ! command -v npm >/dev/null 2>&1; then
	echo "build-web: npm not found; install nodejs and npm (scripts/install-deps.sh)" >&2
	exit 1
fi
cd web
npm ci --no-audit --no-fund --no-update-notifier --loglevel=error >/dev/null
[ "${1:-}" = --install-only ] && exit 0
npm run --silent build >/dev/null 2>&1 || npm run build
echo "build-web: web/dist/report.js $(wc -c <dist/report.js) bytes"
