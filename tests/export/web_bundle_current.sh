#!/bin/sh
# The committed HTML front-end bundle (web/dist, embedded by the build) is
# what scripts/build-web.sh makes from web/src and web/package-lock.json: it
# is rebuilt in a temporary copy of web/ and compared byte for byte.  Needs
# npm and the locked packages (web/node_modules, or `npm ci` from the
# registry); without them it skips and says so.
set -u
SRC=${PERFKIT_SRC:?PERFKIT_SRC must name the source tree}
web=$SRC/web
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

for f in report.js report.css; do
	[ -s "$web/dist/$f" ] || fail "web/dist/$f is missing: run scripts/build-web.sh and commit web/dist"
done
command -v npm >/dev/null 2>&1 || skip "npm not found: cannot check that web/dist is current"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -R "$web/package.json" "$web/package-lock.json" "$web/src" "$tmp"/ || fail "cannot copy web/"
if [ -d "$web/node_modules/.bin" ]; then
	ln -s "$web/node_modules" "$tmp/node_modules"
elif ! (cd "$tmp" && npm ci --no-audit --no-fund --no-update-notifier --loglevel=error) >"$tmp/npm.log" 2>&1; then
	skip "npm ci failed (offline?), cannot check that web/dist is current: $(tail -n 1 "$tmp/npm.log")"
fi
(cd "$tmp" && npm run --silent build) >"$tmp/build.log" 2>&1 ||
	{ cat "$tmp/build.log"; fail "npm run build failed"; }
stale=""
for f in report.js report.css; do
	cmp -s "$tmp/dist/$f" "$web/dist/$f" || stale="$stale $f"
done
[ -z "$stale" ] || fail "web/dist:$stale not what web/src builds: run scripts/build-web.sh and commit web/dist"
echo "web/dist is current ($(wc -c <"$web/dist/report.js") + $(wc -c <"$web/dist/report.css") bytes)"
