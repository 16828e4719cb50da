#!/usr/bin/env bash
# The kernel and bpftool prog verify must agree on every signature: each
# case signs a light skeleton's loader and metadata (taken from a header
# bpftool generated) in some way, hands the signature to BPF_PROG_LOAD
# (sig_load --insns --meta, as skel_internal.h loads the loader) and to
# "bpftool prog verify file HEADER signature SIG" (offline, no kernel involved;
# the same static bpftool as on the host), and checks
#   - the kernel's exact answer (ok or errno), and
#   - that prog verify accepts (0) exactly when the kernel does, refusing (1)
#     otherwise, and
#   - prog verify's reason, the message it prints, against the row's
#     pattern in tests/signature-cases.reasons (empty when accepted).
# The signatures and rows are in tests/signature-cases.sh, which
# tests/host/offline-verdicts.sh runs through prog verify alone.
# The table of answers and reasons is printed.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$WORK"
. "$TESTS_DIR/signature-cases.sh"

expect_eq "the header's metadata is a multiple of 8 bytes (no padding in the signed data)" 0 \
	$(($(stat -c %s "$data") % 8))
signatures_here
check_signatures differential
excl=$(openssl dgst -sha256 -r "$insns" | cut -c1-64)
keyctl new_session >/dev/null
ring=$(keyctl newring differential @s)
for k in rsa2048 rsa4096 p256 p384 rsa1024 rsa3072 p521 ca; do
	keyctl padd asymmetric "" "$ring" <"$k.der" >/dev/null
done

# kernel SIG [METADATA [SIG_LOAD OPTIONS...]]
kernel() {
	"$T/sig_load" load --insns "$insns" --meta "${2:-$data}" --excl "$excl" --sig "$1" \
		--keyring "$ring" "${@:3}" 2>>load.err || true
}

# case_ NAME SIG CERT KERNEL-ANSWER [METADATA HEADER]: the kernel loads the
# loader with METADATA, prog verify checks SIG against HEADER (the header's
# own by default) and must agree with the kernel's answer
printf '%-56s %-14s %s\n' "signature" "kernel" "prog verify" >table
case_() {
	local name=$1 sig=$2 cert=$3 want=$4 meta=${5:-$data} header=${6:-$H} got
	got=$(kernel "$sig" "$meta")
	prog_verify_row differential "$name" "$sig" "$cert" "$got" "$header"
	printf '%-56s %-14s %s\n' "$name" "$got" "$offline" >>table
	expect_eq "differential: $name: kernel answers $want" "$want" "$got"
}

signature_rows
# whom the kernel records as the signer of the chained signature: the key
# of the certificate in the message (no key id, as the signer is named by
# issuer and serial)
kernel chain-issuer-serial.sig "$data" --fdinfo >chain.fdinfo
expect_eq "differential: chain: fdinfo's signer key is the carried certificate's" \
	"$(key_digest leaf.crt)" "$(sed -n 's/^prog_sig_signer_key:\t//p' chain.fdinfo)"
expect_eq "differential: chain: fdinfo names no signer key id" "" \
	"$(sed -n 's/^prog_sig_signer:\t//p' chain.fdinfo)"
# prog verify says why a signature over the instructions alone fails
expect_eq "differential: over the instructions only: prog verify names the 6.18 protocol" \
	"Error: insns-only.sig covers the loader's instructions only, as light skeletons of the 6.18 protocol are signed; the kernel checks the instructions and the metadata: regenerate the header with 'gen skeleton -S' or re-sign it with 'prog sign file $H'" \
	"$(cat "over the instructions only.err")"
echo "kernel and prog verify, case by case:"
cat table
echo "prog verify's reasons:"
cat reasons
