#!/bin/sh
# The README's main job: build perfkit, profile the bundled demo workload
# (demo/perfkit-demo: main -> work_a / work_b / work_c in known shares),
# and show what was captured.
set -eu
cd "$(dirname "$0")/.."
[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build >/dev/null
pk=build/src/cli/perfkit
out=${TMPDIR:-/tmp}/perfkit-demo.data

echo "== perfkit record -g -o $out -- build/demo/perfkit-demo"
"$pk" record -g -o "$out" -- build/demo/perfkit-demo
echo
echo "== perfkit report --stats"
"$pk" report --stats -i "$out"
echo
echo "== perfkit report --stdio --no-children"
"$pk" report --stdio --no-children -i "$out" 2>/dev/null | head -40 ||
	"$pk" report --header-only -i "$out"
html=${TMPDIR:-/tmp}/perfkit-demo.html
if "$pk" report --html -i "$out" -o "$html" 2>/dev/null; then
	echo
	echo "== an offline HTML report (flame graph, callers, timeline): $html"
fi
