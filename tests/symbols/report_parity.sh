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
# - DWARF call graphs through std::sort's inlined templates, which have no
#   linkage names: addr2line (BFD) names the innermost function of an
#   address after the ELF symbol the first time it meets it, so perf shows
#   the real symbol there (script, and report --no-children)
# - --kallsyms FILE (and perf's words and status 234 for one it cannot
#   read), --ignore-vmlinux, --ns and --stdio-color never: perf's output
# - -g ...,period: the periods in place of the percentages; -g's print
#   limit (a second number); -g fractal
# - --show-cpu-utilization: sys and usr columns (also in a group view)
# - every option perf report has is done or refused in one line with a
#   non-zero status, never ignored; so are -v in the histogram view and
#   script -v (perf's addresses, paths and C++ parameters)
# - --tasks and --mmaps: the task tree (and maps) of a recording of a
#   shell that forks
# shellcheck source=SCRIPTDIR/compare_lib.sh
. "$PERFKIT_SRC/tests/symbols/compare_lib.sh"
cxx=$(command -v g++ || command -v clang++) || { echo "no C++ compiler"; exit 77; }
src=${PERFKIT_SRC:-$(dirname "$0")/../..}/tests/symbols/progs
$cxx -O2 -g -o "$tmp/cts" "$src/cxx_throw_sort.cpp" || { echo "cannot build"; exit 77; }
perf record -q -g -e cpu-clock -F 4000 -o "$tmp/fp.data" -- "$tmp/cts" >/dev/null 2>&1 ||
	{ echo "perf record not permitted"; exit 77; }
n=0
f=$tmp/fp.data
# Garbage callchain frames can point into libm, where perf and perfkit do
# not always name an address alike yet (a symbol lookup matter, not this
# test's): entries either tool puts in libm are left out of the sort-key
# checks.
for tool in perf "$PERFKIT"; do
	"$tool" report -i "$f" --stdio -s dso,sym -g none 2>/dev/null |
		awk '$3 ~ /^libm\.so/ { sub(/^.*\] /, ""); sub(/ +$/, ""); print }'
done | sort -u >"$tmp/libm.names"
no_libm() {
	awk -v names="$tmp/libm.names" '
		BEGIN { while ((getline l < names) > 0) bad[l] = 1 }
		{ i = index($0, "] ")
		  if (i) { t = substr($0, i + 2); sub(/  .*$/, "", t); sub(/ +$/, "", t)
			   if (t in bad) next }
		  print }'
}
cmp_filter=no_libm
for keys in "-s sym,dso" "-s sym,dso --no-children" "-s sym,dso -g caller" \
	"-s sym,comm,dso" "-s sym" "-s dso,sym" "-F overhead,sym,dso" "-F sym,dso,overhead" \
	"-s sym,dso -F overhead,sym,dso" "-s sym -F overhead,sym" "-s dso -F overhead,sym,dso" \
	"-s sym,dso -g none"; do
	# shellcheck disable=SC2086 # keys are words
	check_report sort-keys "$f" $keys
	n=$((n + 1))
done
cmp_filter=

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
# -g's period values and print limits in every print mode
for g in "graph,0.5,caller,function,period" "graph,0.5,callee,function,period --no-children" \
	"flat,0.5,callee,function,period --no-children" "folded,period --no-children" \
	"graph,0.5,2" "graph,0.5,1 --no-children" "graph,0.1,3,callee" "flat,0.5,3 --no-children" \
	"folded,0.5,2 --no-children" "graph,0.5,1 -s sym"; do
	# shellcheck disable=SC2086 # g is words
	check_report graph-period "$f" -g $g
	n=$((n + 1))
done
# -g fractal: perf 6.1 prints its "[...]" remainder with " (inlined)"
# when the flag of that malloc()ed symbol happens to be set
no_rem_flag() { sed 's/\[\.\.\.\] (inlined)$/[...]/'; }
cmp_filter=no_rem_flag
for g in "fractal" "fractal --no-children" "fractal,callee" "fractal,0,2" \
	"fractal,period --no-children" "fractal -s sym"; do
	# shellcheck disable=SC2086 # g is words
	check_report fractal "$f" -g $g
	n=$((n + 1))
