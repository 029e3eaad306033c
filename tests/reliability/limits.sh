#!/bin/sh
# Resource limits: with RLIMIT_NOFILE at 20 `perfkit record -a` succeeds
# (it raises the soft limit) or fails with one clear line, never a crash;
# with a small RLIMIT_MEMLOCK and the locked-memory allowance used up by a
# first recording, a second one falls back to fewer ring-buffer pages.
set -u
: "${PERFKIT:?}"
[ "$(id -u)" = 0 ] || exit 77
t=$(mktemp -d)
chmod 777 "$t"
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# one error line: exactly one line that mentions the limit, no more output
check_nofile() {
	n=$1
	(ulimit -n "$n" && exec "$PERFKIT" record -a -e cpu-clock,task-clock,page-faults \
		-o "$t/n$n.data" -- sleep 0.2) >"$t/out" 2>"$t/err"
	rc=$?
	cat "$t/err"
	[ $rc -lt 128 ] || fail "ulimit -n $n: record died of signal $((rc - 128))"
	if [ $rc = 0 ]; then
		"$PERFKIT" report --stats -i "$t/n$n.data" >/dev/null ||
			fail "ulimit -n $n: unreadable output"
	else
		[ "$(grep -c . "$t/err")" = 1 ] || fail "ulimit -n $n: not one error line"
		grep -qi "open files\|ulimit -n" "$t/err" || fail "ulimit -n $n: unclear error"
	fi
	echo "ulimit -n $n: exit $rc"
}
check_nofile 20
check_nofile 8

# RLIMIT_MEMLOCK binds only without CAP_IPC_LOCK: run as nobody
command -v setpriv >/dev/null || { echo "no setpriv: memlock part skipped"; exit 0; }
if ! setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	echo "cannot switch to nobody: memlock part skipped"
	exit 0
fi
# nobody must reach the binary, which a checkout under a private directory
# (a 0700 home) does not allow: then run a copy in $t, its library beside it
# as its RUNPATH ($ORIGIN/../lib) expects
pk=$PERFKIT
if ! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$pk"; then
	mkdir "$t/bin" "$t/lib" && cp "$PERFKIT" "$t/bin/perfkit" || fail "cannot copy perfkit"
	lib=$(ldd "$PERFKIT" | awk '$1 ~ /^libperfkit/ { print $3 }')
	[ -z "$lib" ] || cp "$lib" "$t/lib/" || fail "cannot copy $lib"
	chmod -R a+rX "$t/bin" "$t/lib"
	pk=$t/bin/perfkit
fi
setpriv --reuid=65534 --regid=65534 --clear-groups sh -c '
	ulimit -l 64
	"$1" record -q -e cpu-clock -o "$2/a.data" -- sleep 3 &
	sleep 1
	"$1" record -e cpu-clock -o "$2/b.data" -- /bin/true
	echo "rc=$?"
	wait' sh "$pk" "$t" >"$t/mout" 2>"$t/merr"
cat "$t/mout" "$t/merr"
if grep -q "no permission" "$t/merr"; then
	echo "perf_event_paranoid forbids recording as nobody: memlock part skipped"
	exit 0
fi
grep -q "^rc=0" "$t/mout" || fail "second recording under the memlock limit failed"
grep -q "mlock limit: using [0-9]* pages" "$t/merr" || fail "no fallback to fewer pages"
"$PERFKIT" report -f --stats -i "$t/b.data" >/dev/null || fail "fallback recording unreadable"
echo ok
