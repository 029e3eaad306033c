#!/bin/sh
# debuginfod: a stripped program is recorded, its debug file (and, in one
# case, the binary too) is gone from the machine, and perfkit report and
# script must name its functions through a debuginfod server started here
# on 127.0.0.1, serving the files this test built.  The oracle is perf's
# output on the same recording with the unstripped binary in place (this
# perf has no debuginfod).  Without DEBUGINFOD_URLS the same runs must lack
# the names, so the checks cannot pass on local files.
# shellcheck source=SCRIPTDIR/compare_lib.sh
. "$PERFKIT_SRC/tests/symbols/compare_lib.sh"
[ "${PERFKIT_DEBUGINFOD:-0}" = 1 ] || { echo "perfkit built without libdebuginfod"; exit 77; }
command -v debuginfod >/dev/null 2>&1 ||
	{ echo "debuginfod not installed (Debian package debuginfod)"; exit 77; }
command -v cc >/dev/null 2>&1 || { echo "no C compiler"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "no python3"; exit 77; }
server= mute=
# the servers go with the test, however it ends
trap 'for p in $server $mute; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	rm -rf "$tmp"' EXIT
export HOME="$tmp/home"
mkdir -p "$HOME" "$tmp/srv" "$tmp/bin"
unset DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH PERF_BUILDID_DIR XDG_CACHE_HOME

