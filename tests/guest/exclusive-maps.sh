#!/usr/bin/env bash
# Exclusive maps (BPF_MAP_CREATE excl_prog_hash) and the SHA-256 program
# digest, against the patched kernel.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

run_tool excl_maps libbpf
run_tool excl_maps attrs
run_tool excl_maps tags

# The digest, recomputed here with openssl over the instructions the test
# program loads (map fd immediates zeroed, as the kernel does).
"$T/excl_maps" dump "$WORK/insns.bin"
expect_eq "digest: test program is 4 instructions" 32 "$(stat -c %s "$WORK/insns.bin")"
digest=$(openssl dgst -sha256 -r "$WORK/insns.bin" | cut -d' ' -f1)
run_tool excl_maps digest "$digest"
# and near misses of it: the last byte, and all but the tag
run_tool excl_maps near "$digest"

# Every other path to an exclusive map's values (iterators, bpf_sys_bpf(),
# for_each callbacks, user-space writes and mappings)
run_tool excl_paths
