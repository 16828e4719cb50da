#!/usr/bin/env bash
# Keys that never leave a PKCS#11 token, and headers signed later:
#  - out/tests/pkcs11 (tests/softhsm-sign, make tests): fentry_count signed
#    with an RSA and an EC key generated inside a SoftHSM token; openssl
#    verifies each signature over the payload tests/lskel-blob reads out;
#  - -k and -i pkcs11:... in gen skeleton -S and prog sign (a dynamically
#    linked bpftool; the static one refuses tokens), the PIN from
#    pin-value, pin-source and BPFTOOL_SIGN_PIN; a wrong PIN, a missing
#    object, a token-less URI: one error line, exit 255, nothing written;
#  - gen skeleton -S without a key: a header with a placeholder signature,
#    which prog verify calls not signed yet; signed outside bpftool (openssl
#    over prog sign's payload) and attached, it is byte for byte the header
#    that gen skeleton -S gives with the key.
# (tests/guest/pkcs11.sh loads the SoftHSM-signed skeletons.)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

unset BPFTOOL_SIGN_PIN
# Under SANITIZE=1 (an ASan bpftool): libp11's engine leaks its methods at
# exit, see tests/pkcs11-lsan.supp; full stacks are needed to match them
if [ -n "${ASAN_OPTIONS:-}" ]; then
	export ASAN_OPTIONS=$ASAN_OPTIONS:fast_unwind_on_malloc=0
	export LSAN_OPTIONS=suppressions=$TESTS_DIR/pkcs11-lsan.supp:print_suppressions=0
fi
P=$T/pkcs11
obj=$T/fentry_count.bpf.o
BLOB=$TESTS_DIR/lskel-blob
export SOFTHSM2_CONF=$P/softhsm2.conf
if [ ! -f "$P/.complete" ]; then
	fail "SoftHSM-signed skeletons" "missing $P (build the tests first)"
	exit 1
fi
cd "$WORK"
skel() { "$BPFTOOL" "$@" gen skeleton "$obj" name fentry_count; }
# PKCS#11 needs a dynamically linked bpftool (the engine is a shared object)
pskel() { "$BPFTOOL_DYNAMIC" "$@" gen skeleton "$obj" name fentry_count; }

# --- The skeletons make tests signed inside the token ---
for k in rsa ec; do
	cat "$P/$k.opts_insn.bin" "$P/$k.opts_data.bin" >"$k.payload"
	expect_eq "SoftHSM $k: openssl verifies the header's signature over its payload" \
		"CMS Verification successful" \
		"$(openssl cms -verify -binary -inform DER -in "$P/$k.opts_sig.bin" \
			-content "$k.payload" -certfile "$P/$k.pem" -nointern -noverify \
			-out /dev/null 2>&1)"
	expect_status "SoftHSM $k: prog verify file: verified" 0 \
		"$BPFTOOL_DYNAMIC" prog verify file "$P/$k.lskel.h" -i "$P/$k.pem"
	expect_eq "SoftHSM $k: the key is the token's (certificate made through the engine)" \
		"$(openssl x509 -in "$P/$k.pem" -noout -pubkey)" \
		"$(openssl pkey -engine pkcs11 -inform engine -pubin -pubout \
			-in "pkcs11:token=bpf-tests;object=$k;type=public" 2>/dev/null)"
done
expect_eq "SoftHSM ec: the key is ECDSA P-256" "ASN1 OID: prime256v1" \
	"$(openssl x509 -in "$P/ec.pem" -noout -text | grep -o 'ASN1 OID: prime256v1')"

rsa_uri="pkcs11:token=bpf-tests;object=rsa"
# RSA PKCS#1 v1.5 is deterministic: the same key gives the same header
expect_status "pkcs11 -k with pin-value: gen skeleton -S" 0 \
	pskel -S -k "$rsa_uri;pin-value=1234" -i "$P/rsa.pem"
expect_eq "pkcs11 -k with pin-value: same header as make tests made" \
	"$(sha256sum <"$P/rsa.lskel.h")" "$(sha256sum <"$WORK/out")"
echo 1234 >pin.txt
echo 9999 >wrongpin.txt
chmod 600 pin.txt wrongpin.txt
expect_status "pkcs11 -k with ?pin-source=file:PATH: gen skeleton -S" 0 \
	pskel -S -k "$rsa_uri?pin-source=file:$WORK/pin.txt" -i "$P/rsa.pem"
expect_eq "pkcs11 -k with pin-source: same header" \
	"$(sha256sum <"$P/rsa.lskel.h")" "$(sha256sum <"$WORK/out")"
