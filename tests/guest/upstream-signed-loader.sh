#!/usr/bin/env bash
# The cases of upstream's load-time signed loader selftest
# (tools/testing/selftests/bpf/prog_tests/signed_loader.c as of commit
# 99b321dde704 "selftests/bpf: Verify load-time signed loader metadata",
# with 43f129d21489), each named after its subtest and giving upstream's
# result, driven through out/tests/sig_load and signed here with openssl.
# Upstream's loader is a gen_loader program; here the metadata program of
# sig_load stands in for it wherever the program's contents do not matter.
# Which subtests live elsewhere, and which 6.12 cannot have, is in
# docs/testing.md ("Upstream's signed_loader selftest").
#
# Then what upstream decided for unsigned programs, which the series must
# leave as it is: BTF objects in a continuous fd_array, maps by fd, and
# signing attributes without a signature.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$WORK"

sha256() { openssl dgst -sha256 -r "$1" | cut -d' ' -f1; }
load() { "$T/sig_load" load "$@" 2>>"$WORK/load.err" || true; }

openssl req -x509 -newkey rsa:2048 -nodes -keyout signer.key -out signer.pem \
	-days 2 -subj "/CN=upstream-signed-loader" 2>/dev/null
openssl x509 -in signer.pem -outform DER -out signer.der
# Upstream's tests put their key in the session keyring and pass
# KEY_SPEC_SESSION_KEYRING (-3)
keyctl new_session >/dev/null
keyctl padd asymmetric "" @s <signer.der >/dev/null
KSR=-3

"$T/sig_load" dump insns.bin
head -c 64 /dev/urandom >meta.bin
excl=$(sha256 insns.bin)
cat insns.bin meta.bin >signed.bin
cms_sign signed.bin signer.pem signer.key good.der
cms_sign insns.bin signer.pem signer.key insns-only.der
# upstream's junk: a DER SEQUENCE whose length byte is wrong, and zeros
{ printf '\x30\x42\x13\x37'; head -c 60 /dev/zero; } >junk.der
head -c 64 /dev/zero >zero-junk.der

# loadtime_with_map: the metadata map exclusive, frozen, covered
expect_eq "loadtime_with_map: signed loader and metadata map load" ok \
	"$(load --meta meta.bin --excl "$excl" --sig good.der --keyring $KSR)"
# loadtime_no_map: the signature covers the instructions alone
"$T/sig_load" dump-nomap nomap.bin
cms_sign nomap.bin signer.pem signer.key nomap.der
expect_eq "loadtime_no_map: signed program without maps loads" ok \
	"$(load --sig nomap.der --keyring $KSR)"
expect_eq "metadata_match: unsigned, exclusive map through the sparse fd_array: loads" ok \
	"$(load --meta meta.bin --excl "$excl" --fd-array-cnt 0)"
expect_eq "signature_enforced: junk signature, map in a sparse fd_array: EBADMSG" EBADMSG \
	"$(load --meta meta.bin --excl "$excl" --fd-array-cnt 0 --sig junk.der --keyring $KSR)"
expect_eq "signed_nonexcl_fd_array_rejected: EPERM before the signature" EPERM \
	"$(load --meta meta.bin --sig junk.der --keyring $KSR)"
expect_eq "signed_unfrozen_fd_array_rejected: EPERM before the signature" EPERM \
	"$(load --meta meta.bin --excl "$excl" --no-freeze --sig junk.der --keyring $KSR)"
expect_eq "signed_nonarray_fd_array_rejected: a hash map: EINVAL" EINVAL \
	"$(load --meta meta.bin --excl "$excl" --map-type hash --no-freeze --sig junk.der \
		--keyring $KSR)"
expect_eq "signed_btf_fd_array_rejected: a BTF object in fd_array: EACCES" EACCES \
	"$(load --meta meta.bin --excl "$excl" --extra-fd btf --fd-array-cnt 2 --sig good.der \
		--keyring $KSR)"
