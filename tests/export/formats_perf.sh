#!/bin/sh
# Every format from a recording made now: well-formed JSON / XML whose
# sample counts add up to the recording's, chrome with one event per
# sample, gecko per thread; bad input and options give one line and a
# non-zero exit; corpus files never crash the exporters.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "no python3"
record_workload "$tmp/perf.data"
n=$(perf script -i "$tmp/perf.data" -F comm 2>/dev/null | wc -l)
[ "$n" -gt 0 ] || fail "no samples recorded"

for f in speedscope gecko chrome flamegraph; do
	"$PERFKIT" convert -i "$tmp/perf.data" --to $f -o "$tmp/out.$f" || fail "convert --to $f"
done
python3 - "$tmp" "$n" <<'EOP' || fail "format checks"
import json, sys, xml.dom.minidom
tmp, n = sys.argv[1], int(sys.argv[2])
def check(cond, what):
    if not cond:
        print('FAIL:', what); sys.exit(1)
s = json.load(open(tmp + '/out.speedscope'))
check(sum(sum(p['weights']) for p in s['profiles']) == n, 'speedscope weights != samples')
nf = len(s['shared']['frames'])
check(all(0 <= i < nf for p in s['profiles'] for st in p['samples'] for i in st), 'frame index')
g = json.load(open(tmp + '/out.gecko'))
check(g['meta']['version'] == 24, 'gecko version')
tot = 0
for t in g['threads']:
    ns, nfr = len(t['stackTable']['data']), len(t['frameTable']['data'])
    for pre, fr in t['stackTable']['data']:
        check(pre is None or pre < ns, 'gecko prefix') ; check(fr < nfr, 'gecko frame')
    times = [d[1] for d in t['samples']['data']]
    check(times == sorted(times), 'gecko samples out of time order')
    tot += len(times)
check(tot == n, 'gecko samples %d != %d' % (tot, n))
c = json.load(open(tmp + '/out.chrome'))
inst = [e for e in c['traceEvents'] if e['ph'] == 'i']
check(len(inst) == n, 'chrome sample events %d != %d' % (len(inst), n))
check(all(e['sf'] in c['stackFrames'] for e in inst if 'sf' in e), 'chrome stack frame ids')
names = {e['args']['name'] for e in c['traceEvents'] if e['ph'] == 'M' and e['name'] == 'thread_name'}
check('<i>"\'&;x</i>' in names, 'hostile comm not kept as a thread name: %r' % names)
doc = xml.dom.minidom.parse(tmp + '/out.flamegraph')
check(len(doc.getElementsByTagName('script')) == 1, 'svg has one script')
titles = [t.firstChild.data for t in doc.getElementsByTagName('title')]
check(any(t.startswith('<i>"\'&;x</i> (') for t in titles), 'hostile comm in svg titles')
print('ok: speedscope, gecko, chrome, flamegraph consistent with %d samples' % n)
EOP

# errors: one line, non-zero exit
"$PERFKIT" convert -i "$tmp/nonexistent.data" --to folded >/dev/null 2>"$tmp/err" && fail "missing input accepted"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "missing input: $(cat "$tmp/err")"
"$PERFKIT" convert -i "$tmp/perf.data" --to nope >/dev/null 2>"$tmp/err" && fail "bad format accepted"
if [ -c /dev/full ]; then
	"$PERFKIT" convert -i "$tmp/perf.data" --to folded -o /dev/full 2>/dev/null && fail "ENOSPC unnoticed"
	[ -c /dev/full ] || fail "a failed export removed an output it did not create"
fi
head -c 100 /dev/urandom >"$tmp/garbage.data"
"$PERFKIT" convert -i "$tmp/garbage.data" --to folded >/dev/null 2>&1 && fail "garbage accepted"

# the corpus: any result but a crash
for d in $(find "${PERFKIT_CORPUS:-/nonexistent}" -type f ! -name '*.md' 2>/dev/null); do
	for f in folded pprof gecko; do
		"$PERFKIT" convert -f -i "$d" --to $f -o "$tmp/c.out" 2>/dev/null
		rc=$?
		[ $rc -le 1 ] || fail "$d --to $f: exit $rc"
	done
done
echo "ok"
