#!/bin/sh
# The HTML report (perfkit report --html) in headless Chromium: no console
# errors, no network, the hottest function on top, search highlights a
# frame; and the flame graph SVG opens the same way.  With the fixture,
# hostile names must stay text.
. "$(dirname "$0")/lib.sh"
need_node_module playwright-core
need_chromium
"$FIXTURE" html >"$tmp/fixture.html"
rc=$?
[ $rc -eq 77 ] && skip "this build has no web bundle (scripts/build-web.sh)"
[ $rc -eq 0 ] || fail "fixture export failed"
record_workload "$tmp/perf.data"
"$PERFKIT" report --html -i "$tmp/perf.data" -o "$tmp/report.html" || fail "report --html failed"
node "$SRC/tests/export/html_check.cjs" "$tmp/fixture.html" hot "$tmp/report.html" leaf_a ||
	fail "HTML reports"
"$PERFKIT" convert -i "$tmp/perf.data" --to html -o - | cmp -s - "$tmp/report.html" ||
	fail "convert --to html differs from report --html"

"$FIXTURE" flamegraph >"$tmp/fixture.svg" || fail "fixture svg"
node "$SRC/tests/export/svg_check.cjs" "$tmp/fixture.svg" hot || fail "flame graph svg"
