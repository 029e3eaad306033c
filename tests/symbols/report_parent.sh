#!/bin/sh
# perf report's parent key and the options around it, against perf on a
# recording made here of progs/parent_calls.c (a hot function reached
# through sys_fake, outer and work):
# - -p REGEX: the first callchain frame matching, walked from the
#   outermost caller when the call graph is in caller order (the children
#   default, -G, -g caller) and from the sample otherwise; its column
#   "Parent symbol", "[other]" for none; --sort parent with perf's default
#   pattern (^sys_|^do_page_fault)
# - -x: entries without a parent hidden as filtered ones (all of them
#   without the parent key)
# - --ignore-callees REGEX: the last frame matching in that walk (and not
#   the parent) takes the sample's place, its callees left out of the
#   chain; only where perf reads the chain (not --no-children -g none)
# - -s time with --time-quantum (default 100ms) and --ns: the sample's time
#   rounded down, unpadded when last; with children, as perf, a callchain
#   entry under the time key adds the sample once per frame (its check for
#   entries already added compares no time)
# shellcheck source=SCRIPTDIR/compare_lib.sh
. "$PERFKIT_SRC/tests/symbols/compare_lib.sh"
cc=$(command -v cc || command -v gcc || command -v clang) || { echo "no C compiler"; exit 77; }
src=${PERFKIT_SRC:-$(dirname "$0")/../..}/tests/symbols/progs
$cc -O0 -g -fno-omit-frame-pointer -o "$tmp/pc" "$src/parent_calls.c" ||
	{ echo "cannot build"; exit 77; }
perf record -q -g -e cpu-clock -F 4000 -o "$tmp/pc.data" -- "$tmp/pc" >/dev/null 2>&1 ||
	{ echo "perf record not permitted"; exit 77; }
f=$tmp/pc.data
n=0
run() { # label args...
	check_report "$@"
	n=$((n + 1))
}
for a in "-p sys_fake" "-p sys_fake --no-children" "-p sys_fake -g none" \
	"-p sys_fake|outer" "-p sys_fake|outer --no-children" \
	"-p sys_fake|outer --no-children -g caller" "-p sys_fake|outer -G -g none" \
	"-p sys_fake|outer -g callee" "-p ^read|fdget -g callee" "-p sys_fake -n -s sym" \
	"-s parent -g none --no-children" "-s sym,parent -g none" "-s parent,sym --no-children"; do
	# shellcheck disable=SC2086 # a is words
	run parent "$f" $a
done
for a in "-p sys_fake -x" "-p sys_fake -x --no-children" "-p sys_fake|outer -x -g none" \
	"-p sys_fake -x --percentage relative -g none" "-s parent -x"; do
	# shellcheck disable=SC2086
	run exclude-other "$f" $a
done
for a in "--ignore-callees spin --no-children" "--ignore-callees sys_fake --no-children" \
	"--ignore-callees sys_fake" "--ignore-callees sys_fake|outer --no-children" \
	"--ignore-callees sys_fake|outer -G --no-children" "--ignore-callees sys_fake|outer" \
	"--ignore-callees sys_fake -g none" "--ignore-callees sys_fake --no-children -g none" \
	"--ignore-callees vfs_read|outer -g callee" "--ignore-callees vfs_read|outer -p sys_fake|work" \
	"--ignore-callees sys_fake|outer -p sys_fake --no-children" \
	"--ignore-callees ^do_sys -g folded --no-children" "--ignore-callees ksys_read -s sym"; do
	# shellcheck disable=SC2086
	run ignore-callees "$f" $a
done
for a in "-s time -g none" "-s time" "-s time --no-children" \
	"-s time,sym --time-quantum 10ms --ns --no-children" \
	"-s time,sym --time-quantum 10ms --no-children -g none" \
	"-s sym,time --time-quantum 50000000 -g none" "-s time,comm --time-quantum 1s --ns" \
	"-s time -n --time-quantum 20ms -g caller" \
	"-s comm,dso,sym,time --time-quantum 200ms --no-children -g none" \
	"-s time,dso -x -p sys_fake" "-s time --ns --time-quantum 30ms -g folded --no-children" \
	"-F overhead,time,sym --time-quantum 300ms -g none"; do
	# shellcheck disable=SC2086
	run time "$f" $a
done
# --max-stack keeps the frames of the order the parent is looked for in
for a in "-p sys_fake --max-stack 2 --no-children -g none" "-p sys_fake --max-stack 2 -g none" \
	"-p sys_fake|outer --max-stack 3 -G -g none" "--ignore-callees sys_fake --max-stack 2"; do
	# shellcheck disable=SC2086
	run max-stack "$f" $a
done
# refused in one line: -F with -p, and -F parent without it
for a in "-F overhead,sym -p sys_fake" "-F parent,overhead"; do
	# shellcheck disable=SC2086
	"$PERFKIT" report -i "$f" --stdio $a >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ $st -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
		same=$((same + 1))
	else
		echo "FAIL refused $a: status $st"
		fail=1
	fi
	n=$((n + 1))
done
# -x alone: perf hides every entry (nothing has a parent)
cmp_allow_empty=1
run exclude-other-alone "$f" -x -g none --no-children
cmp_allow_empty=0
cmp_finish "outputs identical to perf" $n
