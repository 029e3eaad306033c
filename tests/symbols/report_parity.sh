#!/bin/sh
# perf report's behaviours a perf user relies on, against perf on
# recordings made here of progs/cxx_throw_sort.cpp (C++ exceptions, then
# std::sort):
# - the symbol key compares the DSOs' names first only when --sort has no
#   DSO key (perf 6.1.y), so -s sym,dso merges what -s sym may split;
#   -F alone sorts by its fields, and its DSO does not count as one
# - the root's first frame is left out of the call graphs only for a
#   --sort starting with "sym" and no -F
# - -b on samples without branch stacks: perf's first lines, its error and
#   nothing more (status 0, as perf)
# - --header with -I: every header section whole
# shellcheck source=SCRIPTDIR/compare_lib.sh
. "$PERFKIT_SRC/tests/symbols/compare_lib.sh"
cxx=$(command -v g++ || command -v clang++) || { echo "no C++ compiler"; exit 77; }
src=${PERFKIT_SRC:-$(dirname "$0")/../..}/tests/symbols/progs
$cxx -O2 -g -o "$tmp/cts" "$src/cxx_throw_sort.cpp" || { echo "cannot build"; exit 77; }
perf record -q -g -e cpu-clock -F 4000 -o "$tmp/fp.data" -- "$tmp/cts" >/dev/null 2>&1 ||
	{ echo "perf record not permitted"; exit 77; }
n=0
f=$tmp/fp.data
for keys in "-s sym,dso" "-s sym,dso --no-children" "-s sym,dso -g caller" \
	"-s sym,comm,dso" "-s sym" "-s dso,sym" "-F overhead,sym,dso" "-F sym,dso,overhead" \
	"-s sym,dso -F overhead,sym,dso" "-s sym -F overhead,sym" "-s dso -F overhead,sym,dso" \
	"-s sym,dso -g none"; do
	# shellcheck disable=SC2086 # keys are words
	check_report sort-keys "$f" $keys
	n=$((n + 1))
done

# stdout, stderr and status all as perf's
check_all() { # label file args...
	label=$1
	shift
	cmp_run report "$@"
	shift
	if cmp_judge "$label: report $*" && cmp -s "$tmp/perf.err" "$tmp/err" &&
		[ $prc -eq $krc ]; then
		cmp_pass
	else
		echo "FAIL $label $* (stderr or status $prc/$krc)"
		diff "$tmp/perf.err" "$tmp/err" | head -4
		fail=1
	fi
	n=$((n + 1))
}
check_all no-branch "$f" -b
cmp_allow_empty=1
check_all no-branch "$f" -b -q
cmp_allow_empty=0
check_all no-branch "$f" -b --header
check_report header-info "$f" --header -I -g none
n=$((n + 1))
cmp_finish "outputs identical to perf" $n
