#!/usr/bin/env bash
# bpf_sys_bpf() in each context a syscall program's code can run in:
# allowed in the main body, a static subprogram, a global function and a
# bpf_loop() callback; EPERM at run time in bpf_wq and bpf_timer callbacks
# (the programs load, as upstream's); refused by the verifier in extension
# programs, which are not sleepable, as upstream; and a program loaded
# by a syscall program reached through a tail call names that program as
# its loader (prog_loader_digest), not the caller. The checks are the
# tool's: tests/src/sys_bpf_ctx.c.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

run_tool sys_bpf_ctx

# --- A signed load through bpf_sys_bpf(): signature, signature_size and
# keyring_id set by a syscall program, the signature in its context
# (kernel memory). The kernel checks it as for bpf(2): the child is
# verified against the keyring named, and records the syscall program as
# its loader (itself unsigned); a signature that does not verify is
# refused with the same errnos ---
cd "$WORK"
keyctl new_session >/dev/null
keyctl padd asymmetric "" @s <"$T/keys/signer.der" >/dev/null
serial=$(keyctl show @s | awk '/keyring: _ses/ { print $1; exit }')
# the child: r0 = 0; exit, as signed_loader's tiny_insns
printf '\xb7\0\0\0\0\0\0\0\x95\0\0\0\0\0\0\0' >child.bin
cms_sign child.bin "$T/keys/signer.pem" "$T/keys/signer.key" child.der
pin=/sys/fs/bpf/sys_bpf_signed
rm -f "$pin"
rc=0
"$T/sys_bpf_ctx" signed child.der -3 "$pin" >signed.txt || rc=$?
expect_eq "sys_bpf signed: a signed child through bpf_sys_bpf() loads" "0 ok" "$rc $(head -n 1 signed.txt)"
ldigest=$(sed -n 's/^loader_digest:\t//p' signed.txt)
expect_eq "sys_bpf signed: fdinfo: digest = openssl's, verified against the session keyring by the test key, loader = the syscall program, unsigned" \
	"$(printf '%s\n' "prog_digest:	$(openssl dgst -sha256 -r child.bin | cut -c1-64)" \
		"prog_sig:	verified" "prog_sig_keyring:	user" "prog_sig_keyring_serial:	$serial" \
		"prog_sig_signer:	$(skid "$T/keys/signer.pem")" \
		"prog_sig_signer_key:	$(key_digest "$T/keys/signer.pem")" "prog_sig_maps:	0" \
		"prog_loader_digest:	$ldigest" "prog_loader_sig:	unsigned")" \
	"$(grep -E '^prog_(digest|sig|loader)' signed.txt)"
expect_eq "sys_bpf signed: the loader's digest is a SHA-256, not the child's" "64 different" \
	"${#ldigest} $([ "$ldigest" != "$(openssl dgst -sha256 -r child.bin | cut -c1-64)" ] && echo different)"
expect_status "sys_bpf signed: bpftool prog verify: verified by the program's own signature" 0 \
	"$BPFTOOL" prog verify pinned "$pin" -i "$T/keys/signer.pem" keyring "$serial"
expect_eq "sys_bpf signed: prog verify JSON: verified_by program, loader unsigned" "program|unsigned" \
	"$("$BPFTOOL" -j prog verify pinned "$pin" keyring "$serial" | jq -r '"\(.verified_by)|\(.loader.signature.verdict)"' 2>&1)"
rm -f "$pin"
# refusals: the kernel's errno, through ctx->fd
refused() {
	local name=$1 want=$2 rc=0 got
	shift 2
	got=$("$T/sys_bpf_ctx" signed "$@") || rc=$?
	expect_eq "sys_bpf signed: $name" "1 $want" "$rc $got"
}
cp child.der flipped.der
flip_byte flipped.der $(($(stat -c %s child.der) - 10))
refused "one signature byte flipped: EKEYREJECTED" EKEYREJECTED flipped.der -3
printf '\xb7\0\0\0\1\0\0\0\x95\0\0\0\0\0\0\0' >other.bin
cms_sign other.bin "$T/keys/signer.pem" "$T/keys/signer.key" other.der
refused "signed over other instructions (r0 = 1): EKEYREJECTED" EKEYREJECTED other.der -3
openssl req -x509 -newkey rsa:2048 -nodes -keyout stranger.key -subj "/CN=stranger" -days 2 \
	-addext subjectKeyIdentifier=hash -out stranger.pem 2>/dev/null
cms_sign child.bin stranger.pem stranger.key stranger.der
refused "signed by a key not in the keyring: ENOKEY" ENOKEY stranger.der -3
head -c 100 child.der >trunc.der
refused "truncated signature: EBADMSG" EBADMSG trunc.der -3
refused "signature pointer to no kernel memory: EFAULT" EFAULT bad-ptr -3
refused "keyring_id INT_MAX: EINVAL" EINVAL child.der 2147483647