expect_status "pkcs11 -k, -i from the token (type=cert), BPFTOOL_SIGN_PIN: gen skeleton -S" 0 \
	env BPFTOOL_SIGN_PIN=1234 "$BPFTOOL_DYNAMIC" -S -k "$rsa_uri" -i "$rsa_uri;type=cert" \
	gen skeleton "$obj" name fentry_count
expect_eq "pkcs11 -i from the token: same header" \
	"$(sha256sum <"$P/rsa.lskel.h")" "$(sha256sum <"$WORK/out")"
expect_status "pkcs11 -i: prog verify file with the token's certificate" 0 \
	"$BPFTOOL_DYNAMIC" prog verify file "$P/ec.lskel.h" -i "pkcs11:token=bpf-tests;object=ec;type=cert"
cp "$P/ec.lskel.h" resign.h
expect_status "pkcs11 -k: prog sign re-signs the EC header with the RSA key" 0 \
	env BPFTOOL_SIGN_PIN=1234 "$BPFTOOL_DYNAMIC" -k "$rsa_uri" -i "$P/rsa.pem" prog sign file resign.h
expect_eq "pkcs11 -k: prog sign gives the RSA header byte for byte" \
	"$(sha256sum <"$P/rsa.lskel.h")" "$(sha256sum <resign.h)"

# --- Failures: one line, exit 255, nothing written ---
expect_err "pkcs11: the static bpftool refuses a token, and says why" 255 \
	"$rsa_uri: PKCS#11 tokens need a dynamically linked bpftool: this one is static and cannot load OpenSSL's pkcs11 engine" \
	"$OUT/bpftool" -S -k "$rsa_uri?pin-source=file:$WORK/pin.txt" -i "$P/rsa.pem" gen skeleton "$obj" name fentry_count
expect_err "pkcs11: wrong PIN" 255 \
	"failed to load private key $rsa_uri from its PKCS#11 token: PIN incorrect" \
	pskel -S -k "$rsa_uri?pin-source=file:$WORK/wrongpin.txt" -i "$P/rsa.pem"
expect_err "pkcs11: no PIN given" 255 \
	"failed to load private key $rsa_uri from its PKCS#11 token: processing error (no PIN given: set BPFTOOL_SIGN_PIN or pin-source in the URI)" \
	pskel -S -k "$rsa_uri" -i "$P/rsa.pem"
expect_err "pkcs11: missing object" 255 \
	"failed to load private key pkcs11:token=bpf-tests;object=nokey from its PKCS#11 token: object not found" \
	pskel -S -k "pkcs11:token=bpf-tests;object=nokey?pin-source=file:$WORK/pin.txt" -i "$P/rsa.pem"
expect_err "pkcs11: missing token" 255 \
	"failed to load private key pkcs11:token=notoken;object=rsa from its PKCS#11 token: object not found" \
	pskel -S -k "pkcs11:token=notoken;object=rsa?pin-source=file:$WORK/pin.txt" -i "$P/rsa.pem"
expect_err "pkcs11: token-less URI" 255 \
	"pkcs11:object=rsa: the PKCS#11 URI names no token: add token=LABEL (or serial=)" \
	pskel -S -k "pkcs11:object=rsa?pin-source=file:$WORK/pin.txt" -i "$P/rsa.pem"
expect_err "pkcs11: pin-source file missing" 255 \
	"failed to read the passphrase from pin-source file:$WORK/nopin.txt: No such file or directory" \
	pskel -S -k "$rsa_uri?pin-source=file:$WORK/nopin.txt" -i "$P/rsa.pem"
expect_err "pkcs11: certificate not on the token" 255 \
	"failed to load certificate pkcs11:token=bpf-tests;object=nocert;type=cert from its PKCS#11 token: object not found" \
	pskel -S -k "$rsa_uri?pin-source=file:$WORK/pin.txt" -i "pkcs11:token=bpf-tests;object=nocert;type=cert"
cp "$P/ec.lskel.h" keep.h
expect_err "pkcs11: prog sign with a wrong PIN" 255 \
	"failed to load private key $rsa_uri from its PKCS#11 token: PIN incorrect" \
	"$BPFTOOL_DYNAMIC" -k "$rsa_uri?pin-source=file:$WORK/wrongpin.txt" -i "$P/rsa.pem" prog sign file keep.h out new.h
expect_eq "pkcs11: prog sign with a wrong PIN: header unchanged, no output file" \
	"$(sha256sum <"$P/ec.lskel.h")|absent" "$(sha256sum <keep.h)|$([ -e new.h ] && echo present || echo absent)"

# --- PINs: one reader for pin-source and BPFTOOL_SIGN_PIN=file: ---
expect_status "pkcs11: pin-value signs" 0 pskel -S -k "$rsa_uri;pin-value=1234" -i "$P/rsa.pem"
expect_eq "pkcs11: pin-value: a warning that argv is readable, the PIN not shown" \
	"warning: $rsa_uri: a pin-value in the command line can be read by other users (/proc/PID/cmdline): prefer pin-source=file:PATH or BPFTOOL_SIGN_PIN" \
	"$(cat "$WORK/err")"
