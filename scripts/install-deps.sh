#!/bin/sh
# Install what building and testing perfkit needs, from Debian's packages.
# As root it runs apt-get; otherwise it prints the exact command and fails.
set -eu

PKGS="gcc clang llvm meson ninja-build pkg-config make
libelf-dev libdw-dev liblzma-dev libzstd-dev libtraceevent-dev zlib1g-dev libbz2-dev
libdebuginfod-dev debuginfod
libcmocka-dev libprotobuf-c-dev protobuf-c-compiler libclang-rt-14-dev
linux-perf python3 bc zstd xz-utils libc6-dbg
nodejs npm chromium"

missing=""
for p in $PKGS; do
	# a nodejs from elsewhere (e.g. NodeSource) brings its own npm
	[ "$p" = npm ] && command -v npm >/dev/null 2>&1 && continue
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "perfkit needs these packages:$missing" >&2
	echo "run: sudo apt-get update && sudo $cmd" >&2
	exit 1
fi
echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
$cmd >/dev/null
