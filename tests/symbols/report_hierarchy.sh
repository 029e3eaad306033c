#!/bin/sh
# perf report --hierarchy against perf, on recordings made here of
# progs/parent_calls.c and progs/cxx_throw_sort.cpp: a level per sort key,
# each ordered by overhead then by its key, the overhead block as wide as
# the deepest level's indent, the values' leading blanks trimmed (pid);
# the last level's entries with their call graphs, in the children's
# order though nothing is accumulated.  Event groups, pipe input, the
# column options and the filters are refused in one line.
# shellcheck source=SCRIPTDIR/compare_lib.sh
. "$PERFKIT_SRC/tests/symbols/compare_lib.sh"
cc=$(command -v cc || command -v gcc || command -v clang) || { echo "no C compiler"; exit 77; }
src=${PERFKIT_SRC:-$(dirname "$0")/../..}/tests/symbols/progs
$cc -O0 -g -fno-omit-frame-pointer -o "$tmp/pc" "$src/parent_calls.c" ||
	{ echo "cannot build"; exit 77; }
perf record -q -g -e cpu-clock -F 4000 -o "$tmp/pc.data" -- "$tmp/pc" 60 >/dev/null 2>&1 ||
	{ echo "perf record not permitted"; exit 77; }
perf record -q -e cpu-clock -o "$tmp/flat.data" -- "$tmp/pc" 30 >/dev/null 2>&1 ||
	{ echo "perf record not permitted"; exit 77; }
n=0
run() { # label file args...
	check_report "$@"
	n=$((n + 1))
}
f=$tmp/pc.data
for a in "--hierarchy -g none" "--hierarchy --no-children -g none" "--hierarchy -g none -s dso,sym" \
	"--hierarchy -g none -s sym" "--hierarchy -g none -s comm,pid" "--hierarchy -g none -s pid,sym" \
	"--hierarchy -g none -s sym,dso,comm" "--hierarchy -g none -s dso,comm -q" \
	"--hierarchy -g none -s cpu,sym" \
	"--hierarchy -g none -s time,sym" "--hierarchy -g none -p sys_fake"; do
	# shellcheck disable=SC2086 # a is words
	run hierarchy "$f" $a
done
run hierarchy-flat "$tmp/flat.data" --hierarchy
for a in "--hierarchy" "--hierarchy --no-children" "--hierarchy -g callee" "--hierarchy -s dso,sym" \
	"--hierarchy -g folded" "--hierarchy -g flat,0.5,callee" "--hierarchy -G" \
	"--hierarchy -g graph,0.5,caller,function,period" "--hierarchy -s sym" \
	"--hierarchy -g fractal" "--hierarchy -g graph,0.5,2" "--hierarchy -p sys_fake" \
	"--hierarchy --ignore-callees sys_fake"; do
	# shellcheck disable=SC2086
	run hierarchy-graph "$f" $a
done
cxx=$(command -v g++ || command -v clang++) &&
	$cxx -O2 -g -o "$tmp/cts" "$src/cxx_throw_sort.cpp" &&
	perf record -q -g -e cpu-clock -F 4000 -o "$tmp/cts.data" -- "$tmp/cts" >/dev/null 2>&1
cmp_missing=skip
# -g fractal: perf 6.1 prints its "[...]" remainder with " (inlined)"
# when the flag of that malloc()ed symbol happens to be set
no_rem_flag() { sed 's/\[\.\.\.\] (inlined)$/[...]/'; }
cmp_filter=no_rem_flag
for a in "--hierarchy" "--hierarchy --no-children" "--hierarchy -s sym" "--hierarchy -g fractal"; do
	# shellcheck disable=SC2086
	run hierarchy-cxx "$tmp/cts.data" $a
done
cmp_filter=
perf record -q -e '{cpu-clock,task-clock}' -o "$tmp/grp.data" -- "$tmp/pc" 30 >/dev/null 2>&1
run hierarchy-no-group "$tmp/grp.data" --hierarchy -g none --no-group
for a in "--hierarchy -g none -n" "--hierarchy -g none -F overhead,sym" \
	"--hierarchy -g none -d pc"; do
	# shellcheck disable=SC2086
	"$PERFKIT" report -i "$f" --stdio $a >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ $st -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
		grep -q hierarchy "$tmp/err"; then
		same=$((same + 1))
	else
		echo "FAIL refused $a: status $st"
		fail=1
	fi
	n=$((n + 1))
done
# pipe input and event groups: refused in one line
perf record -q -g -e cpu-clock -o - -- "$tmp/pc" 20 >"$tmp/pipe.data" 2>/dev/null
for in_args in "$tmp/pipe.data --hierarchy" "$tmp/grp.data --hierarchy -g none"; do
	[ -s "${in_args%% *}" ] || continue
	# shellcheck disable=SC2086 # in_args is words
	set -- $in_args
	in=$1
	shift
	"$PERFKIT" report -i "$in" --stdio "$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ $st -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
		same=$((same + 1))
	else
		echo "FAIL refused $in_args: status $st"
		head -3 "$tmp/out" "$tmp/err"
		fail=1
	fi
	n=$((n + 1))
done
cmp_finish "outputs identical to perf" $n
