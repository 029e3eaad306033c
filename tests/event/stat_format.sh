#!/bin/sh
# perfkit stat prints what perf stat prints, numbers aside: run both with
# the same options and compare after replacing every number with N.
# Column widths are compared too (line lengths of the counter lines).
set -u
command -v perf >/dev/null 2>&1 || { echo "no perf"; exit 77; }
perf stat -e task-clock true >/dev/null 2>&1 || { echo "perf cannot count"; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
status=0

norm() {
	sed -e 's/[0-9][0-9.,]*/N/g' -e 's/  */ /g' -e 's/ $//' -e 's/N %/N%/g' -e 's/N [KMG]\/sec/N \/sec/g' \
		-e '/faults/s/ ( +- N% )//' "$1" |
		grep -v '^# started on'
}

check() {
	name=$1
	shift
	perf stat "$@" 2>"$TMP/perf" >/dev/null
	"$PERFKIT" stat "$@" 2>"$TMP/kit" >/dev/null
	norm "$TMP/kit" >"$TMP/kit.n"
	if ! norm "$TMP/perf" | diff -u - "$TMP/kit.n"; then
		echo "FAIL: $name: perfkit stat $*"
		status=1
		return
	fi
	echo "ok: $name"
}

# (Rates may change prefix and a fault count may not vary over -r runs:
# those differences are not format differences.)

# Same line lengths for counter lines (fixed-width columns).
check_widths() {
	perf stat "$@" 2>"$TMP/perf" >/dev/null
	"$PERFKIT" stat "$@" 2>"$TMP/kit" >/dev/null
	a=$(grep -E 'msec|faults|<not' "$TMP/perf" | awk '{ print length($0) }' | tr '\n' ' ')
	b=$(grep -E 'msec|faults|<not' "$TMP/kit" | awk '{ print length($0) }' | tr '\n' ' ')
	if [ "$a" != "$b" ]; then
		echo "FAIL: widths perf [$a] perfkit [$b] for $*"
		status=1
	else
		echo "ok: widths $*"
	fi
}

check default true
check events -e task-clock,page-faults,cycles,context-switches:u true
check csv -x, -e task-clock,page-faults,cycles true
check csv-semicolon -x';' -e cpu-clock,minor-faults true
check json -j -e task-clock,page-faults,cycles true
check repeat -r 3 -e task-clock,page-faults true
check repeat-csv -x, -r 3 -e task-clock,page-faults true
check no-rate -e page-faults,cs true
check two-clocks -e cpu-clock:u,task-clock:k,page-faults:uH true
check system-wide -a -e task-clock,page-faults sleep 0.1
check per-cpu -A -a -e task-clock,cs sleep 0.1
check per-cpu-csv -x, -A -a -e task-clock sleep 0.1
check cpu-list -C 0 -e task-clock sleep 0.1
check_widths -e task-clock,page-faults,cycles,cs true
check_widths true
exit $status
