#!/bin/sh
# perfkit report against perf report --stdio, byte for byte, on files
# written by gen_replay_records: callchains with garbage frames in no map,
# the same on every run (a fixed seed), where perf's lookups of unresolved
# symbols miss their entries (addresses 2^63 or more apart compare by a
# wrapped signed difference), creating duplicates or landing in another
# entry, as perfkit's replay must reproduce.  Files: one comm turning wide
# mid-file (late), a wide and a calm comm (comms), kernel frames in no map
# mixed with user garbage (kernel), two events (events).  Frames also
# resolve in the generator's own executable, mapped into every process.
# perf's random "# (Tip: ...)" line is dropped before comparing.
# Views: the default ones, where the comm key makes perf merge its
# duplicates again (collapse), and those without the comm key (--sort
# dso,sym and sym), or with it from -F alone (perf collapses only for a
# comm key of --sort), where they stay; and higher limits of the call graph,
# which leave more entries without a tree to draw (merged ones keep
# theirs).  Where perf's lookups split an unresolved entry in two, the
# samples perfkit moves out of an entry's tree leave nodes without samples
# behind, which perf never had: a branch must still go on through them as
# perf's does ("main", not "--0.70%--main").
#	report_replay_gen.sh GEN_REPLAY_RECORDS
# shellcheck source=SCRIPTDIR/compare_lib.sh
. "$PERFKIT_SRC/tests/symbols/compare_lib.sh"
gen=$1

n=0
for m in late comms kernel events; do
	"$gen" "$m" "$tmp/$m.data" "$gen"
	case $? in
	0) ;;
	77) echo "no symbols in $gen to resolve frames in"; exit 77 ;;
	*) echo "FAIL: gen_replay_records $m"; exit 1 ;;
	esac
	for o in "" "--no-children" "-g none" "--no-children -g none" "--sort dso,sym" \
		"--sort comm,dso,sym -g caller" "--sort sym" "--no-children --sort dso,sym" \
		"--no-children --sort sym -g none" "-g graph,5" "-g graph,20" "-g flat,10" \
		"-F overhead,comm,dso,sym" "-F overhead,comm,dso,sym -g none" \
		"-F overhead,dso,sym --sort comm -g none"; do
		# shellcheck disable=SC2086 # o is words or none
		check_report "$m" "$tmp/$m.data" $o
		n=$((n + 1))
	done
done
cmp_finish "views identical to perf" "$n"
