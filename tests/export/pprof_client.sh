#!/bin/sh
# The pprof file, decoded by a real client (npm pprof-format; go tool pprof
# too when Go is installed): its per-event totals equal the sample counts
# that perfkit report prints, for a recording and for the fixture.
. "$(dirname "$0")/lib.sh"
need_node_module pprof-format
record_workload "$tmp/perf.data"

"$PERFKIT" convert -i "$tmp/perf.data" --to pprof -o "$tmp/p.pb.gz" || fail "convert failed"
node "$SRC/tests/export/pprof_check.cjs" "$tmp/p.pb.gz" >"$tmp/totals" || fail "pprof-format rejected it"
cat "$tmp/totals"
# perfkit report --stats: "EVENT stats:" sections, or one aggregate
report_samples() {
	"$PERFKIT" report --stats -f -i "$1" | awk -v only="$2" '
		/ stats:$/ && $1 != "Aggregated" { name = $1 }
		/SAMPLE events:/ { if (name != "") per[name] = $3; else all = $3 }
		END { n = 0; for (k in per) { print k, per[k]; n++ } if (!n) print only, all }' |
		sort
}
grep -v '^#' "$tmp/totals" | sort >"$tmp/ours"
report_samples "$tmp/perf.data" cpu-clock | diff -u - "$tmp/ours" ||
	fail "pprof totals differ from perfkit report"
grep -q 'with build id [1-9]' "$tmp/totals" || fail "no mapping carries a build id"

# several events (perf 3.4, hardware and software)
hs=${PERFKIT_CORPUS:-/nonexistent}/quipper/perf.data.hw_and_sw-3.4
if [ -f "$hs" ]; then
	"$PERFKIT" convert -f -i "$hs" --to pprof -o "$tmp/hs.pb.gz" || fail "convert $hs"
	node "$SRC/tests/export/pprof_check.cjs" "$tmp/hs.pb.gz" | grep -v '^#' | sort >"$tmp/hs"
	[ "$(wc -l <"$tmp/hs")" -eq 2 ] || fail "$hs: want 2 sample types: $(cat "$tmp/hs")"
	report_samples "$hs" - | diff -u - "$tmp/hs" || fail "$hs: totals differ from perfkit report"
fi

"$FIXTURE" pprof >"$tmp/f.pb.gz" || fail "fixture export failed"
node "$SRC/tests/export/pprof_check.cjs" "$tmp/f.pb.gz" | grep -v '^#' >"$tmp/ftotals"
printf 'cpu-clock 12\npage-faults 1\n' | diff -u - "$tmp/ftotals" || fail "fixture totals"

if command -v go >/dev/null 2>&1; then
	go tool pprof -raw "$tmp/p.pb.gz" >"$tmp/raw" 2>&1 || fail "go tool pprof: $(head -n 3 "$tmp/raw")"
fi
echo "ok: pprof decoded, totals equal perfkit report's"