"$T/sig_load" dump-prog kfunc kfunc.bin
cms_sign kfunc.bin signer.pem signer.key kfunc.der
expect_eq "signed_module_kfunc_rejected: a kfunc's BTF from fd_array: EACCES" EACCES \
	"$(load --prog kfunc --extra-fd btf --fd-array-cnt 0 --sig kfunc.der --keyring $KSR)"
log=$("$T/sig_load" load --meta meta.bin --excl "$excl" --sig junk.der --keyring $KSR \
	--log 2>&1 || true)
expect_eq "signature_failure_logs: the verifier log says so" 1 \
	"$(grep -c '^signature verification failed' <<<"$log" || true)"
expect_eq "signature_too_large: 64 MiB: EINVAL" EINVAL \
	"$(load --sig zero-junk.der --sig-size $((64 << 20)) --keyring $KSR)"
expect_eq "signature_zero_size: EINVAL" EINVAL \
	"$(load --sig zero-junk.der --sig-size 0 --keyring $KSR)"
expect_eq "signature_bad_keyring: keyring_id INT_MAX: EINVAL" EINVAL \
	"$(load --sig zero-junk.der --keyring 2147483647)"

# signature_authenticates_insns: the attacker's best case, the map made
# exclusive to the tampered instructions; loaded as a loader is (--insns)
expect_eq "signature_authenticates_insns: the untampered loader loads" ok \
	"$(load --insns insns.bin --meta meta.bin --excl "$excl" --sig good.der --keyring $KSR)"
cp insns.bin tampered.bin
printf '\x01' | dd of=tampered.bin bs=1 seek=20 conv=notrunc status=none
expect_eq "signature_authenticates_insns: one instruction byte flipped: EKEYREJECTED" \
	EKEYREJECTED "$(load --insns tampered.bin --meta meta.bin --excl "$(sha256 tampered.bin)" \
		--sig good.der --keyring $KSR)"
cp meta.bin tampered-meta.bin
printf '\xff' | dd of=tampered-meta.bin bs=1 seek=32 conv=notrunc status=none
expect_eq "signature_authenticates_metadata: one metadata byte flipped: EKEYREJECTED" \
	EKEYREJECTED "$(load --meta tampered-meta.bin --excl "$excl" --sig good.der --keyring $KSR)"

# signed_no_fd_array: {r0 = 0; exit} signed, then r0 = 1 with that signature
cp nomap.bin nomap-1.bin
printf '\x01' | dd of=nomap-1.bin bs=1 seek=4 conv=notrunc status=none
expect_eq "signed_no_fd_array: the instructions changed: EKEYREJECTED" EKEYREJECTED \
	"$(load --insns nomap-1.bin --sig nomap.der --keyring $KSR)"
"$T/sig_load" dump-prog mapfd mapfd.bin
cms_sign mapfd.bin signer.pem signer.key mapfd.der
expect_eq "signed_map_by_fd_rejected: BPF_PSEUDO_MAP_FD in signed instructions: EINVAL" EINVAL \
	"$(load --prog mapfd --sig mapfd.der --keyring $KSR)"
expect_eq "signed_sparse_fd_array_rejected: a plain map by index, fd_array_cnt 0: EACCES" \
	EACCES "$(load --meta meta.bin --fd-array-cnt 0 --sig insns-only.der --keyring $KSR)"

# lsm_signature_verdict: a BPF LSM program declared as upstream declares
# the hook (bool kernel last) sees the verdict before the verifier runs.
# A: unsigned; B: signed over the instructions alone with the metadata map
# in a sparse fd_array: verified, then refused by the verifier; C: signed
# over both
ses=$(keyctl show @s | awk '/keyring: _ses/ { print $1; exit }')
lsm() { "$T/sig_load" load --lsm "$@" 2>>"$WORK/load.err" | paste -sd'|' || true; }
expect_eq "lsm_signature_verdict: unsigned load: seen once, unsigned, no keyring" \
	"ok|lsm: seen 1 verdict 0 keyring_type 0 serial 0 kernel 0" \
	"$(lsm --meta meta.bin --excl "$excl" --fd-array-cnt 0)"
