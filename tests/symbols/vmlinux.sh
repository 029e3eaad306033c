#!/bin/sh
# -k/--vmlinux FILE for report, script and convert, against perf 6.1 on a
# recording with kernel frames.  There is no vmlinux on a test machine: one
# is made from /proc/kallsyms and the running kernel's notes
# (fake_vmlinux.py), its names given a "_vm" suffix so that they cannot
# come from kallsyms.  Cases:
# - the image as linked where the kernel ran, and linked 2 MiB lower (the
#   recorded _text moves its symbols: KASLR);
# - an image with another build id, and a file that is not ELF: the kernel
#   has no symbols at all (addresses, [unknown]), no fallback on kallsyms;
# - --kallsyms and --ignore-vmlinux win over -k;
# - a relative -k is read under --symfs;
# - an image whose .text stops short: addresses past it are in no map.
# The kernel DSO keeps perf's name [kernel.kallsyms].  Runs in a directory
# with no file named vmlinux (perf would look at ./vmlinux).
# shellcheck source=SCRIPTDIR/compare_lib.sh
. "$PERFKIT_SRC/tests/symbols/compare_lib.sh"
gen=$PERFKIT_SRC/tests/symbols/fake_vmlinux.py
command -v python3 >/dev/null || { echo "no python3"; exit 77; }
stext=$(awk '$3 == "_stext" { print $1; exit }' /proc/kallsyms)
case $stext in
'' | *[!0]*) ;;
*) echo "kernel addresses hidden in /proc/kallsyms"; exit 77 ;;
esac
[ -n "$stext" ] || { echo "no _stext in /proc/kallsyms"; exit 77; }
cd "$tmp" || exit 1
perf record -q -g -e cpu-clock -F 4000 -o k.data -- \
	dd if=/dev/zero of=/dev/null bs=4k count=200000 >/dev/null 2>&1 ||
	{ echo "perf record not permitted"; exit 77; }
perf script -i k.data -F ip,dso 2>/dev/null | grep -q 'kernel\.kallsyms' ||
	{ echo "no kernel samples recorded"; exit 77; }

# the kernel's text symbols, renamed but for _text and _stext (the image's
# start, and the reference symbol the recording names)
awk 'NF == 3 && $2 ~ /^[tTwW]$/ && $3 != "_text" && $3 != "_stext" { $3 = $3 "_vm" }
	{ print }' /proc/kallsyms >ksyms
python3 "$gen" ksyms /sys/kernel/notes vm.here || { echo "FAIL: fake_vmlinux.py"; exit 1; }
python3 "$gen" ksyms /sys/kernel/notes vm.low 200000 || exit 1
bid=$(perf buildid-list -i k.data 2>/dev/null | awk '$2 == "[kernel.kallsyms]" { print $1 }')
[ -n "$bid" ] || { echo "FAIL: no kernel build id recorded"; exit 1; }
other=$(echo "$bid" | tr 0-9a-f 1-9a-f0)
python3 "$gen" ksyms /sys/kernel/notes vm.other 200000 "$other" || exit 1
# an image whose .text ends early: past it perf's kernel map ends too
awk 'NF == 3 && $2 ~ /^[tTwW]$/ && ++n > 20000 { next } { print }' ksyms >ksyms.cut
python3 "$gen" ksyms.cut /sys/kernel/notes vm.cut || exit 1
echo "not an ELF file" >notelf
# perf wants a relative -k to name a file here, then reads it under --symfs
mkdir -p root/boot boot && cp vm.low root/boot/vmlinux && cp notelf boot/vmlinux

for f in vm.here vm.low vm.other notelf; do
	check_report "$f" k.data -k "$f"
	check_report "$f-flat" k.data --vmlinux "$f" -g none
	check_script "$f" k.data -k "$f"
done
# (script only: perf report resolves the first kernel address before it
# reads the image, in the recorded map, and perfkit does not copy that)
check_script cut k.data -k vm.cut
check_report kallsyms-wins k.data -k vm.other --kallsyms /proc/kallsyms -g none
check_report ignore-vmlinux k.data -k notelf --ignore-vmlinux -g none
# (the kernel only: with --symfs, user-space names are another matter)
check_report symfs k.data --symfs root -k boot/vmlinux -g none --no-children \
	--dsos '[kernel.kallsyms]'

# system wide (every task's kernel frames, idle included), when allowed
if perf record -q -a -g -e cpu-clock -F 1000 -o a.data -- \
	dd if=/dev/zero of=/dev/null bs=4k count=50000 >/dev/null 2>&1; then
	check_report all-cpus a.data -k vm.low
	check_script all-cpus a.data -k vm.low
	check_script all-cpus-other a.data -k vm.other
else
	echo "skip all-cpus: perf record -a not permitted"
fi

# the checks above pass only when the image was read: names from it show
"$PERFKIT" script -i k.data -k vm.here -F ip,sym 2>/dev/null | grep -q '_vm$' ||
	{ echo "FAIL: no name of the image in script -k"; fail=1; }
"$PERFKIT" script -i k.data -k vm.low -F ip,sym 2>/dev/null | grep -q '_vm$' ||
	{ echo "FAIL: relocated image gives no names"; fail=1; }
"$PERFKIT" script -i k.data -k vm.other -F ip,sym,dso 2>/dev/null | grep -q '_vm$' &&
	{ echo "FAIL: an image with another build id was used"; fail=1; }
# perfkit's hint on stderr blames the image, not kallsyms
"$PERFKIT" report -i k.data --stdio -k vm.other 2>&1 >/dev/null |
	grep -q 'the kernel.*the vmlinux given with -k is not used' ||
	{ echo "FAIL: no hint about the unused image"; fail=1; }

# convert: the same symbols
"$PERFKIT" convert -i k.data --to folded -k vm.low >conv.low 2>/dev/null
grep -q '_vm' conv.low || { echo "FAIL: convert -k: no name of the image"; fail=1; }
"$PERFKIT" convert -i k.data --to folded -k notelf >conv.notelf 2>/dev/null
if [ ! -s conv.notelf ] || grep -q '_vm' conv.notelf; then
	echo "FAIL: convert -k notelf"
	fail=1
fi
cmp_finish "outputs identical to perf"
