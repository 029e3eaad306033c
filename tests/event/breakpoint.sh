#!/bin/sh
# Hardware breakpoints live: mem:ADDR:w on probe_target_var (address from
# nm; probe_target is not PIE), written once per call of probed_function,
# N calls.  perfkit stat must count what perf stat counts, and exactly N;
# perfkit record gets N samples of period 1 that perf script and perf
# report read.  Skipped where breakpoints never fire (perf counts 0 too:
# Firecracker VMs such as this one do not deliver debug exceptions).
set -u
: "${PERFKIT:?}"
T=$1
N=50
command -v perf >/dev/null 2>&1 && command -v nm >/dev/null 2>&1 || { echo "no perf/nm"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
A=0x$(nm "$T" | awk '$3 == "probe_target_var" { print $1 }')
[ "$A" != 0x ] || fail "no probe_target_var in $T"
EV=mem:$A:w

perf stat -x, -o "$tmp/p" -e "$EV" -- "$T" calls $N 2>/dev/null || { echo "perf cannot count $EV"; exit 77; }
"$PERFKIT" stat -x, -o "$tmp/k" -e "$EV" -- "$T" calls $N || fail "perfkit stat $EV"
p=$(awk -F, '/mem:/ { print $1 }' "$tmp/p")
k=$(awk -F, '/mem:/ { print $1 }' "$tmp/k")
[ "$k" = "$p" ] || { cat "$tmp/k" "$tmp/p"; fail "perfkit counts '$k', perf '$p'"; }
echo "ok: stat $EV counts $k, as perf does"
[ "$p" = $N ] || { echo "hardware breakpoints do not fire here (perf counts '$p' of $N writes)"; exit 77; }

"$PERFKIT" record -q -o "$tmp/d" -e "$EV" -- "$T" calls $N || fail "perfkit record $EV"
perf script -i "$tmp/d" -F event,period,sym >"$tmp/s" 2>&1 || { cat "$tmp/s"; fail "perf script"; }
c=$(grep -c "^ *1 *mem:.*probed_function" "$tmp/s")
[ "$c" = $N ] || { head "$tmp/s"; fail "perf script: $c samples of period 1, want $N"; }
echo "ok: record $N samples"
