#!/usr/bin/env bash
# Exclusive maps (BPF_MAP_CREATE excl_prog_hash) and the SHA-256 program
# digest, against the patched kernel.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

"$T/excl_maps" libbpf || true
"$T/excl_maps" attrs || true
"$T/excl_maps" tags || true

# The digest, recomputed here with openssl over the instructions the test
# program loads (map fd immediates zeroed, as the kernel does).
"$T/excl_maps" dump "$WORK/insns.bin"
expect_eq "digest: test program is 4 instructions" 32 "$(stat -c %s "$WORK/insns.bin")"
digest=$(openssl dgst -sha256 -r "$WORK/insns.bin" | cut -d' ' -f1)
"$T/excl_maps" digest "$digest" || true
