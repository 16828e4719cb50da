#!/usr/bin/env bash
# The example BPF-LSM policy (progs/signed_only.bpf.c): once in force,
# user space can load only programs the kernel verified, and what a
# verified loader loads.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$WORK"

keyctl new_session >/dev/null
keyctl padd asymmetric "" @s <"$T/keys/signer.der" >/dev/null
pin=/sys/fs/bpf/signed_only

expect_eq "policy: before, an unsigned program loads" ok "$("$T/sig_load" load || true)"
expect_eq "policy: before, an unsigned light skeleton loads" ok \
	"$("$T/lskel_run_unsigned" load-only 0 || true)"
expect_status "policy: before, bpftool prog load of the unsigned object works" 0 \
	"$BPFTOOL" prog load "$T/fentry_count.bpf.o" /sys/fs/bpf/unsigned_before
rm -f /sys/fs/bpf/unsigned_before

expect_status "policy: the signed policy skeleton loads and attaches" 0 \
	"$T/signed_only" enforce "$pin" session

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

rm -f "$pin"
expect_eq "policy: unpinned, unsigned programs load again" ok "$("$T/sig_load" load || true)"
