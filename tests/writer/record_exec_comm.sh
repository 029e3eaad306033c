#!/bin/bash
# -a and -C recordings of a command: until its exec the command is
# "perf-exec", synthesized from /proc with its maps as perf does, so samples
# taken before the exec are shown under that name, never as ":PID".
set -u
PERF=${PERF:-perf}
command -v "$PERF" >/dev/null || { echo "perf not installed: skip"; exit 77; }
PK=${PERFKIT:?}
T=$(mktemp -d /tmp/pk-record-comm.XXXXXX)
trap 'rm -rf "$T"' EXIT
failed=0
cp "$(command -v sleep)" "$T/execprobe" # a name no other task has

# "COMM-before-exec NAME-after" for the command (the task whose COMM exec is
# NAME) in TOOL's -a/-C recording
names() {
	local tool=$1 target=$2 pid
	"$tool" record -q -e cpu-clock $target -o "$T/c.data" -- taskset -c 0 "$T/execprobe" 0.2 \
		2>/dev/null
	"$PERF" script --show-task-events -i "$T/c.data" >"$T/ev" 2>/dev/null
	pid=$(awk '/PERF_RECORD_COMM exec: execprobe:/ {print $2; exit}' "$T/ev")
	[ -n "$pid" ] || { echo "no-exec"; return; }
	first=$(awk -v p="$pid" '/PERF_RECORD_COMM/ && $NF ~ ":" p "/" p "$" {
		sub(":.*", "", $NF); print $NF; exit}' "$T/ev")
	mmaps=$("$PERF" script --show-mmap-events -i "$T/c.data" 2>/dev/null |
		grep -c " 0.000000: PERF_RECORD_MMAP2* $pid/$pid: ")
	echo "${first:-none} maps:$([ "$mmaps" -gt 0 ] && echo yes || echo no)"
}

for target in "-a" "-C 0"; do
	want=$(names "$PERF" "$target")
	got=$(names "$PK" "$target")
	if [ "$want" = "$got" ]; then
		echo "ok: $target: the command before exec: $got, as with perf"
	else
		echo "FAIL: $target: the command before exec: perfkit '$got', perf '$want'"
		failed=1
	fi
done
exit $failed
