#!/bin/sh
# The memory columns of perfkit script (addr, data_src, weight, ins_lat,
# phys_addr, data_page_size, code_page_size) against perf script, byte for
# byte: the corpus file with WEIGHT_STRUCT, files written by
# gen_script_records with hundreds of data_src values (this VM has no PMU to
# record memory samples), and a live page-fault recording with those
# sample bits.  perf is run at test time.
#	script_mem.sh GEN_SCRIPT_RECORDS
cmp_opts=-f # perf script -f -i FILE ...: files of another user
# shellcheck source=SCRIPTDIR/compare_lib.sh
. "$PERFKIT_SRC/tests/symbols/compare_lib.sh"
gen=$1

check() { check_script "$@"; } # name file args...

ws="$PERFKIT_CORPUS/quipper/perf.data.weight_struct"
if [ -f "$ws" ]; then
	check weight_struct "$ws"
	check weight_struct-fields "$ws" -F comm,tid,addr,data_src,weight,ins_lat,ip
fi

"$gen" mem "$tmp/mem.data" && "$gen" weight "$tmp/weight.data" || {
	echo "FAIL: gen_script_records"
	exit 1
}
check mem "$tmp/mem.data"
check mem-ns "$tmp/mem.data" --ns
check mem-fields "$tmp/mem.data" -F comm,data_src,phys_addr,data_page_size,code_page_size
check mem-minus "$tmp/mem.data" -F -weight,-ins_lat,-addr
check mem-raw "$tmp/mem.data" -F raw:comm,tid,weight,ins_lat,ip,sym
check weight "$tmp/weight.data"
check weight-fields "$tmp/weight.data" -F comm,cpu,weight,data_src

# software events have none of these columns by default
work='ls -R /usr/lib >/dev/null 2>&1'
if perf record -q -o "$tmp/pf.data" -e page-faults -c 1 -d --data-page-size --code-page-size \
	-W -- sh -c "$work" >/dev/null 2>&1; then
	check pf "$tmp/pf.data"
	check pf-mem "$tmp/pf.data" -F +data_src,+weight,+ins_lat,+data_page_size,+code_page_size
	check pf-addr-dso "$tmp/pf.data" -F comm,tid,addr,dso,ip
else
	echo "skip live page faults: perf record not permitted"
fi
# A C program that does nothing faults once in its data, at exit, where
# crtstuff's completed.0 (local, size 1) and __TMC_END__ (global, size 0)
# share an address: perf names __TMC_END__ (ends fixed before aliases go).
cc=$(command -v cc || command -v gcc)
if [ -n "$cc" ] && printf 'int main(void) { return 0; }\n' >"$tmp/nothing.c" &&
	"$cc" -O2 -o "$tmp/nothing" "$tmp/nothing.c" &&
	perf record -q -o "$tmp/nothing.data" -e page-faults -c 1 -d -- "$tmp/nothing" \
		>/dev/null 2>&1; then
	check nothing-addr "$tmp/nothing.data" -F +addr
	grep -q '__TMC_END__' "$tmp/perf" ||
		echo "note: no fault at __TMC_END__ in this build of the program"
fi
cmp_finish "outputs identical to perf script"
