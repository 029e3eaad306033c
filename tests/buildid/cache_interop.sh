#!/bin/sh
# perfkit record fills perf's build-id cache in perf's layout: perf lists
# the entries, and with the recorded binary moved away perf report (and
# perfkit report) still name its functions from the cache.  -N and -B
# leave the cache alone; two recordings at once leave a valid cache.
# shellcheck source=SCRIPTDIR/lib.sh
. "$PERFKIT_SRC/tests/buildid/lib.sh"

rec_pk pk "$tmp/prog" || { echo "perfkit record not permitted"; exit 77; }
bid=$(perf buildid-list -i "$tmp/prog")
[ ${#bid} -eq 40 ] || { echo "the workload has no build id"; exit 77; }
head=$(echo "$bid" | cut -c1-2)
rest=$(echo "$bid" | cut -c3-)

# perf's layout: <dir>/<path>/<bid>/elf and a relative .build-id link
[ -f "$HOME/.debug$tmp/prog/$bid/elf" ] || bad "no $HOME/.debug$tmp/prog/$bid/elf"
link=$(readlink "$HOME/.debug/.build-id/$head/$rest")
[ "$link" = "../..$tmp/prog/$bid" ] || bad "link is '$link', not '../..$tmp/prog/$bid'"
# perf's own listing of the cache sees it, with the same build id
perf buildid-cache -l >"$tmp/perf-l" 2>/dev/null
grep -qxF "$bid $tmp/prog" "$tmp/perf-l" || bad "perf buildid-cache -l misses $tmp/prog"
"$PERFKIT" buildid-cache -l >"$tmp/pk-l"
cmp -s "$tmp/perf-l" "$tmp/pk-l" || bad "buildid-cache -l differs from perf's"
# every DSO that BUILD_ID lists (but the vdso, which perf -l skips) is there
perf buildid-list -i "$tmp/pk.data" | while read -r id name; do
	case $name in
	'[vdso]') [ -f "$HOME/.debug/[vdso]/$id/vdso" ] || echo "[vdso] $id" ;;
	*) grep -qxF "$id $name" "$tmp/perf-l" || echo "$name $id" ;;
	esac
done >"$tmp/missing"
[ -s "$tmp/missing" ] && bad "not cached: $(cat "$tmp/missing")"

# -M: what the recording lists that the cache lacks, as perf (stdout only:
# perf also warns about the kallsyms copy, which it cannot read as ELF)
for h in "$HOME" "$tmp/empty"; do
	HOME=$h perf buildid-cache -M "$tmp/pk.data" >"$tmp/perf-M" 2>/dev/null
	HOME=$h "$PERFKIT" buildid-cache -M "$tmp/pk.data" >"$tmp/pk-M"
	cmp -s "$tmp/perf-M" "$tmp/pk-M" || bad "buildid-cache -M differs from perf's with HOME=$h"
done
[ -s "$tmp/pk-M" ] || bad "buildid-cache -M on an empty cache printed nothing"

report_names "$tmp/pk.data" >"$tmp/with-binary"
grep -q bidtest_spin_a "$tmp/with-binary" || bad "perf report does not name bidtest_spin_a"
mv "$tmp/prog" "$tmp/prog.gone"
report_names "$tmp/pk.data" >"$tmp/from-cache"
cmp -s "$tmp/with-binary" "$tmp/from-cache" ||
	bad "perf report from the cache differs: $(diff "$tmp/with-binary" "$tmp/from-cache" | head -5)"
# the control: without the cache perf cannot name them, so the above is
# the cache's doing
HOME="$tmp/empty" perf report -i "$tmp/pk.data" --stdio -q 2>/dev/null | grep -q bidtest_spin_a &&
	bad "perf report named bidtest_spin_a without the cache: the test proves nothing"
report_names "$tmp/pk.data" perfkit | grep -q bidtest_spin_a ||
	bad "perfkit report does not name bidtest_spin_a from the cache"
mv "$tmp/prog.gone" "$tmp/prog"

# -N: BUILD_ID written, nothing cached; -B: neither
for opt in -N -B; do
	export HOME="$tmp/home$opt"
	mkdir -p "$HOME"
	rec_pk "pk$opt" "$opt" "$tmp/prog" || bad "perfkit record $opt failed"
	[ -e "$HOME/.debug" ] && bad "perfkit record $opt filled $HOME/.debug"
	n=$(perf buildid-list -i "$tmp/pk$opt.data" 2>/dev/null | grep -c "^[0-9a-f]\{40\} $tmp/prog")
	want=1
	[ "$opt" = -B ] && want=0
	[ "$n" = "$want" ] || bad "perfkit record $opt: $n build ids of prog, want $want"
done

# two recordings finishing together: the cache stays valid for perf
export HOME="$tmp/home2"
mkdir -p "$HOME"
rec_pk r1 "$tmp/prog" &
p1=$!
rec_pk r2 "$tmp/prog" &
p2=$!
wait "$p1" || bad "first of two recordings failed"
wait "$p2" || bad "second of two recordings failed"
perf buildid-cache -l 2>/dev/null | grep -qxF "$bid $tmp/prog" ||
	bad "after two recordings perf buildid-cache -l misses $tmp/prog"
find "$HOME/.debug" -mindepth 1 -name '.*' ! -name .build-id >"$tmp/leftovers"
[ -s "$tmp/leftovers" ] && bad "temporary files left: $(cat "$tmp/leftovers")"

[ "$fail" = 0 ] && echo "cache filled in perf's layout and read by perf"
exit "$fail"
