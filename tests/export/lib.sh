# Shared by the export interop tests (sourced).  $1 of every test is the
# export-fixture program; PERFKIT, PERFKIT_SRC come from tests/meson.build.
set -u
skip() {
	echo "SKIP: $*"
	exit 77
}
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
FIXTURE=${1:-}
SRC=${PERFKIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
: "${PERFKIT:?PERFKIT must name the perfkit binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A small workload with known hot functions, under a hostile comm for its
# second half: perf -g -e cpu-clock records it into $1.
record_workload() {
	command -v perf >/dev/null 2>&1 || skip "no perf"
	command -v cc >/dev/null 2>&1 || skip "no C compiler for the workload"
	cat >"$tmp/work.c" <<'EOC'
#include <sys/prctl.h>
volatile unsigned long sink;
__attribute__((noinline)) void leaf_a(void) { for (int i = 0; i < 30000000; i++) sink += i; }
__attribute__((noinline)) void leaf_b(void) { for (int i = 0; i < 10000000; i++) sink ^= i; }
__attribute__((noinline)) void mid(void) { leaf_a(); leaf_b(); }
int main(void)
{
	mid();
	prctl(PR_SET_NAME, "<i>\"'&;x</i>", 0, 0, 0);
	mid();
	return 0;
}
EOC
	cc -O1 -fno-omit-frame-pointer -o "$tmp/work" "$tmp/work.c" || skip "cannot build the workload"
	perf record -q -g -e cpu-clock -o "$1" -- "$tmp/work" >/dev/null 2>"$tmp/record.err" ||
		skip "perf record failed: $(head -n 1 "$tmp/record.err")"
}

need_node_module() {
	command -v node >/dev/null 2>&1 || skip "no node"
	[ -d "$SRC/web/node_modules/$1" ] || skip "web/node_modules/$1 missing: run scripts/build-web.sh"
}

need_chromium() {
	CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
	[ -n "$CHROMIUM" ] || skip "no chromium"
	export CHROMIUM
}
