#!/usr/bin/env bash
# The demo, run inside the guest by 'make demo': the signing story on the
# patched kernel, step by step, with the commands shown.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$WORK"

step() { printf '\n### %s\n' "$*"; }
run() { printf '$ %s\n' "$*"; "$@"; }
dir=/sys/fs/bpf/demo
mkdir -p "$dir"

step "Guest kernel and bpftool"
run uname -r
run "$BPFTOOL" version

step "1. Program digests are SHA-256; the tag is the first 8 bytes"
"$T/excl_maps" dump insns.bin
run xxd insns.bin
digest=$(openssl dgst -sha256 -r insns.bin | cut -d' ' -f1)
echo "openssl SHA-256 of these instructions: $digest"

step "2. A map exclusive to that digest admits that program and nothing else"
"$T/excl_maps" digest "$digest" "$dir"
run "$BPFTOOL" prog show pinned "$dir/owner"
run "$BPFTOOL" map show pinned "$dir/excl_map"

step "3. A signed light skeleton (built on the host with bpftool gen skeleton -S)"
grep -o 'static const char opts_[a-z_]*\[\]' "$T/fentry_count.lskel.h" | sort -u
echo "The kernel checks opts_sig over opts_insn || opts_data against a keyring:"
run keyctl new_session
run keyctl padd asymmetric "" @s <"$T/keys/signer.der"
"$T/lskel_run" fentry session
"$T/lskel_run" pin "$dir" session
run "$BPFTOOL" prog show pinned "$dir/on_entry"
echo "The loader that loaded it is gone; its digest and verdict remain."

step "4. Tampering is refused by the kernel"
echo "one byte of opts_data flipped after signing:"
"$T/lskel_run_tampered_data" load-only session || true
echo "the test key against the builtin trusted keyring:"
"$T/lskel_run" load-only 0 || true

step "5. Policy: only verified programs may load"
run "$T/signed_only" enforce "$dir/policy" session
echo "unsigned program: $("$T/sig_load" load || true)"
echo "unsigned light skeleton: $("$T/lskel_run_unsigned" load-only 0 || true)"
echo "signed light skeleton:"
"$T/lskel_run" fentry session
rm -rf "$dir"
