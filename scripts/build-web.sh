#!/bin/sh
# Build the HTML report's front-end (web/ -> web/dist/report.js, .css) with
# npm and esbuild, from the locked versions in web/package-lock.json.  The
# C build embeds web/dist when it exists; when the bundle changes, this
# touches src/lib/export/meson.build so that existing build dirs pick it up.
set -eu
cd "$(dirname "$0")/.."

if ! command -v npm >/dev/null 2>&1; then
	echo "build-web: npm not found; install nodejs and npm (scripts/install-deps.sh)" >&2
	exit 1
fi
before=$(cat web/dist/report.js web/dist/report.css 2>/dev/null | cksum)
(
	cd web
	npm ci --no-audit --no-fund --loglevel=error >/dev/null
	npm run --silent build >/dev/null 2>&1 || npm run build
)
after=$(cat web/dist/report.js web/dist/report.css | cksum)
if [ "$before" != "$after" ]; then
	touch src/lib/export/meson.build
fi
echo "build-web: web/dist/report.js $(wc -c <web/dist/report.js) bytes"
