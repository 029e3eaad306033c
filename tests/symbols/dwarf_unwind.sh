#!/bin/sh
# DWARF callchains (perf record --call-graph dwarf) against perf: the
# workload in progs/dwarf_unwind.c (nested calls, recursion deeper than
# perf's 127 frames, calls into a shared library and back, libm, system
# calls), built with -O2 -g with and without frame pointers, is recorded
# here with perf; perf script (default and -F ip,sym) and perf report
# --stdio (children, --no-children, -g caller) must be identical, less
# perf's "# (Tip:" line.  With debug info for libc installed the chains
# also hold perf's inlined frames.  progs/dwarf_qsort.c sorts with glibc's
# qsort, whose recursive merge sort is inlined into itself and into
# qsort_r: its chains hold runs of same-named inlined frames of two
# functions, which perf's call trees merge by name (all report views).
set -u
command -v perf >/dev/null 2>&1 || { echo "perf not installed"; exit 77; }
cc=$(command -v cc || command -v gcc) || { echo "no C compiler"; exit 77; }
[ "$(uname -m)" = x86_64 ] || { echo "workloads are x86-64 only"; exit 77; }
src=${PERFKIT_SRC:-$(dirname "$0")/../..}/tests/symbols/progs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

$cc -O2 -g -fPIC -shared -o "$tmp/libdwarf_lib.so" "$src/dwarf_lib.c" -lm ||
	{ echo "cannot build dwarf_lib.c"; exit 77; }
for fp in omit no-omit; do
	$cc -O2 -g -f$fp-frame-pointer -o "$tmp/dw-$fp" "$src/dwarf_unwind.c" \
		-L"$tmp" -ldwarf_lib -Wl,-rpath,"$tmp" || { echo "cannot build dwarf_unwind.c"; exit 77; }
done
$cc -O2 -g -o "$tmp/dw-qsort" "$src/dwarf_qsort.c" || { echo "cannot build dwarf_qsort.c"; exit 77; }
rec() { # name
	perf record -q --call-graph dwarf -e cpu-clock -F 4000 -o "$tmp/$1.data" \
		-- "$tmp/$1" >/dev/null 2>&1
}
rec dw-omit || { echo "perf record --call-graph dwarf not permitted"; exit 77; }
rec dw-no-omit
rec dw-qsort

fail=0 same=0 lines=0
compare() { # label
	if [ ! -s "$tmp/perf" ]; then
		echo "FAIL $1: perf printed nothing"
		fail=1
	elif cmp -s "$tmp/perf" "$tmp/pk"; then
		same=$((same + 1))
		lines=$((lines + $(wc -l <"$tmp/perf")))
	else
		echo "FAIL $1"
		diff "$tmp/perf" "$tmp/pk" | head -10
		head -3 "$tmp/err"
		fail=1
	fi
}
for name in dw-omit dw-no-omit; do
	f=$tmp/$name.data
	perf script -i "$f" >"$tmp/perf" 2>/dev/null
	"$PERFKIT" script -i "$f" >"$tmp/pk" 2>"$tmp/err"
	compare "$name script"
	# the chains must be unwound ones: main calls middle in every one
	grep -q 'middle+0x' "$tmp/perf" || { echo "FAIL $name: no unwound frames"; fail=1; }
	perf script -i "$f" -F ip,sym >"$tmp/perf" 2>/dev/null
	"$PERFKIT" script -i "$f" -F ip,sym >"$tmp/pk" 2>"$tmp/err"
	compare "$name script -F ip,sym"
	for mode in "" "--no-children" "-g caller"; do
		# shellcheck disable=SC2086 # mode is two words or none
		perf report -i "$f" --stdio $mode 2>/dev/null | grep -v '^# (Tip:' >"$tmp/perf"
		# shellcheck disable=SC2086
		"$PERFKIT" report -i "$f" --stdio $mode >"$tmp/pk" 2>"$tmp/err"
		compare "$name report $mode"
	done
done
f=$tmp/dw-qsort.data
perf script -i "$f" >"$tmp/perf" 2>/dev/null
"$PERFKIT" script -i "$f" >"$tmp/pk" 2>"$tmp/err"
compare "dw-qsort script"
grep -q 'msort_with_tmp.*(inlined)' "$tmp/perf" ||
	echo "note: no inlined msort_with_tmp frames (libc debug info missing?)"
for mode in "" "--no-children" "-g caller" "--no-children -g caller" "-g callee" \
	"--no-children -g folded"; do
	# shellcheck disable=SC2086
	perf report -i "$f" --stdio $mode 2>/dev/null | grep -v '^# (Tip:' >"$tmp/perf"
	# shellcheck disable=SC2086
	"$PERFKIT" report -i "$f" --stdio $mode >"$tmp/pk" 2>"$tmp/err"
	compare "dw-qsort report $mode"
done
echo "$same outputs identical to perf ($lines lines)"
[ "$same" -ge 17 ] || fail=1
exit $fail
