#!/bin/sh
# perfkit convert --to folded against stackcollapse's rule (collapse.py)
# applied to `perf script` of the same recording, made now.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "no python3"
record_workload "$tmp/perf.data"

perf script -i "$tmp/perf.data" 2>/dev/null | python3 "$SRC/tests/export/collapse.py" >"$tmp/want"
"$PERFKIT" convert -i "$tmp/perf.data" --to folded -o "$tmp/got" || fail "convert failed"
[ -s "$tmp/want" ] || fail "perf script gave no stacks"
grep -q ';leaf_a ' "$tmp/got" || fail "no leaf_a stack in: $(head -n 3 "$tmp/got")"
grep -q "^<i>\"'&:x</i>;" "$tmp/got" || grep -q "^<i>\"'&;x</i>;" "$tmp/got" ||
	fail "no stack under the hostile comm"
diff -u "$tmp/want" "$tmp/got" || fail "folded output differs from perf script + stackcollapse"

# -o - writes the same to standard output
"$PERFKIT" convert -i "$tmp/perf.data" --to folded -o - | cmp -s - "$tmp/got" ||
	fail "-o - differs from -o FILE"
echo "ok: $(wc -l <"$tmp/got") folded stacks identical to perf script + stackcollapse"

# a corpus recording with callchains (perf 3.8), same comparison
cg=${PERFKIT_CORPUS:-/nonexistent}/quipper/perf.data.callgraph-3.8
if [ -f "$cg" ]; then
	perf script -i "$cg" 2>/dev/null | python3 "$SRC/tests/export/collapse.py" >"$tmp/cwant"
	"$PERFKIT" convert -f -i "$cg" --to folded -o "$tmp/cgot" || fail "convert $cg"
	[ -s "$tmp/cwant" ] || fail "perf script gave no stacks for $cg"
	diff -u "$tmp/cwant" "$tmp/cgot" >"$tmp/cdiff" || fail "$cg: $(head -n 20 "$tmp/cdiff")"
	echo "ok: $cg: $(wc -l <"$tmp/cgot") stacks identical"
fi