expect_eq "lsm_signature_verdict: instructions signed, map unfolded: verified for the hook, then EACCES" \
	"EACCES|lsm: seen 1 verdict 1 keyring_type 4 serial $ses kernel 0" \
	"$(lsm --meta meta.bin --excl "$excl" --fd-array-cnt 0 --sig insns-only.der --keyring $KSR)"
expect_eq "lsm_signature_verdict: instructions and metadata signed: loads, verified" \
	"ok|lsm: seen 1 verdict 1 keyring_type 4 serial $ses kernel 0" \
	"$(lsm --meta meta.bin --excl "$excl" --sig good.der --keyring $KSR)"

# Beyond the 29 subtests, what upstream's kernel and signing.rst decide
"$T/sig_load" dump-prog ksym ksym.bin
cms_sign ksym.bin signer.pem signer.key ksym.der
expect_eq "signed program with a ksym (vmlinux BTF): EACCES" EACCES \
	"$(load --prog ksym --sig ksym.der --keyring $KSR)"
cat insns.bin meta.bin meta.bin >two-maps.bin
cms_sign two-maps.bin signer.pem signer.key two-maps.der
expect_eq "two metadata maps, both folded in fd_array order: loads" ok \
	"$(load --meta meta.bin --excl "$excl" --maps 2 --sig two-maps.der --keyring $KSR)"
expect_eq "a map listed twice is folded once: loads" ok \
	"$(load --meta meta.bin --excl "$excl" --fd-array-cnt 2 --extra-fd same --sig good.der \
		--keyring $KSR)"
expect_eq "a map listed twice is folded once: the verdict covers 1 map" "prog_sig_maps:	1" \
	"$(load --meta meta.bin --excl "$excl" --fd-array-cnt 2 --extra-fd same --sig good.der \
		--keyring $KSR --fdinfo | grep '^prog_sig_maps:' || true)"
# value_size bytes of element 0: a two-element array cannot be read in place
expect_eq "a two-element metadata array: ENOTSUPP (524), as upstream" "errno 524" \
	"$(load --meta meta.bin --entries 2 --excl "$excl" --sig good.der --keyring $KSR)"
# 16 MiB cap, checked with the maps, before the signature: four maps of
# 4 MiB (an array value's limit) and the instructions are over it
head -c $((4 << 20)) /dev/zero >four-mib.bin
expect_eq "the 16 MiB cap, checked before the signature: E2BIG" E2BIG \
	"$(load --nomap --meta four-mib.bin --maps 4 --excl "$(sha256 nomap.bin)" \
		--sig junk.der --keyring $KSR)"

# Unsigned programs behave as upstream decided
expect_eq "unsigned: a BTF object in a continuous fd_array: loads" ok \
	"$(load --meta meta.bin --extra-fd btf --fd-array-cnt 2)"
expect_eq "unsigned: a map index naming the BTF entry: EINVAL" EINVAL \
	"$(load --meta meta.bin --extra-fd btf --fd-array-cnt 2 --map-idx 1)"
expect_eq "unsigned: a map by fd (BPF_PSEUDO_MAP_FD): loads" ok "$(load --prog mapfd)"
expect_eq "unsigned: a ksym: loads" ok "$(load --prog ksym)"
expect_eq "unsigned: keyring_id without a signature is ignored: loads" ok \
	"$(load --meta meta.bin --keyring $KSR)"
expect_eq "unsigned: signature_size without a signature is ignored: loads" ok \
	"$(load --meta meta.bin --sig-size 256)"
expect_eq "unsigned: the same map twice in fd_array: loads" ok \
	"$(load --meta meta.bin --fd-array-cnt 2 --extra-fd same)"
expect_eq "fd_array_cnt 4097: E2BIG" E2BIG "$(load --meta meta.bin --fd-array-cnt 4097)"