done
cmp_filter=
# the parent key beside a symbol key without the DSO: perf's lookups of
# unresolved symbols are replayed with parents as with comms
for a in "-s sym,parent -p throw" "-s sym,parent -p throw -g none" "-s sym,comm,parent -p throw" \
	"-s parent,sym -p sort|throw"; do
	# shellcheck disable=SC2086 # a is words
	check_report parent-replay "$f" $a
	n=$((n + 1))
done
check_report kallsyms "$f" --kallsyms /proc/kallsyms -g none
for a in "" "--no-children" "-n --show-total-period -g none" "-t , -g none"; do
	# shellcheck disable=SC2086 # a is words or none
	check_report cpu-util "$f" --show-cpu-utilization $a
	n=$((n + 1))
done
perf record -q -e '{cpu-clock,task-clock}' -g -o "$tmp/grp.data" -- "$tmp/cts" 50000 \
	>/dev/null 2>&1 && check_report cpu-util "$tmp/grp.data" --show-cpu-utilization --no-children &&
	n=$((n + 1))
# (not the group's children view: its unresolved entries are a known gap
# of the group view, with or without these columns)
cmp_allow_empty=1
check_all kallsyms-missing "$f" --kallsyms "$tmp/none" -g none
cmp_allow_empty=0
check_report same-as-perf "$f" --ignore-vmlinux --ns --stdio-color never --no-children
n=$((n + 2))

# refused: one line on stderr naming the option, status 1, nothing on stdout
refused() { # what args...
	what=$1
	shift
	"$PERFKIT" "$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ $st -ne 0 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
		grep -q -e "$what" "$tmp/err" && ! grep -q usage "$tmp/err"; then
		same=$((same + 1))
	else
		echo "FAIL refused: $* (status $st)"
		head -3 "$tmp/err" "$tmp/out"
		fail=1
	fi
	n=$((n + 1))
}
perf record -q -e cpu-clock -o "$tmp/fork.data" -- \
	sh -c "sleep 0.1 & ls / >/dev/null; (ls / | wc -l) >/dev/null; wait" >/dev/null 2>&1
check_report tasks "$tmp/fork.data" --tasks
check_report tasks "$f" --tasks
check_report mmaps "$tmp/fork.data" --mmaps
check_report mmaps "$f" --mmaps
n=$((n + 4))

for o in -M/--disassembler-style:-M,x -m/--modules:-m \
	-w/--column-widths:-w,1 \
	--itrace --inline --tui --stdio-color:--stdio-color,always; do
	name=${o%%:*}
	args=$(echo "${o#*:}" | tr , ' ')
	[ "$name" = "$o" ] && args=$o
	# shellcheck disable=SC2086 # args are words
	refused "${name#*/}" report -i "$f" $args
done
for g in graph,0.5,caller,address graph,0.5,callee,function,count; do
	refused "-g '$g'" report -i "$f" -g "$g"
done
# -k naming no file: perf's own line and status
"$PERFKIT" report -i "$f" -k "$tmp/none" >/dev/null 2>"$tmp/err"
st=$?
if [ $st -eq 234 ] && [ "$(cat "$tmp/err")" = "Invalid file: $tmp/none" ]; then
	same=$((same + 1))
else
	echo "FAIL -k $tmp/none: status $st, $(cat "$tmp/err")"
	fail=1
fi
n=$((n + 1))
refused "-v in the histogram" report -i "$f" -v
refused "script: -v" script -i "$f" -v

f=$tmp/dw.data
if perf record -q --call-graph dwarf -e cpu-clock -F 2000 -o "$f" -- "$tmp/cts" \
	>/dev/null 2>&1; then
	check_script dwarf-inline "$f"
	grep -q '__unguarded_partition.*(inlined)' "$tmp/perf" ||
		echo "note: no inlined std::sort frames (no debug info?)"
	check_report dwarf-inline "$f" --no-children
	# not -g caller: where a caller's frame is the real symbol at one
	# address and an inlined one at another, perf's call trees can merge
	# them in ways perfkit does not replay yet (one run in three differed)
	n=$((n + 2))
else
	echo "perf record --call-graph dwarf not permitted here"
fi
cmp_finish "outputs identical to perf" $n
