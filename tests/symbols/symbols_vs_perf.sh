#!/bin/sh
# Symbolization against perf, on recordings made here with perf: callchain
# frames that point into data (objects in .data/.bss/.rodata, a vtable and
# a typeinfo of a library loaded with dlopen(), labels, sizeless objects,
# frames in no map), the vdso, two threads, C++ names, a stripped binary,
# with and without data mmaps (-d).  perf script and perf report --stdio
# (children, self, caller order) must be identical, less perf's "# (Tip:"
# line.  The workloads are in progs/ and are compiled here.
# They call libc through the PLT, whose stubs perf names _init+off or
# name@plt as the shape of its symbol tree decides (see plt_symbols.sh).
# shellcheck source=SCRIPTDIR/compare_lib.sh
. "$PERFKIT_SRC/tests/symbols/compare_lib.sh"
cc=$(command -v cc || command -v gcc) || { echo "no C compiler"; exit 77; }
cxx=$(command -v c++ || command -v g++) || cxx=
[ "$(uname -m)" = x86_64 ] || { echo "workloads are x86-64 only"; exit 77; }
src=${PERFKIT_SRC:-$(dirname "$0")/../..}/tests/symbols/progs

$cc -O2 -o "$tmp/garbage" "$src/garbage_frames.c" -ldl -lpthread ||
	{ echo "cannot build garbage_frames.c"; exit 77; }
rec() { # name args... (perf record options and command)
	name=$1
	shift
	perf record -q -e cpu-clock -F 4000 -o "$tmp/$name.data" "$@" >/dev/null 2>&1
}
rec garbage -g -- "$tmp/garbage" || { echo "perf record not permitted"; exit 77; }
rec garbage-d -g -d -- "$tmp/garbage"
if [ -n "$cxx" ] && $cxx -O2 -fomit-frame-pointer -o "$tmp/shapes" \
	"$src/cxx_shapes.cpp" 2>/dev/null; then
	cp "$tmp/shapes" "$tmp/shapes-stripped" && strip "$tmp/shapes-stripped"
	rec shapes -g -- "$tmp/shapes"
	rec shapes-stripped -g -d -- "$tmp/shapes-stripped"
fi

for name in garbage garbage-d shapes shapes-stripped; do
	f=$tmp/$name.data
	[ -f "$f" ] || continue
	check_script "$name" "$f"
	for mode in "" "--no-children" "-g caller"; do
		# shellcheck disable=SC2086 # mode is two words or none
		check_report "$name" "$f" $mode
	done
done
# the workloads must have given what they are here for
perf script -i "$tmp/garbage-d.data" 2>/dev/null >"$tmp/perf"
for want in 'vtable for std::bad_alloc+0x10' 'data_var+0x0' 'rw_table+0x8' \
	'__vdso_clock_gettime' 'sys_spin'; do
	grep -qF "$want" "$tmp/perf" || { echo "FAIL: no '$want' in perf script"; fail=1; }
done
cmp_finish "outputs identical to perf" 8
