#!/usr/bin/env bash
# The signed_only BPF-LSM policy (policy/signed_only.bpf.c): once in force,
# user space can load only programs that a trusted signature vouches for
# (their own, or a verified loader's that covers its metadata), and no
# extension or tracing program from less trusted code than its target. The
# test key's certificate is in the session keyring, which the policy is
# told to trust; a keyring of the test's own making is not trusted.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$WORK"

keyctl new_session >/dev/null
keyctl padd asymmetric "" @s <"$T/keys/signer.der" >/dev/null
selfmade=$(keyctl newring selfmade @s)
keyctl padd asymmetric "" "$selfmade" <"$T/keys/signer.der" >/dev/null
pin=/sys/fs/bpf/signed_only

expect_eq "policy: before, an unsigned program loads" ok "$("$T/sig_load" load || true)"
expect_eq "policy: before, an unsigned light skeleton loads" ok \
	"$("$T/lskel_run_unsigned" load-only 0 || true)"
expect_status "policy: before, bpftool prog load of the unsigned object works" 0 \
	"$BPFTOOL" prog load "$T/fentry_count.bpf.o" /sys/fs/bpf/unsigned_before
rm -f /sys/fs/bpf/unsigned_before

# What the extension checks need, made before the policy is in force
"$T/ext_verified" dump target.bin ext.bin gloader.bin 2>/dev/null
make_key stranger -algorithm RSA -pkeyopt rsa_keygen_bits:2048
strangers=$(keyctl newring strangers @s)
keyctl padd asymmetric "" "$strangers" <stranger.der >/dev/null
cms_sign target.bin "$T/keys/signer.pem" "$T/keys/signer.key" target.der
cms_sign ext.bin "$T/keys/signer.pem" "$T/keys/signer.key" ext.der
cms_sign ext.bin stranger.crt stranger.key ext-stranger.der
"$T/loader_maps" dump loader.bin
cms_sign loader.bin "$T/keys/signer.pem" "$T/keys/signer.key" loader.der

expect_status "policy: the signed policy skeleton loads and attaches" 0 \
	"$T/signed_only" enforce "$pin" session session

expect_eq "policy: an unsigned program is refused with EPERM" EPERM \
	"$("$T/sig_load" load || true)"
expect_eq "policy: an unsigned light skeleton is refused" "Operation not permitted" \
	"$("$T/lskel_run_unsigned" load-only 0 || true)"
expect_status "policy: bpftool prog load of an unsigned object is refused" 255 \
	"$BPFTOOL" prog load "$T/fentry_count.bpf.o" /sys/fs/bpf/unsigned
if grep -E 'Operation not permitted|-EPERM|errno 1\b' "$WORK/err" >/dev/null; then
	pass "policy: bpftool says the kernel refused it (EPERM)"
else
	fail "policy: bpftool says the kernel refused it (EPERM)" "$(tail -3 "$WORK/err")"
fi
[ ! -e /sys/fs/bpf/unsigned ] && pass "policy: nothing was pinned" ||
	fail "policy: nothing was pinned" "/sys/fs/bpf/unsigned exists"
CHECK_PREFIX="policy: " run_tool lskel_run fentry session
# bpftool prog load -S: the loader it signs is verified, so what it loads
# passes the policy; the same with an unsigned loader (-L) does not
expect_status "policy: bpftool prog load -S (signed loader) loads under the policy" 0 \
	"$BPFTOOL" -S -k "$T/keys/signer.key" -i "$T/keys/signer.pem" \
	prog load "$T/fentry_count.bpf.o" /sys/fs/bpf/signed_fentry
expect_status "policy: bpftool prog load -L (unsigned loader) is refused" 255 \
	"$BPFTOOL" -L prog load "$T/fentry_count.bpf.o"

# A directly signed program passes too.
"$T/sig_load" dump-nomap nomap.bin
cms_sign nomap.bin "$T/keys/signer.pem" "$T/keys/signer.key" nomap.der
expect_eq "policy: a directly signed program loads" ok \
	"$("$T/sig_load" load --sig nomap.der --keyring -3 || true)"
# The same signature, verified against a keyring the policy was not told
# to trust: anyone can make a keyring and put any certificate in it
expect_eq "policy: verified against an untrusted keyring of the caller's own: EPERM" EPERM \
	"$("$T/sig_load" load --sig nomap.der --keyring "$selfmade" || true)"
# A loader whose signature covers no map loads anything its caller asks for
run_tool loader_maps policy loader.der
cms_sign nomap.bin "$OUT/kernel-signing-key.pem" "$OUT/kernel-signing-key.pem" builtin.der
expect_eq "policy: verified against the builtin keys: loads" ok \
	"$("$T/sig_load" load --sig builtin.der --keyring 0 || true)"

rm -f "$pin"
# the link goes away in a deferred work item: give it up to 5 s
for _ in $(seq 50); do
	[ "$("$T/sig_load" load || true)" = ok ] && break
	sleep 0.1
done
expect_eq "policy: unpinned, unsigned programs load again" ok "$("$T/sig_load" load || true)"

# Extensions: only from code at least as trusted as the target's (the
# tool puts the policy in force for each extension's load, see there)
run_tool ext_verified policy target.der -3 ext.der ext-stranger.der "$strangers" "$pin"
expect_eq "policy: ext: the policy is gone after the extension checks" ok \
	"$("$T/sig_load" load || true)"
