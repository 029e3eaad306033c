#!/bin/sh
# record -F above kernel.perf_event_max_sample_rate: lowered to the limit
# with a warning, as perf does (checked in the file with perf evlist -v);
# --strict-freq refuses instead.  Lowers the sysctl for a moment (root only;
# restored on exit; the test runs alone).
set -u
: "${PERFKIT:?}"
f=/proc/sys/kernel/perf_event_max_sample_rate
[ "$(id -u)" = 0 ] && [ -w "$f" ] || exit 77
old=$(cat "$f")
t=$(mktemp -d)
trap 'echo "$old" >"$f"; rm -rf "$t"' EXIT
fail() { echo "FAIL: $*" >&2; cat "$t/err" >&2; exit 1; }

echo 1000 >"$f" || exit 77
"$PERFKIT" record -F 5000 -e cpu-clock -o "$t/a.data" -- true >/dev/null 2>"$t/err" ||
	fail "record -F 5000 failed"
grep -q "above the maximum sample rate: recording at 1000 Hz" "$t/err" || fail "no warning"
perf evlist -v -i "$t/a.data" 2>/dev/null | grep -q "sample_freq }: 1000," ||
	fail "the file's sample_freq is not 1000: $(perf evlist -v -i "$t/a.data" 2>&1)"
"$PERFKIT" record --strict-freq -F 5000 -e cpu-clock -o "$t/b.data" -- true >/dev/null \
	2>"$t/err" && fail "--strict-freq recorded anyway"
grep -q "above the maximum sample rate 1000" "$t/err" || fail "no --strict-freq error"
echo ok
