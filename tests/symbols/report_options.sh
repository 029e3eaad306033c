#!/bin/sh
# perfkit report --stdio's view options against perf report --stdio, byte
# for byte, on the corpus and on recordings made here: -n,
# --show-total-period, -q, --header, -t, --percentage, --max-stack, -G,
# -U, --demangle/--no-demangle, -F, -T, -g words (and -g refused without
# callchains), pipe input with callchains, tracepoints (--sort trace).
# perf's random "# (Tip: ...)" line
# is dropped before comparing (the one intentional difference).
set -u
command -v perf >/dev/null 2>&1 || { echo "perf not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail=0 same=0 lines=0
check() { # label file args...
	label=$1 file=$2
	shift 2
	perf report -i "$file" --stdio "$@" 2>/dev/null | grep -v '^# (Tip:' >"$tmp/perf"
	"$PERFKIT" report -i "$file" --stdio "$@" >"$tmp/pk" 2>"$tmp/err"
	if [ ! -s "$tmp/perf" ]; then
		echo "FAIL $label: perf printed nothing"
		fail=1
	elif cmp -s "$tmp/perf" "$tmp/pk"; then
		same=$((same + 1))
		lines=$((lines + $(wc -l <"$tmp/perf")))
	else
		echo "FAIL $label $*"
		diff "$tmp/perf" "$tmp/pk" | head -8
		head -3 "$tmp/err"
		fail=1
	fi
}

# perf's words when -U leaves no sample: on stderr, status 0
check_no_samples() { # label file args...
	label=$1 file=$2
	shift 2
	perf report -i "$file" --stdio "$@" 2>"$tmp/perf.err" >"$tmp/perf"
	"$PERFKIT" report -i "$file" --stdio "$@" >"$tmp/pk" 2>"$tmp/err"
	st=$?
	if cmp -s "$tmp/perf" "$tmp/pk" && [ $st -eq 0 ] &&
		grep -q 'data has no samples!' "$tmp/perf.err" &&
		grep -q 'data has no samples!' "$tmp/err"; then
		same=$((same + 1))
	else
		echo "FAIL $label $* (status $st)"
		diff "$tmp/perf" "$tmp/pk" | head -8
		fail=1
	fi
}

# stdout, stderr and status all as perf's (options perf checks against
# the file and gives up on)
check_all() { # label file args...
	label=$1 file=$2
	shift 2
	perf report -i "$file" --stdio "$@" 2>"$tmp/perf.err" >"$tmp/perf"
	pst=$?
	"$PERFKIT" report -i "$file" --stdio "$@" >"$tmp/pk" 2>"$tmp/err"
	st=$?
	if cmp -s "$tmp/perf" "$tmp/pk" && cmp -s "$tmp/perf.err" "$tmp/err" && [ $st -eq $pst ]; then
		same=$((same + 1))
	else
		echo "FAIL $label $* (status perf $pst, perfkit $st)"
		diff "$tmp/perf" "$tmp/pk" | head -4
		diff "$tmp/perf.err" "$tmp/err" | head -4
		fail=1
	fi
}

# perf refusing -g on a file without callchains: the same stdout (the
# lines it prints first, or none), stderr and status, and its words
check_refused() { # label file args...
	check_all "$@"
	grep -q 'But no callchain' "$tmp/err" || { echo "FAIL $1: no refusal"; fail=1; }
}

if [ -d "${PERFKIT_CORPUS:-}" ]; then
	q=$PERFKIT_CORPUS/quipper
	f=$q/perf.data.group_desc-4.14
	check group-nr-period "$f" -n --show-total-period
	check group-sep "$f" -t , -n
	check group-quiet "$f" -q
	check group-header "$f" --header
	check_no_samples group-hide "$f" -U
	check_no_samples group-hide-header "$f" -U --header
	f=$q/perf.data.hw_and_sw-3.4
	check hw-nr "$f" -n --no-children
	check hw-sep "$f" -t '|' --show-total-period
	check hw-relative "$f" --percentage relative --comms swapper
	check hw-absolute "$f" --percentage absolute --comms swapper,perf
	check hw-threads "$f" -T
	f=$q/perf.data.callgraph-3.8
	check cg-max-stack "$f" --max-stack 3 --no-children
	check cg-inverted "$f" -G --no-children
	check cg-nr-max-stack "$f" -n --max-stack 4
	check cg-sep "$f" -t '|' -n --no-children
fi

work='i=0; while [ $i -lt 60000 ]; do i=$((i+1)); done; ls -R /usr/lib >/dev/null 2>&1'
if perf record -q -o "$tmp/plain.data" -e cpu-clock -F 2000 -- sh -c "$work" >/dev/null 2>&1; then
	perf record -q -o "$tmp/graph.data" -g -e cpu-clock -F 2000 -- sh -c "$work" \
		>/dev/null 2>&1
	p=$tmp/plain.data g=$tmp/graph.data
	check nr "$p" -n
	check period "$p" --show-total-period
	check nr-period "$p" -n --show-total-period --sort pid,dso
	check quiet "$p" -q
	check quiet-nr "$p" -q -n
	check sep "$p" -t ,
	check sep-nr "$p" -t '|' -n --sort dso,sym
	check header "$p" --header
	check threads "$p" -T
	check quiet-threads "$p" -q -T
	# record -s: each thread's counts at its exit, -T's table (the shell
	# and the processes it starts, in the order they ended)
	if perf record -q -s -o "$tmp/stat.data" -e cpu-clock -F 2000 -- sh -c "$work" \
		>/dev/null 2>&1; then
		check stat-threads "$tmp/stat.data" -T
		grep -q '^#  *PID  *TID  *cpu-clock$' "$tmp/perf" ||
			{ echo "FAIL stat-threads: perf printed no counts"; fail=1; }
		check stat-threads-nc "$tmp/stat.data" -T --no-children -n
	fi
	check relative-comm "$p" --percentage relative --comms ls
	check relative-dsos "$p" --percentage relative --dsos libc.so.6,dash
	check relative-dso "$p" --percentage relative --dsos libc.so.6 -n
	check absolute-comm "$p" --percentage absolute --comms ls
	check hide "$p" -U
	check hide-nr "$p" -U -n -q
	# (sym without dso before it is left out: perf's lookups split and move
	# unresolved entries between DSOs there, a known gap of the replay)
	check fields "$p" -F overhead,dso,sym
	check fields-sample "$p" -F overhead,sample,dso,sym,comm
	check fields-dso "$p" -F overhead,comm,dso
	check fields-period "$p" -F overhead,period,dso -t ,
	check g-nr "$g" -n
	check g-nr-period "$g" -n --show-total-period -g none
	check g-quiet "$g" -q
	check g-sep "$g" -t '|'
	check g-inverted "$g" -G
	check g-inverted-self "$g" --no-children -G
	check g-max-stack "$g" --max-stack 3
	check g-max-stack-none "$g" --max-stack 3 -g none
	check g-max-stack-self "$g" --max-stack 4 --no-children -g none
	check g-max-stack-callee "$g" --max-stack 5 -g callee
	check g-max-stack-caller "$g" --max-stack 2 --no-children -g caller
	check g-max-stack-zero "$g" --max-stack 0
	check g-inverted-max-stack "$g" -G --max-stack 4
	check g-hide "$g" -U
	check g-hide-self "$g" -U --no-children
	# filters in children mode: perf keeps what a rejected sample adds
	# (hidden, in its trees, an entry it creates staying hidden), judges a
	# sample by its own location, and its output order skips a key whose
	# filter names one value
	check g-comm "$g" --comms ls
	check g-comms "$g" --comms ls,sh -g caller
	check g-comm-relative "$g" --percentage relative --comms ls
	check g-dso "$g" --dsos libc.so.6
	check g-dsos "$g" --dsos libc.so.6,dash -g none
	check g-dso-self "$g" --dsos libc.so.6 --no-children
	check g-dso-sort "$g" --sort dso --dsos dash -g none
	check g-symbols "$g" --symbols main,__strcmp_evex -g none
	# an entry that reads as a hex number is an address to perf: "fc"
	# names nothing (no "# symbol:" line, the column stays), a sample's own
	# address keeps that sample's entry, and beside a name only the name
	# is shown above the table
	check g-symbols-hexword "$g" --symbols fc -g none
	kip=$(perf script -i "$g" -F ip 2>/dev/null | awk '$1 ~ /^ffffffff/ { print $1; exit }')
	if [ -n "$kip" ]; then
		check g-symbols-address "$g" --symbols "$kip" -g none --no-children
		grep -q '%' "$tmp/perf" ||
			{ echo "FAIL g-symbols-address: perf kept no entry at $kip"; fail=1; }
		check g-symbols-mixed "$g" --symbols "main,0x$kip" -g none
	fi
	check g-relative-self "$g" --percentage relative --comms ls --no-children -n
	check g-relative-folded "$g" --percentage relative --comms ls --no-children -g folded
	check g-fields "$g" -F overhead_children,overhead,sample,comm,dso -g none
	# -F orders by its fields (after the --sort keys), still accumulates
	# children without their column, and shows N/A for children of a file
	# without callchains
	check g-fields-self "$g" -F overhead,dso
	check g-fields-order "$g" -F dso,overhead -g none
	check g-fields-sort "$g" -F overhead,dso --sort comm -g none
	check g-fields-samples "$g" -F sample,overhead,comm,dso -g none
	check plain-fields-children "$p" -F overhead_children,overhead,dso
	# a single-value filter names itself (even with -q) for each key shown,
	# in column order, and hides its column, -F's too, unless every key's
	# would go; none for a key not shown
	check fields-filter "$p" -F overhead,comm,dso --comms ls
	check fields-filter-all "$p" -F overhead,comm --comms ls
	check fields-filter-order "$p" -F dso,comm,overhead --comms ls --dsos libc.so.6
	check quiet-filter "$p" -q --comms ls
	check sort-filter-other "$p" --sort dso --comms ls
	# -g without a word (perf's "graph,0.5,caller,function,percent"), and
	# words cut short, as perf reads them
	check g-bare "$g" -g
	check g-bare-self "$g" --no-children -g
	check g-short-callee "$g" -g calle
	check g-short-flat "$g" -g f,1
	check g-short-none "$g" -g n,callee
	# --percent-limit sets the branches' limit too, unless a -g naming one
	# comes after it
	check g-limit-then-graph "$g" --percent-limit 3 -g caller,1
	check g-graph-then-limit "$g" -g caller,5 --percent-limit 0.5
	check g-limit-then-bare "$g" --percent-limit 3 -g
	check g-limit-then-order "$g" --percent-limit 2 --no-children -g callee
	# a file without callchains: no children column even when asked, and
	# -g refused (perf prints its first lines, says why on stderr, status 0)
	check plain-children "$p" --children
	check_refused plain-graph "$p" -g caller
	check_refused plain-graph-quiet "$p" -q -g
	check_refused plain-graph-header "$p" --header -g folded
	check plain-graph-none "$p" -g none
	# a pipe gives its attrs only as it is read: perf shows no children but
	# draws the samples' graphs, the caller first unless --no-children
	if perf record -q -o - -g -e cpu-clock -F 2000 -- sh -c "$work" >"$tmp/pipe.data" \
		2>/dev/null; then
		check pipe-g "$tmp/pipe.data"
		check pipe-g-self "$tmp/pipe.data" --no-children
		check pipe-g-children "$tmp/pipe.data" --children
		check pipe-g-callee "$tmp/pipe.data" -g callee
		check pipe-g-none "$tmp/pipe.data" -g none
	fi
	# tracepoints alone: perf sorts by their output ("Trace output"); an
	# output perf never compared (a lone sample) is cut to the header
	if perf record -q -o "$tmp/tp.data" -g -e sched:sched_process_exec \
		-e sched:sched_process_exit -- sh -c 'ls / >/dev/null; sh -c true' \
		>/dev/null 2>&1; then
		check tp "$tmp/tp.data"
		check tp-self "$tmp/tp.data" --no-children -g none
		check tp-folded "$tmp/tp.data" --no-children -g folded
		check tp-trace-comm "$tmp/tp.data" --sort trace,comm -n
		check tp-comm "$tmp/tp.data" --sort comm,dso
	fi
	if perf record -q -o "$tmp/tp1.data" -g -e sched:sched_process_exec -- /bin/true \
		>/dev/null 2>&1; then
		check tp-lone "$tmp/tp1.data"
		check tp-lone-self "$tmp/tp1.data" --no-children
	fi
	check plain-trace "$p" --sort trace
	# the recorded command line, its single quotes escaped as perf prints
	# them
	if perf record -q -o "$tmp/quote.data" -e cpu-clock -- sh -c "echo 'quoted' >/dev/null" \
		>/dev/null 2>&1; then
		check header-quote "$tmp/quote.data" --header-only
	fi
	# --cpu and --time drop the other samples (totals too); perf's words
	# and statuses for what it cannot use
	check_all plain-cpu-none "$p" --cpu 0
	check_all time-bad "$p" --time bogus
	check_all time-bad-quiet "$p" --time bogus -q
	check time-slices "$g" --time 10%/2
	check time-span "$g" --time 0%-50% --no-children -g none
	if perf record -q -o "$tmp/cpu.data" --sample-cpu -g -e cpu-clock -F 2000 \
		-- sh -c "$work" >/dev/null 2>&1; then
		check cpu "$tmp/cpu.data" --cpu 0
		check cpu-list "$tmp/cpu.data" -C 0-1 --no-children
		check cpu-time "$tmp/cpu.data" --cpu 0 --time 10%/3 -g none
		check_all cpu-too-large "$tmp/cpu.data" --cpu 64
		check_all cpu-bad-list "$tmp/cpu.data" --cpu x -q
	fi
fi

# C++ names: demangled by default, kept with --no-demangle
cxx=$(command -v g++ || command -v clang++ || true)
src=$(dirname "$0")/progs
if [ -n "$cxx" ] && $cxx -O1 -o "$tmp/shapes" "$src/cxx_shapes.cpp" 2>/dev/null &&
	perf record -q -o "$tmp/cxx.data" -e cpu-clock -F 2000 -- "$tmp/shapes" >/dev/null 2>&1; then
	check demangle "$tmp/cxx.data" --demangle
	check no-demangle "$tmp/cxx.data" --no-demangle
	check no-demangle-sym "$tmp/cxx.data" --no-demangle --sort sym -t ,
fi
echo "$same reports identical to perf ($lines lines)"
[ "$same" -gt 10 ] || fail=1
exit $fail
