#!/usr/bin/env bash
# The demo, run inside the guest by 'make demo': the signing story on the
# patched kernel, step by step, with the commands shown. It stops with a
# non-zero status as soon as a step does not behave as shown: a command
# meant to succeed fails, or one meant to be refused is not.
# tests/guest/demo.sh runs it in make check and asserts its transcript.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$WORK"

step() { printf '\n### %s\n' "$*"; }
# show COMMAND...: the command line as a user would type it
show() { printf '$ %s\n' "${*//$OUT\//out/}"; }
# run COMMAND...: show it and run it; it must succeed
run() { show "$@"; "$@"; }
# refused COMMAND...: show it, run it and show its exit status; it must fail
refused() {
	local rc=0
	show "$@"
	"$@" || rc=$?
	echo "(exit status $rc)"
	[ "$rc" != 0 ] || { echo "demo: '$*' was not refused" >&2; return 1; }
}
dir=/sys/fs/bpf/demo
mkdir -p "$dir"
CLEANUP+=("$dir")

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
echo "The kernel checks opts_sig over opts_insn || opts_data against a keyring;"
echo "here the test certificate goes into this session's keyring:"
run keyctl new_session
show keyctl padd asymmetric '""' @s "<$T/keys/signer.der"
keyctl padd asymmetric "" @s <"$T/keys/signer.der"
run "$T/lskel_run" fentry session
run "$T/lskel_run" pin "$dir" session
run "$BPFTOOL" prog show pinned "$dir/on_entry"
echo "The loader that loaded it is gone; its digest and verdict remain."

step "4. Tampering is refused by the kernel"
echo "One byte of opts_data flipped after signing:"
refused "$T/lskel_run_tampered_data" load-only session
echo "The test key against the builtin trusted keyring, which does not hold it:"
refused "$T/lskel_run" load-only 0

step "5. Policy: only verified programs may load"
echo "The policy trusts the builtin and secondary keyrings, and the one keyring"
echo "its operator names. Anyone may add a certificate to their own session"
echo "keyring, so only an operator can make it trusted: here the session"
echo "keyring that holds the test certificate (production: the secondary"
echo "keyring, which takes only keys vouched for by a builtin one)."
run "$T/signed_only" enforce "$dir/policy" session session
refused "$T/sig_load" load
refused "$T/lskel_run_unsigned" load-only 0
run "$T/lskel_run" fentry session
echo "The policy is in force until its pin is removed:"
run rm "$dir/policy"
run "$T/sig_load" load
