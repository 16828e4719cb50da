#!/usr/bin/env bash
# On Debian's kernel without the series (out/bzImage-pristine), booted by
# tests/run after the guest tests: what the patched user space says about
# a kernel that cannot check signatures. Nothing may read as signed.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$WORK"

load() { "$T/sig_load" load "$@" 2>>"$WORK/load.err" || true; }
"$T/sig_load" dump-nomap nomap.bin
openssl req -x509 -newkey rsa:2048 -nodes -keyout signer.key -out signer.pem \
	-days 2 -subj /CN=signer 2>/dev/null
cms_sign nomap.bin signer.pem signer.key nomap.der

# feature probe: not available, in every output
expect_status "pristine: feature probe kernel -j: exit 0" 0 "$BPFTOOL" -j feature probe kernel
cp "$WORK/out" probe.json
for f in prog_signature fd_array_cnt exclusive_maps map_hash; do
	expect_eq "pristine: feature probe -j: have_$f is false" false \
		"$(jq -r ".signing.have_$f" probe.json)"
done
expect_eq "pristine: feature probe -j: the builtin trusted keyring is still listed" true \
	"$(jq -r .signing.have_builtin_trusted_keyring probe.json)"
expect_status "pristine: feature probe kernel (plain): exit 0" 0 "$BPFTOOL" feature probe kernel
sed -n '/^Scanning program signing features\.\.\.$/,/^$/p' "$WORK/out"
expect_eq "pristine: feature probe (plain): program signatures are NOT available" 1 \
	"$(grep -cx 'Program signature check at load (signature, keyring_id) is NOT available' "$WORK/out")"
expect_status "pristine: feature probe macros: exit 0" 0 "$BPFTOOL" feature probe kernel macros
expect_eq "pristine: feature probe macros: NO_HAVE_PROG_SIGNATURE" 1 \
	"$(grep -cx '#define NO_HAVE_PROG_SIGNATURE' "$WORK/out")"

# libbpf: a signed load is refused as unsupported, never loaded unsigned
: >load.err
expect_eq "pristine: libbpf opts: signed load: EOPNOTSUPP" EOPNOTSUPP \
	"$(load --libbpf --sig nomap.der --keyring -3)"
expect_eq "pristine: libbpf opts: the warning says why" \
	"libbpf: prog 'sig_load': the kernel does not support program signatures" \
	"$(cat load.err)"
expect_eq "pristine: libbpf opts: no signing field set: loads" ok "$(load --libbpf)"
expect_eq "pristine: libbpf opts: fd_array_cnt 1 (6.14 attribute): EINVAL" EINVAL \
	"$(load --libbpf --meta nomap.bin)"
expect_eq "pristine: raw BPF_PROG_LOAD with a signature: E2BIG" E2BIG \
	"$(load --sig nomap.der --keyring -3)"
