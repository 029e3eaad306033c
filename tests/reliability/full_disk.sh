#!/bin/sh
# `perfkit record` onto a full disk (a 200 KiB tmpfs): one clear error, a
# non-zero exit, and whatever file is left is readable by report --stats.
set -u
: "${PERFKIT:?}"
[ "$(id -u)" = 0 ] || exit 77
t=$(mktemp -d)
mnt="$t/mnt"
mkdir "$mnt"
mount -t tmpfs -o size=200k tmpfs "$mnt" 2>/dev/null || { rm -rf "$t"; exit 77; }
cleanup() {
	umount "$mnt" 2>/dev/null
	rm -rf "$t"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$PERFKIT" record -a -g -F 4000 -e cpu-clock -o "$mnt/f.data" -- sleep 2 \
	>"$t/out" 2>"$t/err"
rc=$?
cat "$t/err"
[ $rc -ne 0 ] || fail "record exited 0 on a full disk"
[ $rc -lt 128 ] || fail "record died of signal $((rc - 128))"
grep -q "No space left on device" "$t/err" || fail "no 'No space left on device' error"
[ "$(grep -ci "error\|failed" "$t/err")" -le 2 ] || fail "more than one error line"
ls -A "$mnt"
for f in "$mnt"/f.data "$mnt"/.f.data.perfkit-*; do
	[ -f "$f" ] || continue
	"$PERFKIT" report --stats -i "$f" >"$t/stats" 2>"$t/stats.err"
	r=$?
	cat "$t/stats" "$t/stats.err"
	[ $r = 0 ] || fail "report --stats exited $r on the file left: $f"
	grep -q "TOTAL events" "$t/stats" || fail "no stats for $f"
done
echo ok
