#!/bin/sh
# Where symbols come from, against perf, under an empty HOME: the symbol
# matrix of a clean machine.  Each binary is recorded by perf (-N: its
# build-id cache stays empty) and by perfkit (-N too), and both files are read by
# both tools; perfkit's script and report must equal perf's.
#   PIE, non-PIE, static, a shared library, frame pointers or none, C++
#   (templates, lambdas, std::sort), DWARF call graphs;
#   stripped binaries whose debug file is beside them, in .debug/, under
#   <symfs>/usr/lib/debug/<dir>/ and only under a build-id path;
#   libc and ld.so with libc6-dbg, hot in qsort and memcpy (the case that
#   named the wrong functions when a debug file's program headers were
#   taken for the binary's);
#   a binary rebuilt after recording, first with no cache (no names, never
#   wrong ones), then with perf's cache filled (the old names).
# MiniDebugInfo (.gnu_debugdata) as perf reads it.  Where perf 6.1 is
# wrong, perfkit must do better, and the test says so: a debug file with
# no copy of its binary.
# shellcheck source=SCRIPTDIR/compare_lib.sh
. "$PERFKIT_SRC/tests/symbols/compare_lib.sh"
cc=$(command -v cc || command -v gcc) || { echo "no C compiler"; exit 77; }
[ "$(uname -m)" = x86_64 ] || { echo "workloads are x86-64 only"; exit 77; }
src=$PERFKIT_SRC/tests/symbols/progs
HOME=$tmp/home
export HOME
mkdir -p "$HOME"
b=$tmp/bin
mkdir -p "$b"

build() { # name cc-args...
	out=$1
	shift
	$cc -O2 -g -o "$b/$out" "$src/hot_sources.c" "$@" || { echo "cannot build $out"; exit 1; }
}
# strip a copy of a binary, keeping its debug info in NAME.debug beside it
split_debug() { # name
	objcopy --only-keep-debug "$b/$1" "$b/$1.debug"
	strip --strip-all "$b/$1"
}
rec_both() { # name [record options]
	name=$1
	shift
	perf record -N -q -e cpu-clock -F 2000 "$@" -o "$tmp/$name.perf" -- "$b/$name" 4 \
		>/dev/null 2>&1 || { echo "perf record not permitted"; exit 77; }
	"$PERFKIT" record -N -q -e cpu-clock -F 2000 "$@" -o "$tmp/$name.pk" -- "$b/$name" 4 \
		>/dev/null 2>"$tmp/rec.err" || { echo "FAIL perfkit record $name"; cat "$tmp/rec.err"; fail=1; }
}
compare() { # name [report/script options]
	name=$1
	shift
	for f in "$tmp/$name.perf" "$tmp/$name.pk"; do
		check_script "$name ${f##*.}" "$f" "$@"
		check_report "$name ${f##*.}" "$f" --no-children "$@"
		check_report "$name ${f##*.}" "$f" "$@"
	done
}

build pie -fno-omit-frame-pointer
build nopie -fno-pie -no-pie -fno-omit-frame-pointer
build nofp -fomit-frame-pointer
build static -static -fno-omit-frame-pointer 2>/dev/null || echo "no static libc: static case skipped"
$cc -O2 -g -fPIC -shared -o "$b/libhot.so" "$src/hot_lib.c"
build withlib -DWITH_LIB -fno-omit-frame-pointer -L"$b" -Wl,-rpath,"$b" -lhot
for name in pie nopie static withlib; do
	[ -x "$b/$name" ] || continue
	rec_both "$name" -g
	compare "$name"
done
rec_both nofp
compare nofp

# C++: templates, lambdas, std::sort and libstdc++; and DWARF call graphs
cxx=$(command -v c++ || command -v g++) || cxx=
if [ -n "$cxx" ]; then
	$cxx -O2 -g -fno-omit-frame-pointer -o "$b/cxx" "$src/cxx_sort.cpp" ||
		{ echo "cannot build cxx_sort.cpp"; exit 1; }
	rec_both cxx -g
	compare cxx
	for want in 'sources::Ring<unsigned long>::mix' 'main::{lambda(unsigned int, unsigned int)#1}'; do
		grep -qF "$want" "$tmp/perf" || { echo "FAIL: perf names no $want"; fail=1; }
	done
fi
rec_both nofp --call-graph dwarf
compare nofp

