#!/usr/bin/env bash
# bpftool gen skeleton -S: a signed light skeleton carries opts_sig, a
# detached PKCS#7 signature over the loader's instructions followed by its
# data, and opts_excl_hash, the SHA-256 of the instructions. The blobs are
# read back from the header by a parser of our own and checked with openssl,
# for RSA and ECDSA keys and PEM and DER certificates; every error is exact
# and leaves stdout empty. A signed header refuses to compile against a
# skel_internal.h that does not load the loader with its metadata.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

unset BPFTOOL_SIGN_PIN

# --- The BPF object: built by tests/Makefile, or here if it is missing ---
obj=$T/sign_min.bpf.o
if [ ! -f "$obj" ]; then
	obj=$WORK/sign_min.bpf.o
	inc=
	for d in "${LIBBPF_INCLUDE:-}" "$OUT/libbpf/include" "$(dirname "$BPFTOOL")/libbpf/include"; do
		if [ -n "$d" ] && [ -f "$d/bpf/bpf_helper_defs.h" ]; then
			inc=$d
			break
		fi
	done
	if [ -z "$inc" ] || ! clang -O2 -g -target bpf -D__TARGET_ARCH_x86 -I "$inc" \
		-c "$TESTS_DIR/progs/sign_min.bpf.c" -o "$obj" 2>"$WORK/clang.log"; then
		fail "build sign_min.bpf.o" "no libbpf headers or clang failed: $(head -c 300 "$WORK/clang.log" 2>/dev/null)"
		exit 1
	fi
fi

# --- An independent reader of the header's blobs ---
# Each blob is one 'static const char NAME[] __attribute__((__aligned__(8)))
# = "\' line followed by lines of \xHH and \0 escapes, ending with '";'.
cat >"$WORK/blobs.py" <<'EOF'
import re
import sys

header, outdir, names = sys.argv[1], sys.argv[2], sys.argv[3:]
text = open(header).read()
token = re.compile(r'\\x([0-9a-f]{2})|\\0')
for name in names:
    start = re.compile(r'^\tstatic const char ' + re.escape(name) +
                       r'\[\] __attribute__\(\(__aligned__\(8\)\)\) = "\\\n'
                       r'(.*?)";$', re.S | re.M)
    found = start.findall(text)
    if len(found) != 1:
        sys.exit(f'{name}: {len(found)} definitions')
    body = found[0].replace('\\\n', '')
    blob, i = bytearray(), 0
    while i < len(body):
        m = token.match(body, i)
        if not m:
            sys.exit(f'{name}: unexpected {body[i:i + 12]!r}')
        blob.append(int(m.group(1), 16) if m.group(1) else 0)
        i = m.end()
    if not blob:
        sys.exit(f'{name}: empty')
    with open(f'{outdir}/{name}.bin', 'wb') as f:
        f.write(blob)
EOF

# flip FILE OFFSET: invert the byte at OFFSET (negative: from the end)
flip() {
	python3 - "$1" "$2" <<'EOF'
import sys
path, off = sys.argv[1], int(sys.argv[2])
data = bytearray(open(path, 'rb').read())
data[off] ^= 0xff
open(path, 'wb').write(data)
EOF
}

hex() { od -An -v -tx1 "$1" | tr -d ' \n'; }
sha256() { openssl dgst -sha256 -r "$1" | cut -d' ' -f1; }

# cms_verify SIG CONTENT CERT_PEM: the signer is not in the signature
cms_verify() {
	openssl cms -verify -binary -inform DER -in "$1" -content "$2" \
		-certfile "$3" -CAfile "$3" -purpose any -out /dev/null >/dev/null 2>&1
}

skel() { "$BPFTOOL" "$@" gen skeleton "$obj" name sign_min; }

# --- Keys and self-signed certificates (subjectKeyIdentifier) ---
make_key rsa2048 -algorithm RSA -pkeyopt rsa_keygen_bits:2048
make_key rsa4096 -algorithm RSA -pkeyopt rsa_keygen_bits:4096
make_key p256 -algorithm EC -pkeyopt ec_paramgen_curve:P-256
make_key p384 -algorithm EC -pkeyopt ec_paramgen_curve:P-384

