#!/bin/sh
# Build the libFuzzer targets with clang and run each for FUZZ_SECONDS,
# seeded with the perf.data corpus (tests/data) and the saved regression
# inputs.
set -eu
cd "$(dirname "$0")/.."
secs=${FUZZ_SECONDS:-60}
dir=build-fuzz
if [ ! -f "$dir/build.ninja" ]; then
	CC=clang meson setup "$dir" -Dfuzz=true -Db_lundef=false -Dbuildtype=debugoptimized \
		>/dev/null
fi
ninja -C "$dir" >/dev/null || { ninja -C "$dir" | tail -20; exit 1; }
# the perf.data corpus of tests/data, which the build unpacks
corpus_src=$dir/tests/data/corpus
for target in "$dir"/fuzz/fuzz_*; do
	[ -f "$target" ] && [ -x "$target" ] || continue
	name=$(basename "$target")
	case " ${FUZZ_SKIP:-} " in *" $name "*) echo "fuzz: $name skipped"; continue ;; esac
	work=$(mktemp -d)
	seeds="fuzz/corpus/$name"
	[ -d "$seeds" ] && cp "$seeds"/* "$work"/ 2>/dev/null || true
	# seeds: small corpus files whole, the first 64 KiB of the larger ones
	# (big seeds make every run slow)
	if [ -d "$corpus_src" ]; then
		for f in "$corpus_src"/*/*data*; do
			head -c 65536 "$f" >"$work/$(basename "$f")"
		done
	fi
	echo "fuzz: $name for $secs s"
	if ! "$target" -max_total_time="$secs" -max_len=65536 -rss_limit_mb=2048 \
		-timeout=10 -print_final_stats=0 "$work" >"$work.log" 2>&1; then
		tail -40 "$work.log"
		echo "fuzz: $name found a crash (input saved by libFuzzer in $(pwd))" >&2
		rm -rf "$work" "$work.log"
		exit 1
	fi
	grep -E "^#[0-9]+.*DONE" "$work.log" | tail -1 || tail -1 "$work.log"
	rm -rf "$work" "$work.log"
done
