#!/bin/sh
# The default test setup gives every test an empty HOME of its own, not the
# caller's (tests/fresh_home.sh): without it perf's ~/.debug from an earlier
# run could make symbol tests pass that fail on a fresh machine.
fail() { echo "fresh_home_check: $*"; exit 1; }
[ -n "${HOME:-}" ] && [ -d "$HOME" ] || fail "HOME '${HOME:-}' is not a directory"
real=$(getent passwd "$(id -u)" | cut -d: -f6)
[ "$HOME" != "$real" ] || fail "HOME is the account's home $real"
[ -z "$(ls -A "$HOME")" ] || fail "HOME $HOME is not empty: $(ls -A "$HOME" | head -3)"
[ -z "${PERF_BUILDID_DIR:-}" ] || fail "PERF_BUILDID_DIR is set"
[ -z "${DEBUGINFOD_URLS:-}" ] || fail "DEBUGINFOD_URLS is set"
# and perf, run by a test, keeps its cache under that HOME
if command -v perf >/dev/null 2>&1; then
	perf buildid-cache -a /bin/true 2>/dev/null
	[ -d "$HOME/.debug" ] || fail "perf did not use HOME $HOME"
fi
echo "fresh_home_check: HOME=$HOME empty, not $real"