# --- Signed skeletons ---
# check_signed NAME KEY CERT CERT_PEM
check_signed() {
	local n=$1 key=$2 cert=$3 pem=$4 d=$WORK/out-$1
	mkdir -p "$d"
	if ! skel -S -k "$key" -i "$cert" >"$d/skel.h" 2>"$d/err"; then
		fail "$n: gen skeleton -S" "$(head -c 500 "$d/err")"
		return
	fi
	pass "$n: gen skeleton -S"
	expect_eq "$n: nothing on stderr" "" "$(cat "$d/err")"

	if ! python3 "$WORK/blobs.py" "$d/skel.h" "$d" opts_insn opts_data opts_sig \
		opts_excl_hash 2>"$d/parse"; then
		fail "$n: header blobs" "$(cat "$d/parse")"
		return
	fi
	pass "$n: opts_insn, opts_data, opts_sig and opts_excl_hash parsed"

	local load
	load=$(grep -c -F -x -e '	opts.signature = (void *)opts_sig;' \
		-e '	opts.signature_sz = sizeof(opts_sig) - 1;' \
		-e '	opts.excl_prog_hash = (void *)opts_excl_hash;' \
		-e '	opts.excl_prog_hash_sz = sizeof(opts_excl_hash) - 1;' \
		-e '	opts.keyring_id = skel->keyring_id;' "$d/skel.h" || true)
	expect_eq "$n: load sets signature, excl_prog_hash and keyring_id" 5 "$load"
	expect_eq "$n: skeleton has keyring_id" 1 "$(grep -c -F -x '	__s32 keyring_id;' "$d/skel.h" || true)"

	cat "$d/opts_insn.bin" "$d/opts_data.bin" >"$d/signed"
	if cms_verify "$d/opts_sig.bin" "$d/signed" "$pem"; then
		pass "$n: opts_sig verifies over opts_insn || opts_data"
	else
		fail "$n: opts_sig verifies over opts_insn || opts_data"
	fi
	expect_eq "$n: opts_excl_hash = SHA-256(opts_insn)" "$(sha256 "$d/opts_insn.bin")" \
		"$(hex "$d/opts_excl_hash.bin")"

	if cms_verify "$d/opts_sig.bin" "$d/opts_insn.bin" "$pem"; then
		fail "$n: opts_sig does not verify over opts_insn alone"
	else
		pass "$n: opts_sig does not verify over opts_insn alone"
	fi
	cp "$d/signed" "$d/bad-data"
	flip "$d/bad-data" -1
	cp "$d/signed" "$d/bad-insn"
	flip "$d/bad-insn" 4
	if cms_verify "$d/opts_sig.bin" "$d/bad-data" "$pem" ||
		cms_verify "$d/opts_sig.bin" "$d/bad-insn" "$pem"; then
		fail "$n: opts_sig does not verify with one byte flipped"
	else
		pass "$n: opts_sig does not verify with one byte flipped"
	fi

	# DER, SHA-256, detached, no signed attributes, no certificates,
	# signer by subject key identifier
	openssl cms -cmsout -print -inform DER -in "$d/opts_sig.bin" >"$d/cms.txt" 2>&1 || true
	if grep -q 'eContent: <ABSENT>' "$d/cms.txt" &&
		grep -A1 'certificates:' "$d/cms.txt" | grep '<ABSENT>' >/dev/null &&
		grep -A1 'signedAttrs:' "$d/cms.txt" | grep '<ABSENT>' >/dev/null &&
		grep -A1 'digestAlgorithm:' "$d/cms.txt" | grep 'algorithm: sha256' >/dev/null &&
		grep -q 'd.subjectKeyIdentifier:' "$d/cms.txt"; then
		pass "$n: detached, SHA-256, no attributes nor certificates, signer by key id"
	else
		fail "$n: signature structure" "$(head -c 800 "$d/cms.txt")"
	fi
}

