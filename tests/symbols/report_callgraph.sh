#!/bin/sh
# perfkit report --stdio call graphs against perf report --stdio, on
# recordings made here with -g (the demo workload and a shell workload)
# and on the corpus file with callchains.  perf's random "# (Tip: ...)"
# line is dropped before comparing.  Where a recording has several
# threads, perf orders entries of equal children period by a comparison
# that is not a total order (callers first only within a thread); the
# children views of such files are compared as sorted lines (same entries
# and same trees, order not checked), everything else line for line.
# shellcheck source=SCRIPTDIR/compare_lib.sh
. "$PERFKIT_SRC/tests/symbols/compare_lib.sh"

sorted=0
check() { check_report "$@"; } # label file args...: identical output
check_sorted() { # label file args...: same lines, any order
	label=$1 file=$2
	shift 2
	cmp_run report "$file" "$@"
	sort "$tmp/perf" >"$tmp/perf.s"
	sort "$tmp/pk" >"$tmp/pk.s"
	cmp_judge "$label (sorted): report${*:+ $*}" "$tmp/perf.s" "$tmp/pk.s" &&
		sorted=$((sorted + 1))
	return 0
}
threads() { # file -> number of threads with samples
	perf report -i "$1" --stdio --no-children -g none --sort pid 2>/dev/null | grep -c '^ '
}
check_all() { # label file
	label=$1 file=$2
	if [ "$(threads "$file")" -le 1 ]; then
		children=check
	else
		children=check_sorted
	fi
	$children "$label" "$file"
	$children "$label" "$file" -g caller
	$children "$label" "$file" -g callee
	$children "$label" "$file" -g flat
	$children "$label" "$file" -g folded
	$children "$label" "$file" -g graph,2
	check "$label" "$file" --percent-limit 5
	check "$label" "$file" --no-children
	check "$label" "$file" --no-children -g caller
	check "$label" "$file" --no-children -g flat
	check "$label" "$file" --no-children -g folded
	check "$label" "$file" --no-children -g graph,1,callee
	# the "---" line skips the entry's own frame with --sort sym; checked
	# where the histogram itself (-g none) already agrees
	cmp_run report "$file" --no-children --sort sym -g none
	if cmp -s "$tmp/perf" "$tmp/pk"; then
		check "$label" "$file" --no-children --sort sym
	fi
	check "$label" "$file" --no-children --sort dso,sym
}

if [ -d "${PERFKIT_CORPUS:-}" ]; then
	check_all corpus-callgraph "$PERFKIT_CORPUS/quipper/perf.data.callgraph-3.8"
fi

demo=${PERFKIT_BUILD:-}/demo/perfkit-demo
work='i=0; while [ $i -lt 60000 ]; do i=$((i+1)); done; ls -R /usr/lib >/dev/null 2>&1'
if perf record -q -o "$tmp/sh.data" -g -e cpu-clock -F 2000 -- sh -c "$work" \
	>/dev/null 2>&1; then
	check_all live-sh "$tmp/sh.data"
	if [ -x "$demo" ] && perf record -q -o "$tmp/demo.data" -g -e cpu-clock -F 2000 -- \
		"$demo" >/dev/null 2>&1; then
		check_all live-demo "$tmp/demo.data"
	fi
else
	echo "perf record -g failed here: live recordings skipped"
fi
echo "$same reports identical to perf, $sorted identical as sorted lines"
[ $((same + sorted)) -gt 0 ] || exit 77
exit $fail
