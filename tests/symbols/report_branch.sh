#!/bin/sh
# Branch-stack mode: perfkit report (branch mode by default, -b,
# --no-branch-stack, the branch sort keys, filters) and perfkit script's
# brstack/brstacksym fields against perf at test time, on the two corpus
# files with PERF_SAMPLE_BRANCH_STACK.  No live recording: perf record -b
# needs a PMU with a branch stack (LBR, BRBE), which VMs lack.
# perf 6.1 crashes on perf.data.branch-4.14 with any sort list naming
# symbol_from/symbol_to (its IPC column annotates); those views run on the
# other file only.
# shellcheck source=SCRIPTDIR/compare_lib.sh
. "$PERFKIT_SRC/tests/symbols/compare_lib.sh"
[ -d "${PERFKIT_CORPUS:-}" ] || { echo "FAIL: no corpus at ${PERFKIT_CORPUS:-}"; exit 1; }
q=$PERFKIT_CORPUS/quipper
lbr=$q/perf.data.branch-4.14
hwi=$q/perf.data.branch_stack_hw_index

report() { check_report "$(basename "$1")" "$@"; } # file args...
script() { check_script "$(basename "$1")" "$@"; } # file args...

for f in "$lbr" "$hwi"; do
	report "$f"
	report "$f" -b
	report "$f" --no-branch-stack
	report "$f" --no-children
	report "$f" -g none
	report "$f" --sort mispredict,in_tx,abort,cycles
	report "$f" --sort cycles,mispredict,abort,in_tx
	report "$f" --sort dso_from,dso_to
	report "$f" --sort dso_to,comm
	report "$f" --sort comm,dso,sym
	report "$f" --sort pid
	report "$f" --sort cpu,comm
	report "$f" --percent-limit 1
	report "$f" --comms echo,perf,chrome
	report "$f" --comms echo
	report "$f" --comms DedicatedWorker
	report "$f" --dsos ld-2.23.so,libc-2.33.so
	script "$f"
	script "$f" -F brstack
	script "$f" -F brstacksym
	script "$f" -F +brstack
	script "$f" -F +brstacksym
	script "$f" -F tid,ip,brstacksym,dso
done
report "$hwi" --sort symbol_from
report "$hwi" --sort symbol_to,dso_to
report "$hwi" --sort mispredict,symbol_from
report "$hwi" --sort comm,dso_from,symbol_from,symbol_to,cycles
cmp_finish "outputs identical to perf" 41
