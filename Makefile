# Thin wrapper for the two README commands; the build itself is Meson.
.PHONY: demo test build fuzz bench clean

demo:
	@sh scripts/install-deps.sh
	@sh scripts/demo.sh

test:
	@sh scripts/install-deps.sh
	@sh scripts/test-all.sh

build:
	@sh scripts/install-deps.sh
	@[ -d build ] || meson setup build >/dev/null
	@ninja -C build

# Long fuzzing runs (not CI): FUZZ_SECONDS per target, default 600.
fuzz:
	@sh scripts/install-deps.sh
	@FUZZ_SECONDS=$${FUZZ_SECONDS:-600} sh scripts/fuzz.sh

clean:
	rm -rf build build-asan build-fuzz
