#!/bin/sh
# speedscope's own importer (npm speedscope, in headless Chromium) accepts
# our files: a recording made now and the fixture with hostile names.
. "$(dirname "$0")/lib.sh"
need_node_module speedscope
need_node_module playwright-core
need_chromium

"$FIXTURE" speedscope >"$tmp/fixture.json" || fail "fixture export failed"
record_workload "$tmp/perf.data"
"$PERFKIT" convert -i "$tmp/perf.data" --to speedscope -o "$tmp/rec.json" || fail "convert failed"
node "$SRC/tests/export/speedscope_check.cjs" "$tmp/fixture.json" fixture.data \
	"$tmp/rec.json" perf.data || fail "speedscope did not import our files"
