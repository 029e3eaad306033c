#!/bin/sh
# Symbolization against perf, on recordings made here with perf: callchain
# frames that point into data (objects in .data/.bss/.rodata, a vtable and
# a typeinfo of a library loaded with dlopen(), labels, sizeless objects,
# frames in no map), the vdso, two threads, C++ names, a stripped binary,
# with and without data mmaps (-d).  perf script and perf report --stdio
# (children, self, caller order) must be identical, less perf's "# (Tip:"
# line.  The workloads are in progs/ and are compiled here.
#
# They are built with -fno-plt: where a zero-sized _init runs into .plt,
# which of the overlapping symbols perf finds depends on the shape of its
# symbol tree, and perfkit does not replay it (yet).
set -u
command -v perf >/dev/null 2>&1 || { echo "perf not installed"; exit 77; }
cc=$(command -v cc || command -v gcc) || { echo "no C compiler"; exit 77; }
cxx=$(command -v c++ || command -v g++) || cxx=
[ "$(uname -m)" = x86_64 ] || { echo "workloads are x86-64 only"; exit 77; }
src=${PERFKIT_SRC:-$(dirname "$0")/../..}/tests/symbols/progs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

$cc -O2 -fno-plt -o "$tmp/garbage" "$src/garbage_frames.c" -ldl -lpthread ||
	{ echo "cannot build garbage_frames.c"; exit 77; }
rec() { # name args... (perf record options and command)
	name=$1
	shift
	perf record -q -e cpu-clock -F 4000 -o "$tmp/$name.data" "$@" >/dev/null 2>&1
}
rec garbage -g -- "$tmp/garbage" || { echo "perf record not permitted"; exit 77; }
rec garbage-d -g -d -- "$tmp/garbage"
if [ -n "$cxx" ] && $cxx -O2 -fomit-frame-pointer -fno-plt -o "$tmp/shapes" \
	"$src/cxx_shapes.cpp" 2>/dev/null; then
	cp "$tmp/shapes" "$tmp/shapes-stripped" && strip "$tmp/shapes-stripped"
	rec shapes -g -- "$tmp/shapes"
	rec shapes-stripped -g -d -- "$tmp/shapes-stripped"
fi

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
for name in garbage garbage-d shapes shapes-stripped; do
	f=$tmp/$name.data
	[ -f "$f" ] || continue
	perf script -i "$f" >"$tmp/perf" 2>/dev/null
	"$PERFKIT" script -i "$f" >"$tmp/pk" 2>"$tmp/err"
	compare "$name script"
	for mode in "" "--no-children" "-g caller"; do
		# shellcheck disable=SC2086 # mode is two words or none
		perf report -i "$f" --stdio $mode 2>/dev/null | grep -v '^# (Tip:' >"$tmp/perf"
		# shellcheck disable=SC2086
		"$PERFKIT" report -i "$f" --stdio $mode >"$tmp/pk" 2>"$tmp/err"
		compare "$name report $mode"
	done
done
# the workloads must have given what they are here for
perf script -i "$tmp/garbage-d.data" 2>/dev/null >"$tmp/perf"
for want in 'vtable for std::bad_alloc+0x10' 'data_var+0x0' 'rw_table+0x8' \
	'__vdso_clock_gettime' 'sys_spin'; do
	grep -qF "$want" "$tmp/perf" || { echo "FAIL: no '$want' in perf script"; fail=1; }
done
echo "$same outputs identical to perf ($lines lines)"
[ "$same" -ge 8 ] || fail=1
exit $fail