for k in rsa2048 rsa4096 p256 p384; do
	check_signed "$k PEM cert" "$WORK/$k.key" "$WORK/$k.crt" "$WORK/$k.crt"
	check_signed "$k DER cert" "$WORK/$k.key" "$WORK/$k.der" "$WORK/$k.crt"
done

# Reproducible with RSA; with ECDSA only the signature changes
if skel -S -k "$WORK/rsa2048.key" -i "$WORK/rsa2048.crt" >"$WORK/again.h" 2>/dev/null &&
	cmp -s "$WORK/again.h" "$WORK/out-rsa2048 PEM cert/skel.h"; then
	pass "rsa2048: two runs give the same header"
else
	fail "rsa2048: two runs give the same header"
fi
if skel -L -S -k "$WORK/rsa2048.key" -i "$WORK/rsa2048.der" >"$WORK/ls.h" 2>/dev/null &&
	cmp -s "$WORK/ls.h" "$WORK/out-rsa2048 PEM cert/skel.h"; then
	pass "-L -S with a DER cert gives the same header as -S with PEM"
else
	fail "-L -S with a DER cert gives the same header as -S with PEM"
fi
openssl x509 -in "$WORK/rsa2048.crt" -text >"$WORK/rsa2048-text.crt"
if skel -S -k "$WORK/rsa2048.key" -i "$WORK/rsa2048-text.crt" >"$WORK/text.h" 2>/dev/null &&
	cmp -s "$WORK/text.h" "$WORK/out-rsa2048 PEM cert/skel.h"; then
	pass "PEM cert after text (openssl x509 -text) gives the same header"
else
	fail "PEM cert after text (openssl x509 -text) gives the same header"
fi
if skel -S -k "$WORK/p256.key" -i "$WORK/p256.crt" >"$WORK/p256.h" 2>/dev/null &&
	cmp -s <(sed '/static const char opts_sig\[\]/,/";$/d' "$WORK/p256.h") \
		<(sed '/static const char opts_sig\[\]/,/";$/d' "$WORK/out-p256 PEM cert/skel.h"); then
	pass "p256: two runs differ at most in opts_sig"
else
	fail "p256: two runs differ at most in opts_sig"
fi

# The header compiles against the patched skel_internal.h and UAPI headers
# The cached tree of scripts/prepare-tree, without preparing it
cached_tree() {
	(
		. "$REPO_ROOT/scripts/config.sh"
		tree_dir
	) 2>/dev/null || true
}
root=
for r in "${KERNEL_TREE:-}" "$(dirname "$BPFTOOL")/../../.." "$(cached_tree)"; do
	if [ -n "$r" ] && grep -q keyring_id "$r/tools/lib/bpf/skel_internal.h" 2>/dev/null &&
		grep -q keyring_id "$r/tools/include/uapi/linux/bpf.h" 2>/dev/null; then
		root=$r
		break
	fi
done
cat >"$WORK/use.c" <<'EOF'
#include <linux/keyctl.h>
#include "skel.h"

int main(void)
{
	struct sign_min *skel = sign_min__open();

	if (!skel)
		return 1;
	skel->keyring_id = KEY_SPEC_SESSION_KEYRING;
	if (sign_min__load(skel))
		return 2;
	sign_min__destroy(skel);
	return 0;
}
EOF
if [ -z "$root" ]; then
	fail "signed skeleton compiles" "no tree with the patched skel_internal.h (set KERNEL_TREE)"
elif gcc -Wall -Werror -O2 -I "$WORK/out-rsa2048 PEM cert" -I "$root/tools/lib" \
	-I "$root/tools/include/uapi" -c "$WORK/use.c" -o "$WORK/use.o" 2>"$WORK/gcc.log"; then
	pass "signed skeleton compiles"
else
	fail "signed skeleton compiles" "$(head -c 500 "$WORK/gcc.log")"
fi