cp pin.txt shared-pin.txt
chmod 644 shared-pin.txt
expect_status "pkcs11: a PIN file others may read still signs" 0 \
	pskel -S -k "$rsa_uri?pin-source=file:$WORK/shared-pin.txt" -i "$P/rsa.pem"
expect_eq "pkcs11: a PIN file others may read: a warning" \
	"warning: $WORK/shared-pin.txt may be read by others than its owner (mode 0644): make it private (chmod 600)" \
	"$(cat "$WORK/err")"
expect_status "pkcs11: a private PIN file: no warning" 0 \
	pskel -S -k "$rsa_uri?pin-source=file:$WORK/pin.txt" -i "$P/rsa.pem"
expect_eq "pkcs11: a private PIN file: nothing on stderr" "" "$(cat "$WORK/err")"
# a first line longer than the PIN buffer (256 bytes) is refused, not cut
# to a prefix that would count as a wrong PIN towards the token's lockout
printf '1234%0300d\n' 0 >long-pin.txt
chmod 600 long-pin.txt
expect_err "pkcs11: a PIN longer than bpftool takes" 255 \
	"passphrase in pin-source file:$WORK/long-pin.txt is too long" \
	pskel -S -k "$rsa_uri?pin-source=file:$WORK/long-pin.txt" -i "$P/rsa.pem"

# --- Signed later: gen skeleton -S without a key ---
make_key later -algorithm RSA -pkeyopt rsa_keygen_bits:2048
expect_status "gen skeleton -S without -k and -i: exit 0" 0 skel -S
cp "$WORK/out" later.h
expect_eq "gen skeleton -S without a key: says on stderr that it is not signed yet" \
	"the light skeleton is not signed yet (-S without -k): sign its payload ('bpftool prog sign file HEADER payload FILE') and attach the signature ('bpftool prog sign file HEADER attach SIGFILE -i CERT')" \
	"$(cat "$WORK/err")"
expect_eq "gen skeleton -S without a key: the placeholder signature is one zero byte" 00 \
	"$("$BLOB" dump opts_sig later.h | od -An -tx1 | tr -d ' \n')"
expect_eq "gen skeleton -S without a key: opts_excl_hash is the loader's digest" \
	"$(openssl dgst -sha256 -r "$T/fentry_count.opts_insn.bin" | cut -c1-64)" \
	"$("$BLOB" dump opts_excl_hash later.h | od -An -v -tx1 | tr -d ' \n')"
expect_err "prog verify file: a header waiting for its signature" 1 \
	"later.h is not signed yet (generated with -S but no key): attach a signature with 'bpftool prog sign file later.h attach SIGFILE'" \
	"$BPFTOOL" prog verify file later.h -i "$WORK/later.crt"
expect_err "gen skeleton -S with -i but no -k" 255 \
	"-i <identity_x509_cert> and -k <private_key> must be supplied with -S for signing (or neither, for a header signed later)" \
	"$BPFTOOL" -S -i "$WORK/later.crt" gen skeleton "$obj" name fentry_count
expect_err "prog load -S without a key" 255 \
	"-i <identity_x509_cert> and -k <private_key> must be supplied with -S for signing" \
	"$BPFTOOL" -S prog load "$obj" /sys/fs/bpf/never
expect_status "signed later: prog sign payload needs no key" 0 \
	"$BPFTOOL" prog sign file later.h payload later.payload
expect_eq "signed later: the payload is the loader and its metadata" \
	"$(cat "$T/fentry_count.opts_insn.bin" "$T/fentry_count.opts_data.bin" | sha256sum)" \
	"$(sha256sum <later.payload)"
cms_sign later.payload "$WORK/later.crt" "$WORK/later.key" later.sig
expect_status "signed later: prog verify checks the signature before it is attached" 0 \
	"$BPFTOOL" prog verify file later.h -i "$WORK/later.crt" signature later.sig
expect_status "signed later: prog sign attach" 0 \
	"$BPFTOOL" -i "$WORK/later.crt" prog sign file later.h attach later.sig
expect_status "signed later: prog verify file: verified" 0 \
	"$BPFTOOL" prog verify file later.h -i "$WORK/later.crt"
expect_status "signed later: gen skeleton -S with the key" 0 \
	skel -S -k "$WORK/later.key" -i "$WORK/later.crt"
expect_eq "signed later: byte for byte the header gen skeleton -S gives with the key" \
	"$(sha256sum <"$WORK/out")" "$(sha256sum <later.h)"
