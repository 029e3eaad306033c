#!/bin/bash
# Pipe output of perfkit record names its events (EVENT_UPDATE records, as
# perf writes them in pipe mode): perf script and perfkit script print the
# same event name, the one perf script prints for perf's own pipe output.
set -u
PERF=${PERF:-perf}
command -v "$PERF" >/dev/null || { echo "perf not installed: skip"; exit 77; }
PK=${PERFKIT:?}
T=$(mktemp -d /tmp/pk-record-pipe.XXXXXX)
trap 'rm -rf "$T"' EXIT
failed=0
work() { dd if=/dev/zero bs=1M count=40 2>/dev/null | md5sum >/dev/null; }
export -f work 2>/dev/null

# the event field of the first sample line of "script"
ev() { awk '/ [0-9]+\.[0-9]+: / {for (i = 1; i <= NF; i++)
	if ($i ~ /:$/ && $i !~ /^[0-9.]+:$/) {print $i; exit}}'; }

for e in "" "-e cpu-clock" "-e task-clock" "-e cpu-clock:u"; do
	# shellcheck disable=SC2086
	"$PK" record -q -g $e -o - -- bash -c work >"$T/pk.pipe" 2>"$T/err" ||
		{ echo "FAIL: record $e: $(head -c 200 "$T/err")"; failed=1; continue; }
	# shellcheck disable=SC2086
	"$PERF" record -q -g $e -o - -- bash -c work 2>/dev/null >"$T/perf.pipe"
	want=$("$PERF" script -i - <"$T/perf.pipe" 2>/dev/null | ev)
	# perf names its own cycles fallback cpu-clock:ppp, perfkit cpu-clock:
	# there the two readers of perfkit's pipe must agree with each other
	[ -z "$e" ] && want=$("$PK" script -i - <"$T/pk.pipe" 2>/dev/null | ev)
	a=$("$PERF" script -i - <"$T/pk.pipe" 2>/dev/null | ev)
	b=$("$PK" script -i - <"$T/pk.pipe" 2>/dev/null | ev)
	if [ -n "$want" ] && [ "$a" = "$want" ] && [ "$b" = "$want" ]; then
		echo "ok: record ${e:-(default)} -o -: both scripts say $want"
	else
		echo "FAIL: record ${e:-(default)} -o -: perf script '$a', perfkit script '$b'," \
			"perf's own pipe '$want'"
		failed=1
	fi
done
exit $failed
