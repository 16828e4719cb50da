#!/usr/bin/env bash
# libbpf's internal SHA-256 agrees with openssl on lengths around the block
# and padding boundaries.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

for len in 0 1 3 55 56 57 63 64 65 119 120 128 1000 65536 1048577; do
	head -c "$len" /dev/urandom >"$WORK/in"
	want=$(openssl dgst -sha256 -r "$WORK/in" | cut -d' ' -f1)
	expect_eq "libbpf_sha256: $len bytes" "$want" "$("$T/sha256_check" <"$WORK/in")"
done
# A known answer, so that a broken openssl cannot hide a broken helper.
expect_eq "libbpf_sha256: 'abc' known answer" \
	ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad \
	"$(printf abc | "$T/sha256_check")"
