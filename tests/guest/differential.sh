#!/usr/bin/env bash
# The kernel and bpftool prog verify must agree on every signature: each
# case signs a light skeleton's loader and metadata (taken from a header
# bpftool generated) in some way, hands the signature to BPF_PROG_LOAD
# (sig_load --insns --meta, as skel_internal.h loads the loader) and to
# "bpftool prog verify file HEADER signature SIG" (offline, no kernel involved;
# the same static bpftool as on the host), and checks
#   - the kernel's exact answer (ok or errno), and
#   - that prog verify accepts (0) exactly when the kernel does, refusing (1)
#     otherwise.
# The table of answers is printed.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$WORK"

H=$T/fentry_count.lskel.h
insns=$T/fentry_count.opts_insn.bin
data=$T/fentry_count.opts_data.bin
expect_eq "the header's metadata is a multiple of 8 bytes (no padding in the signed data)" 0 \
	$(($(stat -c %s "$data") % 8))
cat "$insns" "$data" >signed.bin
excl=$(openssl dgst -sha256 -r "$insns" | cut -c1-64)

make_key rsa2048 -algorithm RSA -pkeyopt rsa_keygen_bits:2048
make_key rsa4096 -algorithm RSA -pkeyopt rsa_keygen_bits:4096
make_key p256 -algorithm EC -pkeyopt ec_paramgen_curve:P-256
make_key p384 -algorithm EC -pkeyopt ec_paramgen_curve:P-384
make_key stranger -algorithm RSA -pkeyopt rsa_keygen_bits:2048
keyctl new_session >/dev/null
ring=$(keyctl newring differential @s)
for k in rsa2048 rsa4096 p256 p384; do
	keyctl padd asymmetric "" "$ring" <"$k.der" >/dev/null
done

# cms OUT KEY [OPENSSL-CMS-OPTIONS...]: a signature over signed.bin; the
# options replace the defaults (-noattr -nocerts -md sha256 -keyid)
cms() {
	local out=$1 k=$2
	shift 2
	[ $# -gt 0 ] || set -- -noattr -nocerts -md sha256 -keyid
	openssl cms -sign -binary -nosmimecap -in signed.bin -signer "$k.crt" -inkey "$k.key" \
		-outform DER -out "$out" "$@"
}

cms rsa2048.sig rsa2048
cms p256.sig p256
cms rsa4096.sig rsa4096
cms p384.sig p384
cms sha384.sig rsa2048 -noattr -nocerts -md sha384 -keyid
cms sha512.sig rsa2048 -noattr -nocerts -md sha512 -keyid
cms p384-sha512.sig p384 -noattr -nocerts -md sha512 -keyid
cms issuer-serial.sig rsa2048 -noattr -nocerts -md sha256
cms signed-attrs.sig rsa2048 -nocerts -md sha256 -keyid
cms with-cert.sig rsa2048 -noattr -md sha256 -keyid
cms sha1.sig rsa2048 -noattr -nocerts -md sha1 -keyid
cms sha224.sig rsa2048 -noattr -nocerts -md sha224 -keyid
cms sha3.sig rsa2048 -noattr -nocerts -md sha3-256 -keyid
# another eContentType than id-data (CMS then requires signed attributes):
# one the kernel's parser does not know, and Authenticode's
cms econtent.sig rsa2048 -nocerts -md sha256 -keyid -econtent_type 1.3.6.1.4.1.2312.16.1
cms authenticode.sig rsa2048 -nocerts -md sha256 -keyid -econtent_type 1.3.6.1.4.1.311.2.1.4
cms stranger.sig stranger
openssl cms -sign -binary -nosmimecap -noattr -nocerts -md sha256 -keyid -in signed.bin \
	-signer rsa2048.crt -inkey rsa2048.key -signer stranger.crt -inkey stranger.key \
	-outform DER -out two-signers.sig
cms_sign "$insns" rsa2048.crt rsa2048.key insns-only.sig
cp rsa2048.sig flipped.sig
flip_byte flipped.sig $(($(stat -c %s rsa2048.sig) - 10))
head -c 100 rsa2048.sig >truncated.sig
head -c 300 /dev/urandom >junk.sig

kernel() {
	"$T/sig_load" load --insns "$insns" --meta "$data" --excl "$excl" --sig "$1" \
		--keyring "$ring" 2>>load.err || true
}

# case NAME SIG CERT KERNEL-ANSWER
printf '%-40s %-14s %s\n' "signature" "kernel" "prog verify" >table
case_() {
	local name=$1 sig=$2 cert=$3 want=$4 got status=0 offline
	got=$(kernel "$sig")
	"$BPFTOOL" -i "$cert.crt" prog verify file "$H" signature "$sig" >/dev/null 2>"$name.err" ||
		status=$?
	case "$status" in
	0) offline=accepts ;;
	1) offline=refuses ;;
	*) offline="error $status" ;;
	esac
	printf '%-40s %-14s %s\n' "$name" "$got" "$offline" >>table
	expect_eq "differential: $name: kernel answers $want" "$want" "$got"
	if { [ "$got" = ok ] && [ "$status" = 0 ]; } || { [ "$got" != ok ] && [ "$status" = 1 ]; }; then
		pass "differential: $name: prog verify agrees with the kernel"
	else
		fail "differential: $name: prog verify agrees with the kernel" \
			"kernel $got, prog verify $offline: $(head -c 300 "$name.err")"
	fi
}

case_ "RSA-2048, SHA-256, key id" rsa2048.sig rsa2048 ok
case_ "ECDSA P-256, SHA-256" p256.sig p256 ok
case_ "RSA-4096, SHA-256" rsa4096.sig rsa4096 ok
case_ "ECDSA P-384, SHA-256" p384.sig p384 ok
case_ "RSA-2048, SHA-384" sha384.sig rsa2048 ok
case_ "RSA-2048, SHA-512" sha512.sig rsa2048 ok
case_ "ECDSA P-384, SHA-512" p384-sha512.sig p384 ok
case_ "signer by issuer and serial" issuer-serial.sig rsa2048 ok
case_ "signed attributes" signed-attrs.sig rsa2048 ok
case_ "certificate embedded" with-cert.sig rsa2048 ok
# SHA-256/384/512 only, on every kernel config (kernel patch 0008)
case_ "SHA-1 digest" sha1.sig rsa2048 EKEYREJECTED
case_ "SHA-224 digest" sha224.sig rsa2048 EKEYREJECTED
case_ "SHA3-256 digest" sha3.sig rsa2048 EKEYREJECTED
case_ "eContentType unknown to the kernel" econtent.sig rsa2048 EINVAL
case_ "eContentType Authenticode, not id-data" authenticode.sig rsa2048 EKEYREJECTED
case_ "signer not in the keyring" stranger.sig rsa2048 ENOKEY
case_ "two signers" two-signers.sig rsa2048 EBADMSG
case_ "over the instructions only" insns-only.sig rsa2048 EKEYREJECTED
case_ "one signature byte flipped" flipped.sig rsa2048 EKEYREJECTED
case_ "truncated" truncated.sig rsa2048 EBADMSG
case_ "random bytes" junk.sig rsa2048 EBADMSG
# prog verify says why a signature over the instructions alone fails
expect_eq "differential: over the instructions only: prog verify names the 6.18 protocol" \
	"Error: insns-only.sig covers the loader's instructions only, as light skeletons of the 6.18 protocol are signed; the kernel checks the instructions and the metadata: regenerate the header with 'gen skeleton -S' or re-sign it with 'prog sign file $H'" \
	"$(cat "over the instructions only.err")"
echo "kernel and prog verify, case by case:"
cat table