# libc's own names come from libc6-dbg's file under /usr/lib/debug
perf script -i "$tmp/pie.perf" 2>/dev/null >"$tmp/names"
libc_dbg=
for f in /usr/lib/debug/.build-id/*/*.debug; do
	[ -f "$f" ] && libc_dbg=1 && break
done
if [ -n "$libc_dbg" ]; then
	for want in msort_with_tmp __memmove_avx_unaligned_erms __libc_start_call_main; do
		grep -q "$want" "$tmp/names" || { echo "FAIL: perf names no $want (libc6-dbg?)"; fail=1; }
	done
else
	echo "note: no /usr/lib/debug/.build-id: libc names come from .dynsym here"
fi

# stripped, with the debug file beside the binary and in .debug/
build beside -fno-omit-frame-pointer
split_debug beside
objcopy --add-gnu-debuglink="$b/beside.debug" "$b/beside"
rec_both beside -g
compare beside
grep -q by_value "$tmp/perf" || { echo "FAIL: the debug file beside it gave no names"; fail=1; }
mkdir -p "$b/.debug"
build dotdebug -fno-omit-frame-pointer
split_debug dotdebug
objcopy --add-gnu-debuglink="$b/dotdebug.debug" "$b/dotdebug"
mv "$b/dotdebug.debug" "$b/.debug/"
rec_both dotdebug -g
compare dotdebug

# under a symfs root: the binary and its debug file moved there
root=$tmp/root
build indir -fno-omit-frame-pointer
split_debug indir
objcopy --add-gnu-debuglink="$b/indir.debug" "$b/indir"
build byid -fno-omit-frame-pointer
split_debug byid
rec_both indir -g
rec_both byid -g
bid=$(readelf -n "$b/byid" | awk '/Build ID/ { print $3 }')
mkdir -p "$root/usr/lib/debug$b" "$root$b" "$root/usr/lib/debug/.build-id/$(echo "$bid" | cut -c1-2)"
mv "$b/indir.debug" "$root/usr/lib/debug$b/"
mv "$b/byid.debug" "$root/usr/lib/debug/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug"
mv "$b/indir" "$b/byid" "$root$b/"
compare indir --symfs "$root"
grep -q by_value "$tmp/perf" || { echo "FAIL: --symfs gave no names (debug dir)"; fail=1; }
compare byid --symfs "$root"
grep -q by_value "$tmp/perf" || { echo "FAIL: --symfs gave no names (build id)"; fail=1; }

# the debug file alone, its binary gone: perf places the symbols with the
# debug file's program headers and names the wrong functions; perfkit
# names none rather than a wrong one
mv "$root$b/byid" "$tmp/byid.moved"
"$PERFKIT" script -i "$tmp/byid.pk" --symfs "$root" -F ip,sym,dso 2>/dev/null |
	grep "byid)" | awk '{ print $2 }' | sort -u >"$tmp/alone"
[ -s "$tmp/alone" ] || { echo "FAIL: no samples in byid"; fail=1; }
bad=$(grep -v -x -e '\[unknown\]' "$tmp/alone" | head -3)
[ -z "$bad" ] || { echo "FAIL: names without the binary: $bad"; fail=1; }
mv "$tmp/byid.moved" "$root$b/byid"

# rebuilt after recording: no cache, no names (perf prints the same)
build rebuilt -fno-omit-frame-pointer
rec_both rebuilt -g
build rebuilt -fno-omit-frame-pointer -DWITH_PAD=1 -fno-inline -O1
compare rebuilt
grep -q by_value "$tmp/perf" && { echo "FAIL: a rebuilt binary lent its names"; fail=1; }
# and with perf's cache filled at record time, the old names come back
mv "$b/rebuilt" "$tmp/rebuilt.new"
build rebuilt -fno-omit-frame-pointer
perf record -q -e cpu-clock -F 2000 -g -o "$tmp/cached.perf" -- "$b/rebuilt" 4 >/dev/null 2>&1
mv "$tmp/rebuilt.new" "$b/rebuilt"
check_script cached "$tmp/cached.perf"
grep -q by_value "$tmp/perf" || { echo "FAIL: perf's cache gave no names"; fail=1; }
check_report cached "$tmp/cached.perf" --no-children
# under --symfs perf's build-id cache is ROOT/.debug, not HOME's, so the
# rebuilt binary gets no names (perf 6.1 shows a garbage entry there,
# __TMC_END__+0xffff..., the name of no function: not compared)
"$PERFKIT" report --stdio --no-children -i "$tmp/cached.perf" --symfs "$root" \
	>"$tmp/pk" 2>/dev/null
grep -q by_value "$tmp/pk" && { echo "FAIL: --symfs read HOME's build-id cache"; fail=1; }

# MiniDebugInfo: local functions kept in an xz-compressed .gnu_debugdata
if command -v xz >/dev/null 2>&1; then
	build mini -fno-omit-frame-pointer
	nm -D --format=posix --defined-only "$b/mini" | awk '{ print $1 }' | sort >"$tmp/dyn"
	nm --format=posix --defined-only "$b/mini" | awk '$2 ~ /[TtWw]/ { print $1 }' |
		sort >"$tmp/funcs"
	comm -13 "$tmp/dyn" "$tmp/funcs" >"$tmp/keep"
	objcopy --only-keep-debug "$b/mini" "$tmp/mini.full"
	objcopy -S --remove-section .gdb_index --remove-section .comment \
		--keep-symbols="$tmp/keep" "$tmp/mini.full" "$tmp/mini.elf"
	xz -f "$tmp/mini.elf"
	strip --strip-all "$b/mini"
	objcopy --add-section .gnu_debugdata="$tmp/mini.elf.xz" "$b/mini"
	rec_both mini -g
	"$PERFKIT" report --stdio --no-children -i "$tmp/mini.pk" 2>&1 >"$tmp/mini.txt"
	grep -q '\[\.\] by_value' "$tmp/mini.txt" ||
		{ echo "FAIL: .gnu_debugdata gave no names"; fail=1; }
	compare mini
else
	echo "note: no xz: MiniDebugInfo case skipped"
fi

cmp_finish "outputs identical to perf" 78
