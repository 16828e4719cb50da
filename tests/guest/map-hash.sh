#!/usr/bin/env bash
# BPF_OBJ_GET_INFO_BY_FD map hashes: the refusals, and the hash itself
# against openssl over the value area rebuilt here byte by byte.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

run_tool map_hash errors

# expected_area VSIZE ENTRIES: element i is bytes (i*VSIZE + j) & 0xff,
# padded with zeros to a multiple of 8 (the kernel's element size).
expected_area() {
	perl -e 'my ($v, $n) = @ARGV; my $pad = (8 - $v % 8) % 8;
		for my $i (0 .. $n - 1) {
			print map({ chr(($i * $v + $_) & 0xff) } 0 .. $v - 1), "\0" x $pad;
		}' "$1" "$2"
}
for shape in "8 1" "5 3" "64 16" "4000 3" "1 300"; do
	set -- $shape
	want=$(expected_area "$1" "$2" | openssl dgst -sha256 -r | cut -d' ' -f1)
	expect_eq "map hash: ARRAY value_size $1 max_entries $2 matches openssl" \
		"$want" "$("$T/map_hash" hash "$1" "$2")"
done

# --- Maps larger than the 64 KiB the kernel hashes at a time, made with
# bpftool map create/update/freeze and filled with known bytes that never
# repeat at a 64 KiB distance (AES-CTR keystream, zero bytes made 0x01),
# their hash read back through bpftool map show: 40 values of 4096 bytes
# (160 KiB, no padding), 17 of 4099 (each padded with 5 zero bytes to
# 4104; 69 768 bytes, the first chunk ends inside value 15) and one of
# 102 403 bytes (100 KiB + 3, padded with 5) ---
big=/sys/fs/bpf/map_hash_big
rm -f "$big"
for shape in "4096 40" "4099 17" "102403 1"; do
	set -- $shape
	vsize=$1 n=$2 pad=$(((8 - $1 % 8) % 8))
	head -c $((vsize * n)) /dev/zero |
		openssl enc -aes-128-ctr -K 000102030405060708090a0b0c0d0e0f -iv "$(printf '%032x' "$vsize")" |
		tr '\000' '\001' >"$WORK/values.bin"
	# the value area as the kernel lays it out: each value, then its padding
	perl -e 'my ($v, $pad) = @ARGV; local $/ = \$v;
		while (my $x = <STDIN>) { print $x, "\0" x $pad }' "$vsize" "$pad" \
		<"$WORK/values.bin" >"$WORK/area.bin"
	want=$(openssl dgst -sha256 -r "$WORK/area.bin" | cut -c1-64)
	ok=1
	"$BPFTOOL" map create "$big" type array key 4 value "$vsize" entries "$n" name big || ok=0
	# one line of hex bytes per value
	i=0
	while read -r -a hex && [ "$ok" = 1 ]; do
		"$BPFTOOL" map update pinned "$big" key $((i & 255)) $((i >> 8)) 0 0 \
			value hex "${hex[@]}" || ok=0
		i=$((i + 1))
	done < <(perl -e 'my $v = shift; local $/ = \$v;
		while (my $x = <STDIN>) { print join(" ", unpack("(H2)*", $x)), "\n" }' "$vsize" \
		<"$WORK/values.bin")
	[ "$i" = "$n" ] || ok=0
	"$BPFTOOL" map freeze pinned "$big" || ok=0
	expect_eq "map hash: ARRAY value_size $vsize max_entries $n: built with bpftool, value area over 64 KiB" \
		"1 $((n * (vsize + pad)))" "$ok $(stat -c %s "$WORK/area.bin")"
	[ $((n * (vsize + pad))) -gt 65536 ] || fail "map hash: shape $vsize x $n is over 64 KiB"
	expect_eq "map hash: ARRAY value_size $vsize max_entries $n: JSON hash = openssl over the padded values" \
		"sha256:$want" "$("$BPFTOOL" -j map show pinned "$big" | jq -r .hash 2>&1)"
	expect_eq "map hash: ARRAY value_size $vsize max_entries $n: plain hash line" "	hash sha256:$want" \
		"$("$BPFTOOL" map show pinned "$big" 2>&1 | grep -P '^\thash' || true)"
	rm -f "$big"
done
# --- What bpftool map show makes of it, on a program's global data loaded
# by libbpf: .data and .bss are not frozen (no hash yet: no plain line,
# "hash": null), .rodata is frozen and shows its hash ---
pin=/sys/fs/bpf/map_hash_prog
rm -f "$pin"
CLEANUP+=("$pin")
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
