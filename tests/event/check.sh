#!/bin/sh
# perfkit check: its facts against the same facts read here independently
# (/proc/sys, the PMU directory, /proc/mounts), its JSON form, and a run on
# a fake /proc whose values we chose.
set -u
: "${PERFKIT:?}"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*" >&2; cat "$t/out" >&2; exit 1; }

"$PERFKIT" check >"$t/out" 2>"$t/err" || fail "check exited $?"
field() { awk -v k="$1" '$1 == k { print $2; exit }' "$t/out"; }
[ "$(field perf_event_paranoid)" = "$(cat /proc/sys/kernel/perf_event_paranoid)" ] ||
	fail "paranoid differs"
[ "$(field perf_event_max_sample_rate)" = "$(cat /proc/sys/kernel/perf_event_max_sample_rate)" ] ||
	fail "max sample rate differs"
[ "$(field perf_event_mlock_kb)" = "$(cat /proc/sys/kernel/perf_event_mlock_kb)" ] ||
	fail "mlock_kb differs"
n=$(ls /sys/bus/event_source/devices | wc -l)
grep -q "^PMUs ($n):" "$t/out" || fail "PMU count is not $n"
for p in $(ls /sys/bus/event_source/devices); do
	type=$(cat "/sys/bus/event_source/devices/$p/type")
	grep -Eq "^  $p +type $type " "$t/out" || fail "PMU $p (type $type) missing"
done
tfs=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
grep -Eq "^  tracefs +${tfs:-not mounted}\$" "$t/out" || fail "tracefs should be '${tfs:-not mounted}'"
[ -d /sys/bus/event_source/devices/uprobe ] && want=yes || want=no
grep -Eq "^  uprobe PMU +$want\$" "$t/out" || fail "uprobe PMU should be $want"
# the software event always opens for our own process
grep -Eq "^  software event \(task-clock\) +OK" "$t/out" || fail "task-clock did not open"

"$PERFKIT" check --json >"$t/json" || fail "--json exited $?"
python3 - "$t/json" "$(cat /proc/sys/kernel/perf_event_paranoid)" <<'PY' || fail "bad JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["perf_event_paranoid"] == int(sys.argv[2]), d["perf_event_paranoid"]
assert any(p["name"] == "software" and p["type"] == 1 for p in d["pmus"])
assert len(d["probes"]) == 8
PY

# a fake /proc: values chosen here, capabilities none
mkdir -p "$t/proc/sys/kernel" "$t/proc/self"
echo 3 >"$t/proc/sys/kernel/perf_event_paranoid"
echo 1234 >"$t/proc/sys/kernel/perf_event_max_sample_rate"
echo 77 >"$t/proc/sys/kernel/perf_event_max_stack"
printf 'Name:\tx\nCapEff:\t0000000000000000\n' >"$t/proc/self/status"
: >"$t/proc/mounts"
PERFKIT_PROCFS="$t/proc" "$PERFKIT" check >"$t/out" 2>&1 || fail "fake-proc run failed"
grep -Eq "^  perf_event_paranoid +3\$" "$t/out" || fail "fake paranoid not shown"
grep -q "disabled for unprivileged users" "$t/out" || fail "paranoid 3 not explained"
grep -Eq "^  perf_event_max_sample_rate +1234 Hz" "$t/out" || fail "fake rate not shown"
grep -Eq "^  perf_event_mlock_kb +unknown" "$t/out" || fail "missing setting not 'unknown'"
grep -Eq "^  tracefs +not mounted" "$t/out" || fail "empty mounts: tracefs should be absent"
grep -Eq "^  tracepoint .*not supported: tracefs is not mounted" "$t/out" ||
	fail "tracepoint probe should say tracefs is not mounted"
# where symbols are looked for follows HOME and the environment
HOME="$t/h" DEBUGINFOD_URLS= PERF_BUILDID_DIR= XDG_CACHE_HOME= DEBUGINFOD_CACHE_PATH= \
	"$PERFKIT" check >"$t/out" 2>&1 || fail "symbols run failed"
grep -Eq "^  build-id cache +$t/h/.debug/.build-id/\$" "$t/out" || fail "build-id cache not under HOME"
grep -Eq "^  debug files by build id +/usr/lib/debug/.build-id/\$" "$t/out" ||
	fail "/usr/lib/debug not named"
grep -Eq "^  .gnu_debuglink targets +beside the binary" "$t/out" || fail "debuglink places not named"
grep -Eq "^  DEBUGINFOD_URLS +not set" "$t/out" || fail "unset DEBUGINFOD_URLS not said"
if [ "${PERFKIT_DEBUGINFOD:-0}" = 1 ]; then
	grep -Eq "^  debuginfod support +built in " "$t/out" || fail "debuginfod support not said"
	grep -Eq "^  debuginfod cache +$t/h/.cache/debuginfod_client\$" "$t/out" ||
		fail "debuginfod cache not under HOME"
else
	grep -Eq "^  debuginfod support +not built in" "$t/out" || fail "missing debuginfod not said"
fi
HOME="$t/h" DEBUGINFOD_URLS="http://127.0.0.1:9/ http://[::1]:9" PERF_BUILDID_DIR="$t/bid" \
	"$PERFKIT" check --json >"$t/json" || fail "symbols --json failed"
python3 - "$t" "${PERFKIT_DEBUGINFOD:-0}" <<'PY' || fail "bad symbols JSON"
import json, sys
d = json.load(open(sys.argv[1] + "/json"))["symbols"]
assert d["buildid_dir"] == sys.argv[1] + "/bid", d
assert d["debug_dir"] == "/usr/lib/debug", d
assert d["debuginfod_urls"] == "http://127.0.0.1:9/ http://[::1]:9", d
assert d["debuginfod"] == (sys.argv[2] == "1"), d
# DEBUGINFOD_URLS is set: built in, the library loads (Debian's libdebuginfod1)
assert d["debuginfod_loads"] == (sys.argv[2] == "1"), d
PY
"$PERFKIT" check --bogus >/dev/null 2>&1 && fail "--bogus accepted"
echo ok
