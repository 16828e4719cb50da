#!/usr/bin/env bash
# BPF_OBJ_GET_INFO_BY_FD map hashes: the refusals, and the hash itself
# against openssl over the value area rebuilt here byte by byte.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

run_tool map_hash errors

# expected_area VSIZE ENTRIES: element i is bytes (i*VSIZE + j) & 0xff,
# padded with zeros to a multiple of 8 (the kernel's element size).
expected_area() {
	local vsize=$1 n=$2 i j pad
	pad=$(((8 - vsize % 8) % 8))
	for ((i = 0; i < n; i++)); do
		for ((j = 0; j < vsize; j++)); do printf '%02x' $(((i * vsize + j) & 0xff)); done
		for ((j = 0; j < pad; j++)); do printf '00'; done
	done | xxd -r -p
}
for shape in "8 1" "5 3" "64 16" "4000 3" "1 300"; do
	set -- $shape
	want=$(expected_area "$1" "$2" | openssl dgst -sha256 -r | cut -d' ' -f1)
	expect_eq "map hash: ARRAY value_size $1 max_entries $2 matches openssl" \
		"$want" "$("$T/map_hash" hash "$1" "$2")"
done
