#!/usr/bin/env bash
# bpftool built with SKIP_CRYPTO=1 (no libcrypto): no "crypto" feature,
# every signing request refused with one clear error, and
# unsigned light skeletons byte-identical to the full build's.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

# scripts/build-tools builds it (static, so that the guest runs it too)
nc=$OUT/bpftool-nocrypto/bpftool
expect_eq "SKIP_CRYPTO=1: bpftool was built (out/bpftool-nocrypto/bpftool runs)" 0 \
	"$("$nc" version >/dev/null 2>&1; echo $?)"

# Both are static (out/bpftool, also under SANITIZE=1): libcrypto's assembly
# credits are in one binary only
has_libcrypto() { grep -a -q 'CRYPTOGAMS by <appro@openssl.org>' "$1" && echo yes || echo no; }
expect_eq "SKIP_CRYPTO=1: no libcrypto linked in; the full build has it" "no|yes" \
	"$(has_libcrypto "$nc")|$(has_libcrypto "$OUT/bpftool")"
expect_eq "SKIP_CRYPTO=1: version -j says crypto false" false \
	"$("$nc" -j version | jq .features.crypto)"
expect_eq "full build: version -j says crypto true" true \
	"$("$BPFTOOL" -j version | jq .features.crypto)"

make_key k -algorithm RSA -pkeyopt rsa_keygen_bits:2048
obj=$T/fentry_count.bpf.o
# 255, as every bpftool error
expect_status "SKIP_CRYPTO=1: gen skeleton -S is refused (255)" 255 \
	"$nc" -S -k "$WORK/k.key" -i "$WORK/k.crt" gen skeleton "$obj"
expect_eq "SKIP_CRYPTO=1: ... and says why, on stderr only" \
	"Error: signing is not supported in this build of bpftool (built without libcrypto)|" \
	"$(cat "$WORK/err")|$(cat "$WORK/out")"
"$nc" gen skeleton -L "$obj" name fentry_count >"$WORK/nc.h"
"$BPFTOOL" gen skeleton -L "$obj" name fentry_count >"$WORK/full.h"
expect_eq "SKIP_CRYPTO=1: unsigned gen skeleton -L is byte-identical to the full build's" "" \
	"$(cmp "$WORK/nc.h" "$WORK/full.h" 2>&1)"
"$BPFTOOL" -S -k "$WORK/k.key" -i "$WORK/k.crt" gen skeleton "$obj" name fentry_count >"$WORK/signed.h"
# What needs libcrypto says so; prog verify PROG without -i does not need it
# (tests/guest/prog-verify-loaded.sh runs it in the guest)
expect_err "SKIP_CRYPTO=1: prog verify file" 2 \
	"verification of headers is not supported in this build of bpftool (built without libcrypto)" \
	"$nc" prog verify file "$WORK/signed.h" -i "$WORK/k.crt"
expect_err "SKIP_CRYPTO=1: prog sign file" 255 \
	"signing is not supported in this build of bpftool (built without libcrypto)" \
	"$nc" prog sign file "$WORK/signed.h" -k "$WORK/k.key" -i "$WORK/k.crt" out "$WORK/resigned.h"
expect_eq "SKIP_CRYPTO=1: prog sign file wrote nothing" no "$([ -e "$WORK/resigned.h" ] && echo yes || echo no)"
