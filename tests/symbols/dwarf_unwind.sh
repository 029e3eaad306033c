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
#
# Where perf's unwinder (libunwind) goes its own way, perfkit's must too:
# - dw-short: dw-omit with a stack copy of 1 KiB (--call-graph dwarf,1024).
#   A return address past the copy, in the stack's map, reads as 0, which
#   perf shows as a last frame ffffffffffffffff.
# - dw-forkexec (progs/dwarf_forkexec.c, linked with libm, run without
#   address randomization): a shell it forked and exec'd keeps the
#   parent's libc lower in perf's maps than its own, and perf, which looks
#   for CFI at a binary's lowest mapping, finds none for the shell's libc:
#   its chains stop there, or go on by libunwind's frame-pointer guesses.
#
# In the children views perf's symbol comparison (inlined by name, others
# by address) is no total order: its entry tree sometimes keeps a second
# copy of an entry, whose depth then orders equal entries, and which it
# sometimes prints as an entry of its own.  perfkit replays those lookups
# (hist_replay.c), so these views must be identical too.
# shellcheck source=SCRIPTDIR/compare_lib.sh
. "$PERFKIT_SRC/tests/symbols/compare_lib.sh"
cc=$(command -v cc || command -v gcc) || { echo "no C compiler"; exit 77; }
[ "$(uname -m)" = x86_64 ] || { echo "workloads are x86-64 only"; exit 77; }
src=${PERFKIT_SRC:-$(dirname "$0")/../..}/tests/symbols/progs

$cc -O2 -g -fPIC -shared -o "$tmp/libdwarf_lib.so" "$src/dwarf_lib.c" -lm ||
	{ echo "cannot build dwarf_lib.c"; exit 77; }
for fp in omit no-omit; do
	$cc -O2 -g -f$fp-frame-pointer -o "$tmp/dw-$fp" "$src/dwarf_unwind.c" \
		-L"$tmp" -ldwarf_lib -Wl,-rpath,"$tmp" || { echo "cannot build dwarf_unwind.c"; exit 77; }
done
$cc -O2 -g -o "$tmp/dw-qsort" "$src/dwarf_qsort.c" || { echo "cannot build dwarf_qsort.c"; exit 77; }
$cc -O2 -g -o "$tmp/dw-forkexec" "$src/dwarf_forkexec.c" -lm ||
	{ echo "cannot build dwarf_forkexec.c"; exit 77; }
rec() { # name
	perf record -q --call-graph dwarf -e cpu-clock -F 4000 -o "$tmp/$1.data" \
		-- "$tmp/$1" >/dev/null 2>&1
}
rec dw-omit || { echo "perf record --call-graph dwarf not permitted"; exit 77; }
rec dw-no-omit
rec dw-qsort
perf record -q --call-graph dwarf,1024 -e cpu-clock -F 4000 -o "$tmp/dw-short.data" \
	-- "$tmp/dw-omit" >/dev/null 2>&1
norandom=
if setarch "$(uname -m)" -R true 2>/dev/null; then
	norandom=1
	perf record -q --call-graph dwarf -e cpu-clock -F 4000 -o "$tmp/dw-forkexec.data" \
		-- setarch "$(uname -m)" -R "$tmp/dw-forkexec" >/dev/null 2>&1
fi

for name in dw-omit dw-no-omit; do
	f=$tmp/$name.data
	check_script "$name" "$f"
	# the chains must be unwound ones: main calls middle in every one
	grep -q 'middle+0x' "$tmp/perf" || { echo "FAIL $name: no unwound frames"; fail=1; }
	check_script "$name" "$f" -F ip,sym
	# --max-stack in children mode (caller order): perf keeps the
	# outermost recorded (kernel) frames and the innermost unwound ones
	for mode in "" "--no-children" "-g caller" "--max-stack 3" "--max-stack 5 -g caller"; do
		# shellcheck disable=SC2086 # mode is two words or none
		check_report "$name" "$f" $mode
	done
done
f=$tmp/dw-qsort.data
check_script dw-qsort "$f"
grep -q 'msort_with_tmp.*(inlined)' "$tmp/perf" ||
	echo "note: no inlined msort_with_tmp frames (libc debug info missing?)"
for mode in "--no-children" "--no-children -g caller" "-g callee" "--no-children -g folded" \
	"" "-g caller"; do
	# shellcheck disable=SC2086 # mode is words or none
	check_report dw-qsort "$f" $mode
done
f=$tmp/dw-short.data
check_script dw-short "$f"
grep -q '^	ffffffffffffffff \[unknown\]' "$tmp/perf" ||
	{ echo "FAIL dw-short: perf shows no ffffffffffffffff frame"; fail=1; }
check_report dw-short "$f"
check_report dw-short "$f" --no-children
n=24
if [ -n "$norandom" ]; then
	f=$tmp/dw-forkexec.data
	check_script dw-forkexec "$f"
	# the shell's chains that stop at once in its libc: perf's quirk
	awk '/^sh / { s = 1; n = 0; next } s && /^\t/ { n++; lib = /libc\.so/; next }
		s && /^$/ { if (n == 1 && lib) hit = 1; s = 0 } END { exit !hit }' "$tmp/perf" ||
		{ echo "FAIL dw-forkexec: no shell chain ends in its libc at perf's"; fail=1; }
	for mode in "" "--no-children" "-g caller"; do
		# shellcheck disable=SC2086 # mode is words or none
		check_report dw-forkexec "$f" $mode
	done
	n=28
else
	echo "setarch -R not available: no fork+exec recording"
fi
cmp_finish "outputs identical to perf" $n
