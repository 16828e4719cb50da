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

# --- What bpftool map show makes of it, on a program's global data loaded
# by libbpf: .data and .bss are not frozen (no hash yet: no plain line,
# "hash": null), .rodata is frozen and shows its hash ---
pin=/sys/fs/bpf/map_hash_prog
rm -f "$pin"
trap 'rm -f "$pin"; rm -rf "$WORK"' EXIT
expect_status "map show: bpftool prog load sign_min.bpf.o" 0 \
	"$BPFTOOL" prog load "$T/sign_min.bpf.o" "$pin"
# map_id SECTION: the id of the program's map for SECTION (data, bss,
# rodata), named OBJECT.SECTION
map_id() {
	local id
	for id in $("$BPFTOOL" -j prog show pinned "$pin" | jq -r '.map_ids[]'); do
		if "$BPFTOOL" -j map show id "$id" | jq -e --arg s "$1" '.name | split(".") | last == $s' >/dev/null; then
			echo "$id"
			return
		fi
	done
}
for sec in .data .bss; do
	id=$(map_id "${sec#.}")
	expect_eq "map show: $sec is an array, not frozen" "array 0" \
		"$("$BPFTOOL" -j map show id "${id:-0}" | jq -r '"\(.type) \(.frozen)"' 2>&1)"
	expect_eq "map show: unfrozen $sec array has no hash line" "" \
		"$("$BPFTOOL" map show id "${id:-0}" 2>&1 | grep -P '^\thash' || true)"
	expect_eq "map show: unfrozen $sec array JSON has \"hash\": null" true \
		"$("$BPFTOOL" -j map show id "${id:-0}" | jq 'has("hash") and .hash == null' 2>&1)"
done
id=$(map_id rodata)
expect_eq "map show: .rodata is an array, frozen" "array 1" \
	"$("$BPFTOOL" -j map show id "${id:-0}" | jq -r '"\(.type) \(.frozen)"' 2>&1)"
# sign_magic = 0x5349474e, little-endian, padded to 8 bytes
want=$(printf '4e474953''00000000' | xxd -r -p | openssl dgst -sha256 -r | cut -c1-64)
expect_eq "map show: frozen .rodata hash = openssl over its value area" "	hash sha256:$want" \
	"$("$BPFTOOL" map show id "${id:-0}" 2>&1 | grep -P '^\thash' || true)"
expect_eq "map show: frozen .rodata JSON hash" "sha256:$want" \
	"$("$BPFTOOL" -j map show id "${id:-0}" | jq -r .hash 2>&1)"
rm -f "$pin"
