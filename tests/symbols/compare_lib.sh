# Shared setup and comparison helpers of the shell tests that hold perfkit's
# output against the real perf's, produced at test time.  Sourced, not run:
#	. "$PERFKIT_SRC/tests/symbols/compare_lib.sh"
#
# Sourcing it skips the test (exit 77) when perf is not installed, makes
# $tmp (removed on exit) and zeroes the counters: fail (1 once a check
# failed), same (checks passed), lines (lines of perf output they held).
#
# A check runs "perf KIND" and "perfkit KIND" with the same arguments:
#	cmp_check KIND LABEL FILE ARGS...
#	check_report LABEL FILE ARGS...	(perf report --stdio)
#	check_script LABEL FILE ARGS...	(perf script)
# and passes when perfkit's stdout is byte for byte perf's.  These settings
# (shell variables, set by the test before the checks it governs) change
# what is compared; the defaults are the strictest:
#	cmp_opts	options put before -i FILE (word-split), e.g. -f
#	cmp_status=1	the exit statuses must be equal too
#	cmp_allow_empty=1  two empty outputs pass; by default perf must print
#			something, so that a check cannot pass by both failing
#	cmp_missing=skip  a FILE that does not exist skips the check (for
#			recordings this machine may refuse); by default it fails
#	cmp_filter=FUNC	a shell function (stdin to stdout) both outputs go
#			through before comparing
# A check whose perf crashed (killed by SIGSEGV, SIGABRT, SIGBUS, SIGFPE or
# SIGILL, nothing printed) is skipped with a note: there is nothing to
# compare against.  Exit statuses perf returns on purpose (129 for usage,
# 255, 234) are compared as usual.
# perf report's random "# (Tip: ...)" line, which perfkit does not print,
# is always dropped from perf's report output (the one intended difference).
#
# cmp_run and cmp_judge are the two halves of cmp_check, for tests that
# transform the outputs between running and comparing; cmp_finish prints
# the summary line and exits with the test's status.  A test of a few
# lines, registered in meson.build with env : test_env:
#	#!/bin/sh
#	# shellcheck source=SCRIPTDIR/compare_lib.sh
#	. "$PERFKIT_SRC/tests/symbols/compare_lib.sh"
#	f=$PERFKIT_CORPUS/quipper/perf.data.hw_and_sw-3.4
#	check_report sort-pid "$f" --sort pid
#	check_script comms "$f" --comms swapper
#	cmp_finish "outputs identical to perf" 2
set -u
command -v perf >/dev/null 2>&1 || { echo "perf not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 same=0 lines=0 prc=0 krc=0
cmp_opts=${cmp_opts:-} cmp_status=${cmp_status:-0}
cmp_allow_empty=${cmp_allow_empty:-0} cmp_missing=${cmp_missing:-fail}
cmp_filter=${cmp_filter:-}

# cmp_run KIND FILE ARGS...: perf's stdout, stderr and status in
# $tmp/perf, $tmp/perf.err, $prc; perfkit's in $tmp/pk, $tmp/err, $krc
cmp_run() {
	cmp_kind=$1 cmp_file=$2
	shift 2
	cmp_stdio=
	[ "$cmp_kind" = report ] && cmp_stdio=--stdio
	# shellcheck disable=SC2086 # cmp_opts and cmp_stdio are words or none
	perf "$cmp_kind" $cmp_opts -i "$cmp_file" $cmp_stdio "$@" >"$tmp/perf.raw" \
		2>"$tmp/perf.err"
	prc=$?
	# shellcheck disable=SC2086
	"$PERFKIT" "$cmp_kind" $cmp_opts -i "$cmp_file" $cmp_stdio "$@" >"$tmp/pk.raw" \
		2>"$tmp/err"
	krc=$?
	if [ "$cmp_kind" = report ]; then
		grep -v '^# (Tip:' "$tmp/perf.raw" >"$tmp/perf.tip"
		mv "$tmp/perf.tip" "$tmp/perf.raw"
	fi
	if [ -n "$cmp_filter" ]; then
		"$cmp_filter" <"$tmp/perf.raw" >"$tmp/perf"
		"$cmp_filter" <"$tmp/pk.raw" >"$tmp/pk"
	else
		mv "$tmp/perf.raw" "$tmp/perf"
		mv "$tmp/pk.raw" "$tmp/pk"
	fi
}

# cmp_crashed STATUS: the status of a process killed by a crash signal
cmp_crashed() {
	case $1 in
	132 | 134 | 135 | 136 | 139) return 0 ;;
	*) return 1 ;;
	esac
}

# cmp_judge LABEL [PERF PK]: compare the outputs of the last cmp_run (or
# the two files given) under the settings; print FAIL and the start of the
# difference, or ok.  Returns 0 when they agree.  Counts nothing: callers
# decide which counter a pass goes to (cmp_pass for same and lines).
cmp_judge() {
	cmp_label=$1 cmp_a=${2:-$tmp/perf} cmp_b=${3:-$tmp/pk}
	if cmp_crashed "$prc" && [ ! -s "$cmp_a" ]; then
		echo "skip $cmp_label: perf crashed (status $prc)"
		return 2
	elif [ "$cmp_allow_empty" != 1 ] && [ ! -s "$cmp_a" ]; then
		echo "FAIL $cmp_label: perf printed nothing (status $prc)"
	elif [ "$cmp_status" = 1 ] && [ "$prc" -ne "$krc" ]; then
		echo "FAIL $cmp_label: status perf $prc, perfkit $krc"
		diff "$cmp_a" "$cmp_b" | head -10
		head -3 "$tmp/err"
	elif ! cmp -s "$cmp_a" "$cmp_b"; then
		echo "FAIL $cmp_label"
		diff "$cmp_a" "$cmp_b" | head -10
		head -3 "$tmp/err"
	else
		echo "ok   $cmp_label ($(wc -l <"$cmp_a") lines)"
		return 0
	fi
	fail=1
	return 1
}

# cmp_pass: count a passed check and the lines of perf's output
cmp_pass() {
	same=$((same + 1))
	lines=$((lines + $(wc -l <"$tmp/perf")))
}

# cmp_check KIND LABEL FILE ARGS...: run, judge and count one check
cmp_check() {
	cmp_kind=$1 cmp_label=$2 cmp_file=$3
	shift 3
	if [ "$cmp_missing" = skip ] && [ ! -e "$cmp_file" ]; then
		echo "skip $cmp_label (no $cmp_file)"
		return 0
	fi
	cmp_run "$cmp_kind" "$cmp_file" "$@"
	# the arguments after FILE name the check in messages
	cmp_judge "$cmp_label: $cmp_kind${*:+ $*}" && cmp_pass
	return 0
}

check_report() { # LABEL FILE ARGS...
	cmp_check report "$@"
}

check_script() { # LABEL FILE ARGS...
	cmp_check script "$@"
}

# cmp_finish WHAT [MIN [fail|skip]]: print "N WHAT (L lines)" and exit with
# the test's status; fewer than MIN passed checks fail the test (or skip it
# with "skip": nothing could be recorded here)
cmp_finish() {
	echo "$same $1 ($lines lines)"
	if [ "$same" -lt "${2:-0}" ]; then
		[ "${3:-fail}" = skip ] && exit 77
		fail=1
	fi
	exit $fail
}
