#!/bin/sh
# perfkit stat's issue-21 options against perf stat on software events: the
# same lines, numbers aside (numbers become N, as in stat_format.sh):
# -d/-dd/-ddd, duration_time, --per-core/--per-die/--per-socket/--per-node
# (columns, CSV, JSON, -I), --all-user/--all-kernel, --timeout,
# --interval-count, -B; and the combinations perf refuses.
set -u
command -v perf >/dev/null 2>&1 || { echo "no perf"; exit 77; }
perf stat -e task-clock true >/dev/null 2>&1 || { echo "perf cannot count"; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
status=0

norm() {
	sed -e 's/[0-9][0-9.,]*/N/g' -e 's/  */ /g' -e 's/ $//' -e 's/N %/N%/g' \
		-e 's/N [KMG]\/sec/N \/sec/g' -e 's/N[KMG]\/sec/N\/sec/g' "$1"
}

check() {
	name=$1
	shift
	perf stat "$@" 2>"$TMP/perf" >/dev/null
	"$PERFKIT" stat "$@" 2>"$TMP/kit" >/dev/null
	norm "$TMP/kit" | ${fold:-cat} >"$TMP/kit.n"
	if ! norm "$TMP/perf" | ${fold:-cat} | diff -u - "$TMP/kit.n"; then
		echo "FAIL: $name: perfkit stat $*"
		status=1
		return
	fi
	echo "ok: $name"
}

# Column widths of the counter lines, unnormalised.
check_widths() {
	perf stat "$@" 2>"$TMP/perf" >/dev/null
	"$PERFKIT" stat "$@" 2>"$TMP/kit" >/dev/null
	a=$(grep -E 'msec|faults|<not|ns ' "$TMP/perf" | awk '{ print length($0) }' | tr '\n' ' ')
	b=$(grep -E 'msec|faults|<not|ns ' "$TMP/kit" | awk '{ print length($0) }' | tr '\n' ' ')
	if [ "$a" != "$b" ]; then
		echo "FAIL: widths perf [$a] perfkit [$b] for $*"
		status=1
	else
		echo "ok: widths $*"
	fi
}

# both refuse, with a non-zero status
refused() {
	perf stat "$@" >/dev/null 2>&1 && { echo "perf accepts $* (test is wrong)"; status=1; }
	if "$PERFKIT" stat "$@" >/dev/null 2>"$TMP/err"; then
		echo "FAIL: perfkit stat $* accepted"
		status=1
	elif [ "$(wc -l <"$TMP/err")" != 1 ]; then
		echo "FAIL: perfkit stat $*: not one line: $(cat "$TMP/err")"
		status=1
	else
		echo "ok: refused $*"
	fi
}

check detailed -d true
check detailed-events -e task-clock -d true
check very-detailed -ddd -e task-clock,page-faults true
check detailed-csv -x, -d -e task-clock true
check duration -e duration_time,task-clock,page-faults true
check duration-csv -x, -e duration_time,task-clock true
check duration-json -j -e duration_time,task-clock true
check json-no-metric -j -e page-faults,cycles true
# user and system time of a command that surely takes both (true may take 0)
busy='i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done; ls -R /usr/lib >/dev/null 2>&1'
check tool-times -e user_time,system_time,task-clock sh -c "$busy"
check tool-times-csv -x, -e user_time,system_time,duration_time sh -c "$busy"
check tool-times-repeat -r 2 -e user_time,system_time,duration_time sh -c "$busy"
check duration-no-aggr -A -a -e duration_time,task-clock sleep 0.1
for m in core die socket node; do
	check "per-$m" -a --per-$m -e task-clock,page-faults,cycles sleep 0.1
	check "per-$m-csv" -x, -a --per-$m -e task-clock,page-faults sleep 0.1
	check "per-$m-json" -j -a --per-$m -e task-clock sleep 0.1
	check "per-$m-duration" -a --per-$m -e duration_time,task-clock sleep 0.1
	check "per-$m-duration-json" -j -a --per-$m -e duration_time sleep 0.1
	check "per-$m-interval" -I 100 --interval-count 2 -a --per-$m -e task-clock
	check_widths -a --per-$m -e task-clock,page-faults,cycles sleep 0.1
done
check_widths -e duration_time,task-clock true
check all-user --all-user -e task-clock,page-faults true
check all-kernel --all-kernel -e task-clock,page-faults true
check timeout --timeout 100 -e task-clock,page-faults sleep 2
check timeout-system-wide --timeout 100 -a -e task-clock
check interval-count -I 100 --interval-count 2 -a -e task-clock
check interval-no-aggr -I 100 --interval-count 1 -a -A -e task-clock,duration_time
# how many 5 ms intervals pass before true exits depends on the load:
# the same lines, however many times each
fold=uniq
check interval-short -I 5 -e task-clock true
fold=
check interval-zero -I 0 -e task-clock true
check big-num -B -e task-clock,page-faults true
check null -n true
check null-repeat -n -r 2 true
check null-csv -n -x, true
check quiet --quiet -e task-clock true
check group -g -e task-clock,page-faults true
check no-scale --no-scale -e task-clock,page-faults true
check pre-post --pre true --post true -e task-clock true
refused -B -x, -e task-clock true
refused --timeout 5 -e task-clock true
refused --timeout 100 -I 100 -e task-clock true
refused --interval-count 2 -e task-clock true
refused --per-core -e task-clock true

# perf's options perfkit does not implement: refused by name, one line
for o in --topdown -Mfoo --metric-only -Gfoo --summary --no-merge -T; do
	if "$PERFKIT" stat "$o" -e task-clock true >/dev/null 2>"$TMP/err"; then
		echo "FAIL: $o accepted"
		status=1
	elif [ "$(wc -l <"$TMP/err")" != 1 ]; then
		echo "FAIL: $o: $(cat "$TMP/err")"
		status=1
	fi
done
# --append keeps what the -o file had
"$PERFKIT" stat -o "$TMP/app" -e task-clock true
"$PERFKIT" stat --append -o "$TMP/app" -e task-clock true
[ "$(grep -c task-clock "$TMP/app")" = 2 ] || { echo "FAIL: --append"; status=1; }

# --all-kernel leaves the user-mode page faults of the command out, as in perf
pf() { awk -F, '$3 == "page-faults" { print $1 }' "$1"; }
perf stat -x, --all-kernel -e page-faults -o "$TMP/pk" true
"$PERFKIT" stat -x, --all-kernel -e page-faults -o "$TMP/kk" true
"$PERFKIT" stat -x, -e page-faults -o "$TMP/ka" true
echo "page-faults --all-kernel: perf $(pf "$TMP/pk") perfkit $(pf "$TMP/kk"); all: $(pf "$TMP/ka")"
[ "$(pf "$TMP/kk")" -lt "$(pf "$TMP/ka")" ] || { echo "FAIL: --all-kernel counts user faults"; status=1; }
# --interval-count stops the printing, not the command
start=$(date +%s%N)
"$PERFKIT" stat -I 100 --interval-count 1 -e task-clock sleep 0.5 2>"$TMP/ic"
took=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$(grep -c task-clock "$TMP/ic")" = 1 ] && [ "$took" -ge 450 ] ||
	{ echo "FAIL: --interval-count 1: $took ms, $(cat "$TMP/ic")"; status=1; }
exit $status
