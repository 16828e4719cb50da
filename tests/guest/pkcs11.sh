#!/usr/bin/env bash
# Skeletons signed with keys that never left a PKCS#11 token (SoftHSM, on
# the host: tests/softhsm-sign) load: the kernel accepts each loader and its
# metadata with the token's signature, and records the token key as the
# signer. (tests/host/pkcs11.sh checks the same headers offline.)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$WORK"

P=$T/pkcs11
keyctl new_session >/dev/null
ring=$(keyctl newring pkcs11 @s)
for k in rsa ec; do
	keyctl padd asymmetric "" "$ring" <"$P/$k.der" >/dev/null
	excl=$(openssl dgst -sha256 -r "$P/$k.opts_insn.bin" | cut -c1-64)
	"$T/sig_load" load --insns "$P/$k.opts_insn.bin" --meta "$P/$k.opts_data.bin" \
		--excl "$excl" --sig "$P/$k.opts_sig.bin" --keyring "$ring" --fdinfo \
		>"$k.out" 2>"$k.err" || true
	expect_eq "SoftHSM $k key: the kernel loads the signed loader" ok "$(head -n 1 "$k.out")"
	# the kernel's record of it, for the log
	grep -E '^prog_(digest|sig[a-z_]*):' "$k.out" | sed "s/^/SoftHSM $k: /"
	expect_eq "SoftHSM $k key: verified, the signer is the token's key" \
		"verified|$(key_digest "$P/$k.pem")" \
		"$(sed -n 's/^prog_sig:\t//p; s/^prog_sig_signer_key:\t//p' "$k.out" | head -n 2 | paste -sd'|')"
done
cp "$P/rsa.opts_sig.bin" flipped.sig
flip_byte flipped.sig $(($(stat -c %s flipped.sig) - 10))
expect_eq "SoftHSM rsa key: one signature byte flipped: EKEYREJECTED" EKEYREJECTED \
	"$("$T/sig_load" load --insns "$P/rsa.opts_insn.bin" --meta "$P/rsa.opts_data.bin" \
		--excl "$(openssl dgst -sha256 -r "$P/rsa.opts_insn.bin" | cut -c1-64)" \
		--sig flipped.sig --keyring "$ring" 2>/dev/null || true)"
