# shellcheck shell=sh
# Shared setup of the build-id cache shell tests.  Sourced, not run.
# Skips (77) without perf or a C compiler; makes $tmp (removed on exit),
# a fresh HOME in it (perf and perfkit both keep their cache there), and
# compiles the workload as $tmp/prog.  rec_pk NAME ARGS / rec_perf NAME
# ARGS record it into $tmp/NAME.data; report_names FILE prints the
# "dso symbol" pairs of perf report, sorted by overhead.
set -u
command -v perf >/dev/null 2>&1 || { echo "perf not installed"; exit 77; }
cc=$(command -v cc || command -v gcc) || { echo "no C compiler"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home"
mkdir -p "$HOME"
unset PERF_BUILDID_DIR
fail=0
$cc -O1 -g -fno-omit-frame-pointer -o "$tmp/prog" "$PERFKIT_SRC/tests/buildid/prog.c" ||
	{ echo "cannot build prog.c"; exit 77; }

rec_pk() {
	n=$1
	shift
	"$PERFKIT" record -q -e cpu-clock -F 2000 -o "$tmp/$n.data" "$@" >/dev/null 2>"$tmp/$n.err"
}

rec_perf() {
	n=$1
	shift
	perf record -q -e cpu-clock -F 2000 -o "$tmp/$n.data" "$@" >/dev/null 2>"$tmp/$n.err"
}

report_names() { # FILE [perf|perfkit]
	tool=${2:-perf}
	if [ "$tool" = perf ]; then
		perf report -i "$1" --stdio -q --sort dso,sym 2>/dev/null
	else
		"$PERFKIT" report -i "$1" --stdio -q --sort dso,sym 2>/dev/null
	fi | awk 'NF { $1 = ""; print }'
}

# shellcheck disable=SC2034 # fail is the sourcing test's status
bad() {
	echo "FAIL: $*"
	fail=1
}
