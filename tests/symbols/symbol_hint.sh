#!/bin/sh
# The hint of report, script and convert about samples without symbols: a
# stripped program with no debug info anywhere gives one line on stderr
# naming it, its build id (as readelf reads it) and the share of samples
# perf itself leaves unresolved in it; the unstripped program gives none,
# and -q silences it.
set -u
: "${PERFKIT:?}"
command -v perf >/dev/null 2>&1 || { echo "perf not installed"; exit 77; }
command -v cc >/dev/null 2>&1 || { echo "no C compiler"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home"
mkdir -p "$HOME"
unset DEBUGINFOD_URLS PERF_BUILDID_DIR
fail=0
bad() { echo "FAIL: $*"; fail=1; }

cat >"$tmp/prog.c" <<'PROG'
#include <stdio.h>
__attribute__((noinline)) static unsigned long spin(unsigned long x)
{
	for (int i = 0; i < 3000; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	return x;
}
int main(void)
{
	unsigned long s = 0;
	for (int i = 0; i < 60000; i++)
		s += spin((unsigned long)i);
	printf("%lu\n", s & 1);
	return 0;
}
PROG
cc -O2 -Wl,--build-id -o "$tmp/full" "$tmp/prog.c" || { echo "cc failed"; exit 77; }
# stripped of every symbol, no .gnu_debuglink, no debug file anywhere
objcopy --strip-all "$tmp/full" "$tmp/stripped"
bid=$(readelf -n "$tmp/full" | awk '/Build ID/ { print $3 }')
[ -n "$bid" ] || { echo "no build id"; exit 77; }

for p in full stripped; do
	perf record -N -q -e cpu-clock -F 2000 -o "$tmp/$p.data" -- "$tmp/$p" >/dev/null 2>&1
	[ -s "$tmp/$p.data" ] || { echo "perf record failed"; exit 77; }
done

# perf's share of the samples in the stripped program without a symbol
want=$(perf script -i "$tmp/stripped.data" -F ip,sym,dso 2>/dev/null | awk -v p="($tmp/stripped)" '
	{ n++ } $NF == p && $2 == "[unknown]" { u++ }
	END { if (n) printf "%.0f", 100 * u / n }')
[ "${want:-0}" -ge 50 ] || { echo "FAIL: perf leaves only ${want:-0}% unresolved"; exit 1; }

hint_re="^perfkit: ([0-9]+)% of samples, in stripped \\(build id $bid\\), have no symbols: install its debug package"

run() { # NAME ARGS...: stderr of perfkit ARGS in $tmp/NAME.err
	r_name=$1
	shift
	"$PERFKIT" "$@" >/dev/null 2>"$tmp/$r_name.err" || bad "$r_name: exit status $?"
}

for cmd in report script convert; do
	case $cmd in
	report) args="report --stdio" ;;
	script) args="script" ;;
	convert) args="convert --to folded -o $tmp/out.folded" ;;
	esac
	# shellcheck disable=SC2086 # args are words
	run "$cmd" $args -i "$tmp/stripped.data"
	n=$(grep -c "have no symbols" "$tmp/$cmd.err")
	[ "$n" = 1 ] || bad "$cmd: $n hint lines, not 1"
	got=$(sed -En "s/$hint_re.*/\\1/p" "$tmp/$cmd.err")
	if [ -z "$got" ]; then
		bad "$cmd: no hint naming stripped and build id $bid"
		cat "$tmp/$cmd.err"
	elif [ $((got - want)) -gt 1 ] || [ $((want - got)) -gt 1 ]; then
		bad "$cmd: hint says $got%, perf leaves $want% unresolved"
	fi
	# shellcheck disable=SC2086
	run "$cmd-q" $args -q -i "$tmp/stripped.data"
	grep -q "have no symbols" "$tmp/$cmd-q.err" && bad "$cmd -q: hint printed"
	# shellcheck disable=SC2086
	run "$cmd-full" $args -i "$tmp/full.data"
	grep -q "have no symbols" "$tmp/$cmd-full.err" && bad "$cmd: hint for a program with symbols"
done
# with DEBUGINFOD_URLS set (a port nobody listens on) the hint says so
DEBUGINFOD_URLS=http://127.0.0.1:9 run urls report --stdio -i "$tmp/stripped.data"
grep -Eq "$hint_re( \\(none came from the DEBUGINFOD_URLS servers\\)| \\(this perfkit is built without debuginfod\\))\$" \
	"$tmp/urls.err" || { bad "hint with DEBUGINFOD_URLS set"; cat "$tmp/urls.err"; }
# the program gone from the machine: the hint says so, not "debug package"
rm "$tmp/stripped"
run gone report --stdio -i "$tmp/stripped.data"
grep -Eq "^perfkit: [0-9]+% of samples, in stripped \(build id $bid\), have no symbols: it is not on this machine" \
	"$tmp/gone.err" || { bad "hint for a program not on this machine"; cat "$tmp/gone.err"; }
[ $fail = 0 ] && echo "ok: hint at $want% for report, script and convert; none with -q or symbols"
exit $fail
