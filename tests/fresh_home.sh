#!/bin/sh
# Run a test with HOME set to a new empty directory, removed afterwards, so
# that nothing passes on state an earlier run left in the real home: perf's
# build-id cache (~/.debug), ~/.perfconfig, a debuginfod client cache.
# Every meson test runs under it (the default test setup in tests/meson.build).
# usage: fresh_home.sh COMMAND [ARG...]
home=$(mktemp -d "${TMPDIR:-/tmp}/perfkit-home.XXXXXX") || exit 99
trap 'rm -rf "$home"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
HOME=$home
XDG_CACHE_HOME=$home/.cache
XDG_CONFIG_HOME=$home/.config
XDG_DATA_HOME=$home/.local/share
export HOME XDG_CACHE_HOME XDG_CONFIG_HOME XDG_DATA_HOME
# where perf and libdebuginfod would look besides HOME; a test that wants
# one of them sets it itself
unset PERF_BUILDID_DIR PERF_CONFIG DEBUGINFOD_URLS
"$@"
rc=$?
exit $rc
