#!/usr/bin/env bash
# bpftool built with SKIP_CRYPTO=1 (no libcrypto): no "crypto" feature,
# every signing request refused with one clear error, and
# unsigned light skeletons byte-identical to the full build's.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

tree=$("$REPO_ROOT/scripts/prepare-tree")
build=$OUT/bpftool-nocrypto
mkdir -p "$build"
if ! make -s -C "$tree/tools/bpf/bpftool" OUTPUT="$build/" SKIP_CRYPTO=1 -j"$(nproc)" \
	>"$WORK/build.log" 2>&1; then
	fail "SKIP_CRYPTO=1: bpftool builds" "$(tail -c 500 "$WORK/build.log")"
	exit 1
fi
pass "SKIP_CRYPTO=1: bpftool builds"
nc=$build/bpftool

if ldd "$nc" 2>/dev/null | grep libcrypto >/dev/null; then
	fail "SKIP_CRYPTO=1: not linked with libcrypto" "$(ldd "$nc" | grep libcrypto)"
else
	pass "SKIP_CRYPTO=1: not linked with libcrypto"
fi
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