# --- Unsigned light skeletons are unchanged ---
if skel -L >"$WORK/unsigned.h" 2>"$WORK/err"; then
	pass "gen skeleton -L"
	if grep -q 'opts_sig\|opts_excl_hash\|keyring_id\|opts.signature' "$WORK/unsigned.h"; then
		fail "gen skeleton -L has no signature" "$(grep -m3 'opts_sig\|opts_excl_hash\|keyring_id' "$WORK/unsigned.h")"
	else
		pass "gen skeleton -L has no signature"
	fi
	mkdir -p "$WORK/unsigned"
	if python3 "$WORK/blobs.py" "$WORK/unsigned.h" "$WORK/unsigned" opts_insn opts_data 2>"$WORK/parse"; then
		pass "gen skeleton -L: opts_insn and opts_data parsed"
	else
		fail "gen skeleton -L: opts_insn and opts_data parsed" "$(cat "$WORK/parse")"
	fi
else
	fail "gen skeleton -L" "$(head -c 500 "$WORK/err")"
fi

# --- The protocol marker: a signed header needs the skel_internal.h that
# loads the loader with its metadata (BPF_SKEL_SIGNED_METADATA) ---
signed_h="$WORK/out-rsa2048 PEM cert/skel.h"
marker='#error "signed light skeleton: skel_internal.h must load the loader with its metadata map and fd_array_cnt = 1 (BPF_SKEL_SIGNED_METADATA), or the kernel refuses the signature; build with the libbpf of the bpftool that generated this header"'
expect_eq "signed header: the protocol check right after the skel_internal.h include" \
	"#include <bpf/skel_internal.h>||#ifndef BPF_SKEL_SIGNED_METADATA|$marker|#endif" \
	"$(grep -A 4 -x -F '#include <bpf/skel_internal.h>' "$signed_h" | paste -sd'|')"
expect_eq "unsigned header has no protocol check" 0 \
	"$(grep -c 'BPF_SKEL_SIGNED_METADATA' "$WORK/unsigned.h" || true)"
# A copy of the patched libbpf headers whose skel_internal.h lacks the
# define, as a skel_internal.h of the 6.18 protocol does
mkdir -p "$WORK/inc-signed" "$WORK/inc-unsigned" "$WORK/oldlib/bpf"
cp "$signed_h" "$WORK/inc-signed/skel.h"
cp "$WORK/unsigned.h" "$WORK/inc-unsigned/skel.h"
cat >"$WORK/use-unsigned.c" <<'EOF'
#include "skel.h"

