#!/usr/bin/env bash
# The demo, run inside the guest by 'make demo': what the patched kernel
# does today, step by step, with the commands shown.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

step() { printf '\n### %s\n' "$*"; }
run() { printf '$ %s\n' "$*"; "$@"; }

step "Guest kernel"
run uname -r
run "$BPFTOOL" version

step "1. Program digests are SHA-256; the tag is its first 8 bytes"
"$T/excl_maps" dump "$WORK/insns.bin"
run xxd "$WORK/insns.bin"
digest=$(openssl dgst -sha256 -r "$WORK/insns.bin" | cut -d' ' -f1)
echo "openssl SHA-256 of these instructions: $digest"
echo "expected tag (first 8 bytes):          ${digest:0:16}"

step "2. A map exclusive to that digest admits that program and nothing else"
mkdir -p /sys/fs/bpf/demo
"$T/excl_maps" digest "$digest" /sys/fs/bpf/demo
run "$BPFTOOL" prog show pinned /sys/fs/bpf/demo/owner
run "$BPFTOOL" map show pinned /sys/fs/bpf/demo/excl_map

step "3. The same through libbpf: bpf_map__set_exclusive_program()"
"$T/excl_maps" libbpf
