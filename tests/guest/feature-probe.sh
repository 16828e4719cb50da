#!/usr/bin/env bash
# bpftool feature probe's "signing" section on the patched kernel: every
# feature available, the keyrings as /proc/keys lists them, the same answer
# in plain, JSON and macros output, and nothing left behind by the probes.
# (tests/pristine/old-kernel.sh checks the answers on a kernel without the
# series.)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$WORK"

features="prog_signature fd_array_cnt exclusive_maps map_hash"
keyrings="builtin_trusted_keyring:.builtin_trusted_keys secondary_trusted_keyring:.secondary_trusted_keys platform_keyring:.platform"
# what /proc/keys says, read here: "... keyring   NAME: ..."
listed() { awk -v n="$1:" '$8 == "keyring" && $9 == n { f = 1 } END { print f ? "true" : "false" }' /proc/keys; }

progs_before=$("$BPFTOOL" -j prog show | jq length)
maps_before=$("$BPFTOOL" -j map show | jq length)
expect_status "feature probe kernel -j: exit 0" 0 "$BPFTOOL" -j feature probe kernel
cp "$WORK/out" probe.json
for f in $features; do
	expect_eq "feature probe -j: have_$f is true" true "$(jq -r ".signing.have_$f" probe.json)"
done
expect_eq "feature probe -j: the builtin trusted keyring is listed in /proc/keys" true \
	"$(listed .builtin_trusted_keys)"
for k in $keyrings; do
	expect_eq "feature probe -j: have_${k%%:*} is what /proc/keys says" \
		"$(listed "${k#*:}")" "$(jq -r ".signing.have_${k%%:*}" probe.json)"
done
expect_eq "feature probe -j: the signing section has exactly 7 answers" 7 \
	"$(jq '.signing | length' probe.json)"
expect_eq "feature probe: no program left behind" "$progs_before" "$("$BPFTOOL" -j prog show | jq length)"
expect_eq "feature probe: no map left behind" "$maps_before" "$("$BPFTOOL" -j map show | jq length)"

expect_status "feature probe kernel (plain): exit 0" 0 "$BPFTOOL" feature probe kernel
# the section as an operator reads it, for the log
sed -n '/^Scanning program signing features\.\.\.$/,/^$/p' "$WORK/out"
expect_eq "feature probe (plain): the section's title" 1 \
	"$(grep -cx 'Scanning program signing features...' "$WORK/out")"
expect_eq "feature probe (plain): program signatures are available" 1 \
	"$(grep -cx 'Program signature check at load (signature, keyring_id) is available' "$WORK/out")"
expect_eq "feature probe (plain): exclusive maps are available" 1 \
	"$(grep -cx 'Exclusive maps (excl_prog_hash) is available' "$WORK/out")"

expect_status "feature probe kernel macros prefix BPF_: exit 0" 0 \
	"$BPFTOOL" feature probe kernel macros prefix BPF_
expect_eq "feature probe macros: one define per answer, as in JSON" \
	"$(jq -r '.signing | to_entries[] | "#define BPF_\(if .value then "" else "NO_" end)\(.key | ascii_upcase)"' probe.json)" \
	"$(sed -n '/^\/\*\*\* Program signing \*\*\*\/$/,/^$/p' "$WORK/out" | grep '^#define')"
