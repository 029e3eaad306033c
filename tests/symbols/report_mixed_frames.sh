#!/bin/sh
# perfkit report against perf report --stdio, byte for byte, on the file
# gen_replay_records writes in mode aslr: processes of one comm with the
# same executable at other addresses, their frames in its functions or in
# its header page (in no symbol).  perf's call trees compare frames of one
# DSO by symbol start when both have a symbol, else by address, so a
# node's lookup of its children can pass by the child of the same
# function (made by another process, at another address) and add a second
# one: perfkit's trees must hold the same children.  Views: sort keys
# without the symbol, where the processes' chains share entries, in both
# orders of the call graph, and with the symbol.
#	report_mixed_frames.sh GEN_REPLAY_RECORDS
# shellcheck source=SCRIPTDIR/compare_lib.sh
. "$PERFKIT_SRC/tests/symbols/compare_lib.sh"
gen=$1

"$gen" aslr "$tmp/aslr.data" "$gen"
case $? in
0) ;;
77) echo "no position-independent executable with symbols: $gen"; exit 77 ;;
*) echo "FAIL: gen_replay_records aslr"; exit 1 ;;
esac
n=0
for o in "" "--no-children" "--sort comm,dso" "--sort dso" "--sort comm -g caller" \
	"--no-children --sort dso -g caller" "--no-children --sort comm -g callee" \
	"--sort dso,sym" "--sort comm,dso -g graph,0.1" "--no-children --sort dso -g folded" \
	"--no-children --sort dso -g folded,0,caller"; do
	# shellcheck disable=SC2086 # o is words or none
	check_report "aslr" "$tmp/aslr.data" $o
	n=$((n + 1))
done
# perf's tree has two children of one function at its root (where every
# chain's outermost frame goes), or the file tests nothing
perf report --stdio -i "$tmp/aslr.data" --sort dso 2>/dev/null |
	awk '/^             ?[|]?--[0-9.]+%--/ {
		name = $0; sub(/^.*%--/, "", name); if (seen[name]++) dup = 1 }
		END { exit !dup }' ||
	{ echo "FAIL: no node of perf's has two children of one function"; fail=1; }
cmp_finish "views identical to perf" "$n"
