#!/bin/sh
# The whole test suite: a normal build, the same tests under ASan+UBSan,
# and a bounded libFuzzer run of every fuzz target.  Ends with one line
# "tests: N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/.."

passed=0 failed=0 skipped=0 status=0

# Nothing may pass on the machine's state: the whole run (the fuzz step
# too) has a fresh HOME, and meson's default test setup gives each test
# one more of its own (tests/fresh_home.sh).
run_home=$(mktemp -d "${TMPDIR:-/tmp}/perfkit-test-all.XXXXXX") || exit 1
trap 'rm -rf "$run_home"' EXIT
trap 'exit 130' INT TERM
caller_home=${HOME:-}
HOME=$run_home
export HOME
unset PERF_BUILDID_DIR PERF_CONFIG DEBUGINFOD_URLS

# The npm packages the browser tests use (web/dist itself is committed and
# left alone: web-bundle-current checks it); without them those tests skip.
# npm's download cache (checked against the lock's hashes) may stay the
# caller's: it only saves fetching the packages again.
npm_config_cache=${npm_config_cache:-${caller_home:-$run_home}/.npm} \
	sh scripts/build-web.sh --install-only ||
	echo "test-all: npm packages not installed: the browser tests will skip" >&2

# count NAME LOG: meson's summary count NAME ("Ok", "Fail", ...) in LOG
count() {
	sed -n "s/^$1: *\([0-9]*\).*/\1/p" "$2"
}

# Run one meson test pass and add its counts to the totals.  Many tests
# record live and compare with perf, and which rare samples a recording
# holds changes from run to run, so a failed test is run once more: it
# counts as passed only when that second run passes, and is named either
# way, so that a test which fails now and then stays visible.
run_suite() {
	dir=$1
	shift
	log=$(mktemp)
	meson test -C "$dir" --print-errorlogs "$@" 2>&1 | tee "$log"
	ok=$(count Ok "$log")
	ex=$(count "Expected Fail" "$log")
	fl=$(count Fail "$log")
	up=$(count "Unexpected Pass" "$log")
	sk=$(count Skipped "$log")
	to=$(count Timeout "$log")
	again=$(sed -n 's#^ *[0-9]*/[0-9]* [^ ]* / \([^ ]*\)  *\(FAIL\|TIMEOUT\).*#\1#p' "$log" |
		sort -u | tr '\n' ' ')
	if [ -n "$ok" ] && [ -n "$again" ] && [ "${up:-0}" -eq 0 ]; then
		echo "test-all: running again: $again"
		# shellcheck disable=SC2086 # the names are words
		meson test -C "$dir" --print-errorlogs "$@" $again 2>&1 | tee "$log"
		ok=$((ok + $(count Ok "$log")))
		fl=$(count Fail "$log")
		to=$(count Timeout "$log")
		[ "${fl:-0}" -eq 0 ] && [ "${to:-0}" -eq 0 ] &&
			echo "test-all: passed when run again (flaky): $again"
	fi
	rm -f "$log"
	if [ -z "$ok" ]; then
		echo "test-all: meson test did not run in $dir" >&2
		failed=$((failed + 1))
		status=1
		return
	fi
	passed=$((passed + ok + ${ex:-0}))
	failed=$((failed + ${fl:-0} + ${up:-0} + ${to:-0}))
	skipped=$((skipped + ${sk:-0}))
	[ "${fl:-0}" -eq 0 ] && [ "${up:-0}" -eq 0 ] && [ "${to:-0}" -eq 0 ] || status=1
}

build() {
	dir=$1
	shift
	if [ ! -f "$dir/build.ninja" ]; then
		meson setup "$dir" "$@" >/dev/null || return 1
	fi
	ninja -C "$dir" >/dev/null || { ninja -C "$dir"; return 1; }
}

echo "== build and test (gcc, -Werror)"
if build build; then
	run_suite build
else
	echo "test-all: build failed" >&2
	failed=$((failed + 1))
	status=1
fi

echo "== the same tests under ASan+UBSan"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
if build build-asan -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug; then
	run_suite build-asan --timeout-multiplier 3
else
	echo "test-all: sanitizer build failed" >&2
	failed=$((failed + 1))
	status=1
fi
unset ASAN_OPTIONS UBSAN_OPTIONS

echo "== fuzz targets, ${FUZZ_SECONDS:-60} s each"
if FUZZ_SECONDS=${FUZZ_SECONDS:-60} sh scripts/fuzz.sh; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	status=1
fi

echo "tests: $passed passed, $failed failed, $skipped skipped"
exit $status
