#!/bin/sh
# perfkit archive: the tarball holds what perf archive's does (same names,
# from the same cache), and unpacked into another empty HOME's .debug with
# the binary gone, perf report (and perfkit report) give the same names as
# on the machine that recorded.  Done for a perfkit recording (cache filled
# by perfkit record) and a perf recording (cache filled by perf record).
# shellcheck source=SCRIPTDIR/lib.sh
. "$PERFKIT_SRC/tests/buildid/lib.sh"
command -v bzip2 >/dev/null 2>&1 || { echo "no bzip2"; exit 77; }

rec_pk pk "$tmp/prog" || { echo "perfkit record not permitted"; exit 77; }
rec_perf perf "$tmp/prog" || bad "perf record failed"
# names over ustar's 100 bytes: the tarball needs pax records for them
long=$tmp/a-directory-with-a-name-long-enough-to-push-the-cache-paths-past-one-hundred-bytes
mkdir -p "$long"
cp "$tmp/prog" "$long/prog"
rec_pk long "$long/prog" || bad "perfkit record of the long-named copy failed"

for n in pk perf long; do
	f=$tmp/$n.data
	prog=$tmp/prog
	[ "$n" = long ] && prog=$long/prog
	[ -s "$f" ] || continue
	export HOME="$tmp/home"
	report_names "$f" >"$tmp/$n.names"
	report_names "$f" perfkit >"$tmp/$n.pknames"
	grep -q bidtest_spin_a "$tmp/$n.names" || bad "$n: perf report does not name bidtest_spin_a"
	# perf's tarball first, put aside, then perfkit's from the same cache
	if perf archive "$f" >/dev/null 2>&1; then
		mv "$f.tar.bz2" "$tmp/$n.perf.tar.bz2"
		tar tjf "$tmp/$n.perf.tar.bz2" | sed 's|/$||' | sort >"$tmp/$n.perf.list"
	else
		bad "$n: perf archive failed"
	fi
	"$PERFKIT" archive "$f" >"$tmp/$n.out" 2>"$tmp/$n.err" ||
		{ bad "$n: perfkit archive failed: $(cat "$tmp/$n.err")"; continue; }
	grep -q "tar xvf $f.tar.bz2 -C ~/.debug" "$tmp/$n.out" || bad "$n: no instructions printed"
	tar tjf "$f.tar.bz2" | sed 's|/$||' | sort >"$tmp/$n.list" || bad "$n: tar cannot list it"
	if [ -s "$tmp/$n.perf.list" ] && ! cmp -s "$tmp/$n.perf.list" "$tmp/$n.list"; then
		bad "$n: the tarball's names differ from perf archive's"
		diff "$tmp/$n.perf.list" "$tmp/$n.list" | head -10
	fi
	grep -q "^\.build-id/../" "$tmp/$n.list" || bad "$n: no .build-id links in the tarball"

	# another machine: an empty HOME, the tarball unpacked, the binary gone
	export HOME="$tmp/other-$n"
	mkdir -p "$HOME/.debug"
	tar xjf "$f.tar.bz2" -C "$HOME/.debug" || bad "$n: tar cannot unpack it"
	mv "$prog" "$prog.gone"
	report_names "$f" >"$tmp/$n.names2"
	report_names "$f" perfkit >"$tmp/$n.pknames2"
	mv "$prog.gone" "$prog"
	cmp -s "$tmp/$n.names" "$tmp/$n.names2" || {
		bad "$n: perf report after unpacking differs"
		diff "$tmp/$n.names" "$tmp/$n.names2" | head -10
	}
	grep -q bidtest_spin_a "$tmp/$n.pknames2" ||
		bad "$n: perfkit report does not name bidtest_spin_a from the unpacked archive"
	rm -f "$f.tar.bz2"
done

# a recording without build ids: an error, as perf's
export HOME="$tmp/home"
rec_pk nob -B "$tmp/prog"
"$PERFKIT" archive "$tmp/nob.data" >/dev/null 2>"$tmp/err" && bad "archive of -B recording succeeded"
[ -e "$tmp/nob.data.tar.bz2" ] && bad "archive of -B recording left a file"

[ "$fail" = 0 ] && echo "archives as perf's, names identical after unpacking elsewhere"
exit "$fail"