cat >"$tmp/prog.c" <<'PROG'
#include <stdio.h>
__attribute__((noinline)) static unsigned long leaf_spin(unsigned long x)
{
	for (int i = 0; i < 3000; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	return x;
}
__attribute__((noinline)) unsigned long middle_hop(unsigned long x)
{
	return leaf_spin(x) ^ (x >> 3);
}
int main(void)
{
	unsigned long s = 0;
	for (int i = 0; i < 60000; i++)
		s += middle_hop((unsigned long)i);
	printf("%lu\n", s & 1);
	return 0;
}
PROG
# static: every frame is the program's, so whole outputs compare; the
# dynamic one (PIE) is compared in its own frames only (libc's are the
# business of the symbol search)
cc -O2 -g -fno-omit-frame-pointer -static -Wl,--build-id -o "$tmp/prog.full" "$tmp/prog.c" &&
	cc -O2 -g -fno-omit-frame-pointer -pie -fPIE -Wl,--build-id -o "$tmp/dyn.full" \
		"$tmp/prog.c" || { echo "cc failed"; exit 77; }
for p in prog dyn; do
	objcopy --only-keep-debug "$tmp/$p.full" "$tmp/srv/$p.debug" &&
		objcopy --strip-all "$tmp/$p.full" "$tmp/srv/$p" || { echo "objcopy failed"; exit 77; }
	cp "$tmp/srv/$p" "$tmp/bin/$p"
done
build_id() {
	python3 - "$1" <<'PY'
import subprocess, sys
out = subprocess.run(["readelf", "-n", sys.argv[1]], capture_output=True, text=True).stdout
print(next(l.split()[-1] for l in out.splitlines() if "Build ID" in l))
PY
}
bid=$(build_id "$tmp/prog.full") && dbid=$(build_id "$tmp/dyn.full") || { echo "no build id"; exit 77; }

# 200 from url within 30 s, while the server lives: 0; else 1
wait_for() {
	python3 - "$1" "$server" <<'PY'
import os, sys, time, urllib.request
url, pid = sys.argv[1], int(sys.argv[2])
end = time.time() + 30
while time.time() < end:
    try:
        os.kill(pid, 0)
    except OSError:
        sys.exit(1)
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            if r.status == 200:
                sys.exit(0)
    except Exception:
        pass
    time.sleep(0.1)
sys.exit(1)
PY
}

# a free port can be taken between asking and binding: try a few
for try in 1 2 3 4 5; do
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	rm -f "$tmp/db.sqlite"
	# -F: scan the directory's ELF files; -t 0/-g 0: one scan, no grooming
	debuginfod -F -p "$port" -d "$tmp/db.sqlite" -t 0 -g 0 "$tmp/srv" >"$tmp/server.log" 2>&1 &
	server=$!
	# the index is ready when the server hands out the debug file
	wait_for "http://127.0.0.1:$port/buildid/$bid/debuginfo" && break
	kill "$server" 2>/dev/null
	wait "$server" 2>/dev/null
	server=
done
[ -n "$server" ] || { echo "FAIL: debuginfod did not start or index"; tail -5 "$tmp/server.log"; exit 1; }
urls="http://127.0.0.1:$port"

perf record -N -q -g -e cpu-clock -F 2000 -o "$tmp/perf.data" -- "$tmp/bin/prog" >/dev/null 2>&1
[ -s "$tmp/perf.data" ] || { echo "perf record failed"; exit 77; }
perf record -N -q -g -e cpu-clock -F 2000 -o "$tmp/dyn.data" -- "$tmp/bin/dyn" >/dev/null 2>&1
"$PERFKIT" record -g -e cpu-clock -F 2000 -o "$tmp/pk.data" -- "$tmp/bin/prog" >/dev/null 2>&1 ||
	{ echo "FAIL: perfkit record failed"; exit 1; }

# perf's output with the unstripped binary in place
prog=prog
oracle() { # NAME KIND FILE ARGS...
	o_name=$1 o_kind=$2 o_file=$3
	shift 3
	cp "$tmp/$prog.full" "$tmp/bin/$prog"
	if [ "$o_kind" = report ]; then
		perf report --stdio -i "$o_file" "$@" 2>/dev/null | grep -v '^# (Tip:' >"$tmp/$o_name.perf"
	else
		perf script -i "$o_file" "$@" >"$tmp/$o_name.perf" 2>/dev/null
	fi
	cp "$tmp/srv/$prog" "$tmp/bin/$prog"
	grep -q leaf_spin "$tmp/$o_name.perf" || { echo "FAIL $o_name: perf names no leaf_spin"; fail=1; }
}

# perfkit's, stripped binary (or none) and a fresh debuginfod cache
run_pk() { # NAME URLS KIND FILE ARGS...
	r_name=$1 r_urls=$2 r_kind=$3 r_file=$4
	shift 4
	r_stdio=
	[ "$r_kind" = report ] && r_stdio=--stdio
	rm -rf "$HOME/.cache"
	# shellcheck disable=SC2086 # r_stdio is a word or none
	DEBUGINFOD_URLS=$r_urls "$PERFKIT" "$r_kind" -i "$r_file" $r_stdio "$@" \
		>"$tmp/$r_name.pk" 2>"$tmp/err"
}

judge() { # LABEL PERF PK: cmp_judge, counted (cmp_pass reads $tmp/perf)
	cp "$2" "$tmp/perf"
	cmp_judge "$@" && cmp_pass
}

check() { # NAME KIND FILE ARGS...: with the server equal, without it not
	c_name=$1 c_kind=$2 c_file=$3
	shift 3
	oracle "$c_name" "$c_kind" "$c_file" "$@"
	run_pk "$c_name" "$urls" "$c_kind" "$c_file" "$@"
	judge "$c_name: $c_kind $*" "$tmp/$c_name.perf" "$tmp/$c_name.pk"
	run_pk "$c_name.none" "" "$c_kind" "$c_file" "$@"
	if grep -q leaf_spin "$tmp/$c_name.none.pk"; then
		echo "FAIL $c_name: names leaf_spin without debuginfod"
		fail=1
	fi
}

# the binary is here, stripped: the debug file comes from the server
check stripped report "$tmp/perf.data"
check stripped-nochildren report "$tmp/perf.data" --no-children
check stripped-script script "$tmp/perf.data"
check perfkit-recorded report "$tmp/pk.data"
prog=dyn
check dynamic report "$tmp/dyn.data" --no-children --dsos dyn
check dynamic-full report "$tmp/dyn.data"
check dynamic-script script "$tmp/dyn.data"
prog=prog
# a local debug file with the build id (perf's build-id cache) comes
# first: the server is not asked for it
d="$HOME/.debug/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-)"
mkdir -p "$d"
cp "$tmp/srv/prog.debug" "$d/debug"
run_pk local "$urls" report "$tmp/perf.data"
rm -rf "$HOME/.debug"
if ! grep -q leaf_spin "$tmp/local.pk"; then
	echo "FAIL local debug file: no names"
	fail=1
elif [ -e "$HOME/.cache/debuginfod_client/$bid/debuginfo" ]; then
	echo "FAIL local debug file: fetched all the same"
	fail=1
else
	echo "ok   local debug file: used, nothing fetched"
fi
# the binary is gone too: the executable comes from the server as well,
# for the program headers
oracle gone report "$tmp/perf.data"
rm "$tmp/bin/prog"
run_pk gone "$urls" report "$tmp/perf.data"
judge "binary gone: report" "$tmp/gone.perf" "$tmp/gone.pk"
[ -e "$HOME/.cache/debuginfod_client/$bid/executable" ] ||
	{ echo "FAIL binary gone: the executable was not fetched"; fail=1; }

# a server that takes connections and never answers: the time limit ends
# the wait, once for the whole run, not once per file, and says so
python3 - "$tmp/mute.port" <<'PY' &
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(16)
open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1]))
__import__("os").rename(sys.argv[1] + ".tmp", sys.argv[1])
held, end = [], time.time() + 60
s.settimeout(0.5)
while time.time() < end:
    try:
        held.append(s.accept())
    except OSError:
        pass
PY
mute=$!
i=0
while [ ! -s "$tmp/mute.port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
rm -rf "$HOME/.cache"
start=$(date +%s)
DEBUGINFOD_TIMEOUT=2 DEBUGINFOD_URLS="http://127.0.0.1:$(cat "$tmp/mute.port")" \
	"$PERFKIT" report --stdio -i "$tmp/perf.data" >/dev/null 2>"$tmp/mute.err"
took=$(($(date +%s) - start))
n=$(grep -c "debuginfod: .*timed out" "$tmp/mute.err")
if [ "$n" != 1 ] || [ "$took" -gt 12 ]; then
	echo "FAIL silent server: $n timeout warnings, $took s"
	cat "$tmp/mute.err"
	fail=1
else
	echo "ok   silent server: given up after one wait ($took s)"
fi
cmp_finish "outputs identical to perf through debuginfod" 6
