#!/bin/sh
# `perfkit record -a` while ~1000 short processes come and go: no crash,
# every sampled thread has a comm (no ":TID" placeholder) unless the real
# perf has none for it either (a task whose FORK/COMM the kernel never sent,
# e.g. started while the recording was being set up), and the summary line
# says how many samples were lost.
set -u
: "${PERFKIT:?}"
[ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le -1 ] || exit 77
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# 600 processes (/bin/true), 200 subshells that each start a background
# job: about 1000 short-lived tasks
cat >"$t/churn.sh" <<'EOS'
i=0
while [ $i -lt 600 ]; do /bin/true; i=$((i + 1)); done
i=0
while [ $i -lt 200 ]; do (sleep 0 & wait); i=$((i + 1)); done
EOS
"$PERFKIT" record -a -F 1000 -e cpu-clock -o "$t/l.data" -- sh "$t/churn.sh" \
	>"$t/out" 2>"$t/err"
rc=$?
cat "$t/err"
[ $rc = 0 ] || fail "record exited $rc"
grep -Eq "\([0-9]+ samples, [0-9]+ lost\)" "$t/err" "$t/out" ||
	fail "summary line does not report lost samples"
"$PERFKIT" script -i "$t/l.data" -F comm,tid >"$t/script" 2>"$t/script.err"
rc=$?
[ $rc = 0 ] || { cat "$t/script.err"; fail "script exited $rc"; }
n=$(wc -l <"$t/script")
[ "$n" -gt 0 ] || fail "no samples"
# a thread whose COMM was never seen is printed as ":TID" (as perf does)
awk '$1 ~ /^:[0-9]+$/ { print $2 }' "$t/script" | sort -u >"$t/ours"
if command -v perf >/dev/null; then
	perf script -i "$t/l.data" -F comm,tid 2>/dev/null |
		awk '$1 ~ /^:[0-9]+$/ { print $2 }' | sort -u >"$t/perfs"
else
	: >"$t/perfs"
fi
bad=$(comm -23 "$t/ours" "$t/perfs" | head -5)
[ -z "$bad" ] || fail "samples without a comm where perf has one: $bad"
echo "threads without a comm (perf has none either): $(wc -l <"$t/ours")"
# the churn processes were seen by name
grep -q "true\|sh\|sleep" "$t/script" || fail "no sample of the workload"
echo "ok: $n samples, $(sort -u "$t/script" | wc -l) distinct comm/tid"
