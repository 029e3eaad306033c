#!/bin/sh
# A program named '<img src=x onerror=alert(1)>' (its comm and its DSO path
# carry markup) recorded, then converted to HTML and to a flame graph SVG:
# the markup must only ever appear escaped.
set -u
: "${PERFKIT:?}"
[ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 1 ] || exit 77
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

name='<img src=x onerror=alert(1)>'
cp /bin/sh "$t/$name" || exit 77
"$PERFKIT" record -g -F 2000 -e cpu-clock -o "$t/h.data" -- "$t/$name" -c \
	'i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done' >"$t/out" 2>"$t/err" ||
	{ cat "$t/err"; fail "record failed"; }
"$PERFKIT" script -i "$t/h.data" -F comm 2>/dev/null | grep -q '<img src=x' ||
	fail "the hostile comm was not recorded (test did not exercise anything)"
"$PERFKIT" convert --to html -i "$t/h.data" -o "$t/h.html" || fail "convert --to html failed"
"$PERFKIT" convert --to flamegraph -i "$t/h.data" -o "$t/h.svg" ||
	fail "convert --to flamegraph failed"
for f in "$t/h.html" "$t/h.svg"; do
	[ -s "$f" ] || fail "$f is empty"
	if grep -qF '<img' "$f"; then
		grep -oF '<img' "$f" | head -1
		fail "unescaped markup in $(basename "$f")"
	fi
	# and the name is there in an escaped form, so the check above means something
	grep -qE '&lt;img|\\u003cimg|&#60;img|&#x3c;img' "$f" ||
		fail "the name does not appear (escaped) in $(basename "$f")"
done
echo ok
