#!/bin/sh
# perfkit list sdt against perf list sdt: the SDT events of the build-id
# cache that perf buildid-cache --add fills, in a fresh HOME.  Two binaries
# share two event names (perf then names the binary and build id) and one
# has an event of its own.
#	list_sdt.sh SDT_TARGET SDT_TARGET_EXTRA
set -u
command -v perf >/dev/null 2>&1 || { echo "no perf"; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
HOME=$TMP
export HOME
t1=$(realpath "$1")
t2=$(realpath "$2")
status=0
fail() { echo "FAIL: $*"; status=1; }

cmp_list() {
	perf list "$@" >"$TMP/perf" 2>/dev/null
	"$PERFKIT" list "$@" >"$TMP/kit" 2>&1 || fail "perfkit list $* failed"
	diff -u "$TMP/perf" "$TMP/kit" || fail "list $*"
}

cmp_list sdt
[ -s "$TMP/kit" ] && fail "empty cache lists: $(cat "$TMP/kit")"
perf buildid-cache --add "$t1" || { echo "perf buildid-cache --add failed"; exit 77; }
cmp_list sdt
grep -q '^  sdt_pkprov:start  ' "$TMP/kit" || fail "one binary: $(cat "$TMP/kit")"
perf buildid-cache --add "$t2" || fail "perf buildid-cache --add $t2"
cmp_list sdt
grep -q '^  sdt_pkprov:start@/.*([0-9a-f]\{12\}) ' "$TMP/kit" || fail "no detail: $(cat "$TMP/kit")"
grep -q '^  sdt_extra:only_here  ' "$TMP/kit" || fail "unique name: $(cat "$TMP/kit")"
cmp_list 'sdt_pkprov:*'
# a link left dangling is not listed
[ -d "$TMP/.debug$t2" ] || fail "no cache directory for $t2"
rm -rf "$TMP/.debug$t2"
cmp_list sdt
grep -q only_here "$TMP/kit" && fail "dangling entry listed"
# metrics: refused, one line, non-zero
if "$PERFKIT" list metric >"$TMP/out" 2>&1; then fail "list metric exits 0"; fi
[ "$(wc -l <"$TMP/out")" = 1 ] || fail "list metric: $(cat "$TMP/out")"
if "$PERFKIT" list metricgroup >/dev/null 2>&1; then fail "list metricgroup exits 0"; fi
[ $status = 0 ] && echo ok
exit $status
