#!/bin/sh
# The memory columns of perfkit script (addr, data_src, weight, ins_lat,
# phys_addr, data_page_size, code_page_size) against perf script, byte for
# byte: the corpus file with WEIGHT_STRUCT, files written by
# gen_script_records with hundreds of data_src values (this VM has no PMU to
# record memory samples), and a live page-fault recording with those
# sample bits.  perf is run at test time.
#	script_mem.sh GEN_SCRIPT_RECORDS
set -u
command -v perf >/dev/null 2>&1 || { echo "perf not installed"; exit 77; }
gen=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

check() { # name file args...
	name=$1 file=$2
	shift 2
	perf script -f -i "$file" "$@" >"$tmp/perf.out" 2>/dev/null
	"$PERFKIT" script -f -i "$file" "$@" >"$tmp/pk.out" 2>"$tmp/pk.err"
	if [ ! -s "$tmp/perf.out" ]; then
		echo "FAIL $name: perf printed nothing"
		fail=1
	elif cmp -s "$tmp/perf.out" "$tmp/pk.out"; then
		echo "ok   $name ($(wc -l <"$tmp/perf.out") lines)"
	else
		echo "FAIL $name"
		diff "$tmp/perf.out" "$tmp/pk.out" | head -10
		cat "$tmp/pk.err"
		fail=1
	fi
}

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
exit $fail