int main(void)
{
	struct sign_min *skel = sign_min__open_and_load();

	if (!skel)
		return 1;
	sign_min__destroy(skel);
	return 0;
}
EOF
# compile NAME WANT INCLUDE_DIR LIB_DIR SOURCE [GCC_OPTIONS...]: WANT is
# "ok", or the compiler's error lines
compile() {
	local name=$1 want=$2 inc=$3 lib=$4 src=$5 got
	shift 5
	if [ -z "$root" ]; then
		fail "$name" "no tree with the patched skel_internal.h (set KERNEL_TREE)"
		return
	fi
	if gcc -Wall -Werror -O2 "$@" -I "$inc" -I "$lib" -I "$root/tools/include/uapi" \
		-c "$src" -o "$WORK/marker.o" 2>"$WORK/gcc.log"; then
		got=ok
	else
		got=$(grep -o 'error: .*' "$WORK/gcc.log" || head -c 500 "$WORK/gcc.log")
	fi
	expect_eq "$name" "$want" "$got"
}
if [ -n "$root" ]; then
	cp "$root"/tools/lib/bpf/*.h "$WORK/oldlib/bpf/"
	sed -i '/^#define BPF_SKEL_SIGNED_METADATA\b/d' "$WORK/oldlib/bpf/skel_internal.h"
fi
expect_eq "the copy of skel_internal.h lacks exactly the define" \
	"$(printf '< #define BPF_SKEL_SIGNED_METADATA\t1')" \
	"$(diff "$root/tools/lib/bpf/skel_internal.h" "$WORK/oldlib/bpf/skel_internal.h" 2>&1 | grep '^[<>]')"
# (against the patched skel_internal.h: "signed skeleton compiles" above)
compile "signed header against a skel_internal.h without the define: the #error" "error: $marker" \
	"$WORK/inc-signed" "$WORK/oldlib" "$WORK/use.c"
compile "signed header against it with -DBPF_SKEL_SIGNED_METADATA compiles" ok \
	"$WORK/inc-signed" "$WORK/oldlib" "$WORK/use.c" -DBPF_SKEL_SIGNED_METADATA
compile "unsigned header against a skel_internal.h without the define compiles" ok \
	"$WORK/inc-unsigned" "$WORK/oldlib" "$WORK/use-unsigned.c"

# --- Errors: exact status and message, nothing on stdout ---

key=$WORK/rsa2048.key
crt=$WORK/rsa2048.crt
expect_err "-S -i without -k" 255 \
	"-i <identity_x509_cert> and -k <private_key> must be supplied with -S for signing (or neither, for a header signed later)" \
	skel -S -i "$crt"
expect_err "-S -k without -i" 255 \
	"-i <identity_x509_cert> and -k <private_key> must be supplied with -S for signing (or neither, for a header signed later)" \
	skel -S -k "$key"
expect_err "-k without -S" 255 \
	"--sign (or -S) must be explicitly passed with -i <identity_x509_cert> and -k <private_key> to sign the programs" \
	skel -L -k "$key"
expect_err "-k -i without -S" 255 \
	"--sign (or -S) must be explicitly passed with -i <identity_x509_cert> and -k <private_key> to sign the programs" \
	skel -k "$key" -i "$crt"
expect_err "missing key file" 255 \
	"failed to open private key $WORK/none.key: No such file or directory" \
	skel -S -k "$WORK/none.key" -i "$crt"
expect_err "missing cert file" 255 \
	"failed to open certificate $WORK/none.crt: No such file or directory" \
	skel -S -k "$key" -i "$WORK/none.crt"
expect_err "key is a directory" 255 "failed to read private key $WORK: Is a directory" \
	skel -S -k "$WORK" -i "$crt"
: >"$WORK/empty.key"
expect_err "empty key file" 255 "private key $WORK/empty.key is empty" \
	skel -S -k "$WORK/empty.key" -i "$crt"

openssl pkey -in "$key" -outform DER -out "$WORK/rsa2048.key.der"
expect_err "DER private key" 255 "private key $WORK/rsa2048.key.der is in DER format, PEM is required" \
	skel -S -k "$WORK/rsa2048.key.der" -i "$crt"
expect_err "certificate given as key" 255 "no private key in PEM file $crt" \
	skel -S -k "$crt" -i "$crt"
expect_err "key does not match cert" 255 \
	"private key $key does not match certificate $WORK/p256.crt" \
	skel -S -k "$key" -i "$WORK/p256.crt"
expect_err "ECDSA key does not match RSA cert (DER)" 255 \
	"private key $WORK/p384.key does not match certificate $WORK/rsa2048.der" \
	skel -S -k "$WORK/p384.key" -i "$WORK/rsa2048.der"

# A certificate without subjectKeyIdentifier: the kernel names a program's
# signer by key id, so bpftool refuses to sign with it (a v1 certificate
# without extensions, and a v3 one made with subjectKeyIdentifier=none)
openssl req -new -key "$key" -subj "/CN=bpftool test no SKI" -out "$WORK/noski.csr"
openssl x509 -req -in "$WORK/noski.csr" -signkey "$key" -days 2 -out "$WORK/noski-v1.crt" 2>/dev/null
openssl req -new -x509 -key "$key" -subj "/CN=bpftool test no SKI" -days 2 \
	-addext subjectKeyIdentifier=none -out "$WORK/noski-v3.crt"
for c in noski-v1 noski-v3; do
	# (gen skeleton exits with 255 on every error)
	expect_err "$c certificate without subjectKeyIdentifier" 255 \
		"certificate $WORK/$c.crt has no subjectKeyIdentifier, by which the kernel names a program's signer: make it with one (openssl req -addext subjectKeyIdentifier=hash)" \
		skel -S -k "$key" -i "$WORK/$c.crt"
done

echo "this is not a certificate" >"$WORK/garbage.crt"
expect_err "garbage cert" 255 "certificate $WORK/garbage.crt is not in DER or PEM format" \
	skel -S -k "$key" -i "$WORK/garbage.crt"
{ printf '\060\202\001\000'; head -c 64 /dev/zero; } >"$WORK/short-der.crt"
expect_err "truncated DER cert" 255 "certificate $WORK/short-der.crt is not in DER or PEM format" \
	skel -S -k "$key" -i "$WORK/short-der.crt"
# DER, but not a certificate: the reason comes from libcrypto
expect_status "DER private key as cert: exit status" 255 \
	skel -S -k "$key" -i "$WORK/rsa2048.key.der"
case "$(cat "$WORK/err")" in
"Error: failed to parse certificate $WORK/rsa2048.key.der: "?*)
	pass "DER private key as cert: message" ;;
*)
	fail "DER private key as cert: message" "$(cat "$WORK/err")" ;;
esac
expect_eq "DER private key as cert: nothing on stdout" 0 "$(wc -c <"$WORK/out")"

openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 -out "$WORK/rsa1024.key" 2>/dev/null
expect_err "RSA-1024 key" 255 \
	"unsupported RSA key size in $WORK/rsa1024.key: 1024 bits, expected 2048, 3072 or 4096" \
	skel -S -k "$WORK/rsa1024.key" -i "$crt"
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-521 -out "$WORK/p521.key"
expect_err "P-521 key" 255 \
	"unsupported elliptic curve in $WORK/p521.key: secp521r1, expected P-256 or P-384" \
	skel -S -k "$WORK/p521.key" -i "$crt"
openssl genpkey -algorithm ED25519 -out "$WORK/ed25519.key"
expect_err "Ed25519 key" 255 "unsupported key type in $WORK/ed25519.key, expected RSA or ECDSA" \
	skel -S -k "$WORK/ed25519.key" -i "$crt"

# Encrypted keys (PKCS#8 and traditional): the passphrase comes from
# BPFTOOL_SIGN_PIN only, bpftool never prompts (stdin is /dev/null).
openssl pkcs8 -topk8 -in "$key" -v2 aes-256-cbc -passout pass:s3cret -out "$WORK/enc8.key"
openssl rsa -in "$key" -aes256 -traditional -passout pass:s3cret -out "$WORK/enctrad.key" 2>/dev/null
for enc in enc8 enctrad; do
	expect_err "$enc key without BPFTOOL_SIGN_PIN" 255 \
		"private key $WORK/$enc.key is encrypted: set BPFTOOL_SIGN_PIN to file:PATH, fd:N or its passphrase" \
		skel -S -k "$WORK/$enc.key" -i "$crt" </dev/null
	expect_err "$enc key with a wrong BPFTOOL_SIGN_PIN" 255 \
		"failed to decrypt private key $WORK/$enc.key with the passphrase in BPFTOOL_SIGN_PIN" \
		env BPFTOOL_SIGN_PIN=wrong "$BPFTOOL" -S -k "$WORK/$enc.key" -i "$crt" \
		gen skeleton "$obj" name sign_min </dev/null
	if env BPFTOOL_SIGN_PIN=s3cret "$BPFTOOL" -S -k "$WORK/$enc.key" -i "$crt" \
		gen skeleton "$obj" name sign_min >"$WORK/$enc.h" 2>"$WORK/err" </dev/null &&
		cmp -s "$WORK/$enc.h" "$WORK/out-rsa2048 PEM cert/skel.h"; then
		pass "$enc key with BPFTOOL_SIGN_PIN signs like the clear key"
	else
		fail "$enc key with BPFTOOL_SIGN_PIN signs like the clear key" "$(head -c 300 "$WORK/err")"
	fi
done

# --- bpftool version lists the crypto feature ---
expect_eq "version lists crypto" 1 \
	"$("$BPFTOOL" version | grep -c '^features:.*[ ,]crypto\(,\|$\)' || true)"
expect_eq "JSON version has \"crypto\": true" true \
	"$("$BPFTOOL" -j version | jq '.features.crypto' 2>/dev/null || true)"
