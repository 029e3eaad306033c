#!/bin/sh
# perfkit buildid-list prints byte for byte what perf buildid-list prints,
# on recordings of the same program made by perf and by perfkit: file and
# pipe mode, with and without -H, -g, without build ids (-B), an ELF file
# given to -i; and -k.  Equal exit statuses on a file that is no perf.data.
# shellcheck source=SCRIPTDIR/lib.sh
. "$PERFKIT_SRC/tests/buildid/lib.sh"
same=0

check() { # LABEL ARGS...
	label=$1
	shift
	perf buildid-list "$@" >"$tmp/perf.out" 2>/dev/null
	"$PERFKIT" buildid-list "$@" >"$tmp/pk.out" 2>"$tmp/pk.err"
	if [ ! -s "$tmp/perf.out" ]; then
		bad "$label: perf printed nothing"
	elif cmp -s "$tmp/perf.out" "$tmp/pk.out"; then
		same=$((same + 1))
	else
		bad "$label: differs from perf"
		diff "$tmp/perf.out" "$tmp/pk.out" | head -10
	fi
}

rec_perf perf "$tmp/prog" || { echo "perf record not permitted"; exit 77; }
rec_pk pk "$tmp/prog" || bad "perfkit record failed: $(cat "$tmp/pk.err")"
rec_perf perf-g -g "$tmp/prog"
rec_pk pk-g -g "$tmp/prog"
rec_pk pk-B -B "$tmp/prog"
rec_perf perf-B -B "$tmp/prog"
perf record -q -e cpu-clock -o - "$tmp/prog" 2>/dev/null >"$tmp/perf-pipe.data"
"$PERFKIT" record -q -e cpu-clock -o - "$tmp/prog" 2>/dev/null >"$tmp/pk-pipe.data"

for n in perf pk perf-g pk-g pk-B perf-B perf-pipe pk-pipe; do
	[ -s "$tmp/$n.data" ] || { bad "no recording $n"; continue; }
	check "$n" -i "$tmp/$n.data"
	check "$n -H" -i "$tmp/$n.data" -H
done
# the recordings list what they are here for
grep -q "prog" "$tmp/perf.out" || bad "the last listing does not name prog"
perf buildid-list -i "$tmp/pk.data" | grep -q '\[vdso\]' || bad "perfkit's BUILD_ID has no [vdso]"
check "ELF file" -i "$tmp/prog"
check "ELF file, long option" --input "$tmp/prog"
check "-k" -k

# not a perf.data and not ELF: both fail
echo "not a recording" >"$tmp/junk"
perf buildid-list -i "$tmp/junk" >/dev/null 2>&1 && bad "perf accepted junk"
"$PERFKIT" buildid-list -i "$tmp/junk" >/dev/null 2>"$tmp/err" && bad "perfkit accepted junk"
[ "$(wc -l <"$tmp/err")" = 1 ] || bad "junk: not one line on stderr: $(cat "$tmp/err")"

[ "$fail" = 0 ] && echo "$same outputs identical to perf"
exit "$fail"
