#!/usr/bin/env bash
# What an operator sees with bpftool prog show / map show: digests,
# signature verdicts, the loader behind a light skeleton's programs,
# map hashes and exclusive owners; plain and JSON output golden-compared with the
# variable parts masked, JSON checked with jq.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$WORK"

keyctl new_session >/dev/null
keyctl padd asymmetric "" @s <"$T/keys/signer.der" >/dev/null
serial=$(keyctl show @s | awk '/keyring: _ses/ { print $1; exit }')
skid=$(openssl x509 -in "$T/keys/signer.pem" -noout -ext subjectKeyIdentifier |
	tail -1 | tr -d ' :' | tr 'A-F' 'a-f')
loader=$(cat "$T/fentry_count.loader.sha256")
key=$(key_digest "$T/keys/signer.pem")
dir=/sys/fs/bpf/operator
mkdir -p "$dir"

mask() {
	sed -E -e 's/^[0-9]+:/<ID>:/' -e 's/[0-9a-f]{64}/<SHA256>/g' \
		-e 's/tag [0-9a-f]{16}/tag <TAG>/' -e 's/loaded_at [^ ]+/loaded_at <TIME>/' \
		-e 's/keyring user -?[0-9]+/keyring user <SERIAL>/g' \
		-e 's/signer [0-9a-f]+/signer <SKID>/g' -e 's/(btf_id|memlock|xlated|jited|map_ids|pids) [^ ]+/\1 <N>/g'
}
# A signed light skeleton's programs, pinned; the loader is long gone.
expect_status "signed light skeleton loads and pins its programs" 0 \
	"$T/lskel_run" pin "$dir" session
"$BPFTOOL" prog show pinned "$dir/on_entry" >lskel.txt
mask <lskel.txt >lskel.masked
golden lskel.masked prog-show-lskel.txt
"$BPFTOOL" -j prog show pinned "$dir/on_entry" >lskel.json
mask_json <lskel.json >lskel.json.masked
golden lskel.json.masked prog-show-lskel.json
expect_eq "lskel prog: JSON digest starts with the tag" \
	"$(jq -r .tag lskel.json)" "$(jq -r '.digest | ltrimstr("sha256:") | .[0:16]' lskel.json)"
expect_eq "lskel prog: itself unsigned" unsigned "$(jq -r .signature.verdict lskel.json)"
expect_eq "lskel prog: loader digest = SHA-256 of the header's loader" \
	"sha256:$loader" "$(jq -r .loader.digest lskel.json)"
expect_eq "lskel prog: loader verified" verified "$(jq -r .loader.signature.verdict lskel.json)"
expect_eq "lskel prog: loader keyring is a user keyring" user \
	"$(jq -r .loader.signature.keyring lskel.json)"
expect_eq "lskel prog: loader keyring serial is the session keyring" "$serial" \
	"$(jq -r .loader.signature.keyring_serial lskel.json)"
expect_eq "lskel prog: loader signer = the certificate's SKID" "$skid" \
	"$(jq -r .loader.signature.signer.key_id lskel.json)"
expect_eq "lskel prog: loader signer key = openssl SHA-256 of the certificate's key" "sha256:$key" \
	"$(jq -r .loader.signature.signer.key lskel.json)"
expect_eq "lskel prog: loader's signature covers its metadata map" 1 \
	"$(jq -r .loader.signature.covers_maps lskel.json)"
expect_eq "lskel prog: loader digest = what prog verify prints offline for the header" \
	"$("$BPFTOOL" -j prog verify file "$T/fentry_count.lskel.h" -i "$T/keys/signer.pem" | jq -r .loader_digest)" \
	"$(jq -r .loader.digest lskel.json)"
expect_eq "lskel prog: plain output names the loader" \
	"	loader sha256:$loader  signature verified  keyring user $serial  signer $skid  covers 1 map" \
	"$(grep -P '^\tloader ' lskel.txt)"

# A directly signed program, and an unsigned one.
"$T/sig_load" dump-nomap nomap.bin
cms_sign nomap.bin "$T/keys/signer.pem" "$T/keys/signer.key" nomap.der
"$T/sig_load" load --sig nomap.der --keyring -3 --pin "$dir/signed" >/dev/null
"$T/sig_load" load --pin "$dir/unsigned" >/dev/null
digest=$(openssl dgst -sha256 -r nomap.bin | cut -c1-64)
"$BPFTOOL" -j prog show pinned "$dir/signed" >signed.json
mask_json <signed.json >signed.json.masked
golden signed.json.masked prog-show-signed.json
expect_eq "signed prog: digest = openssl SHA-256 of its instructions" "sha256:$digest" \
	"$(jq -r .digest signed.json)"
expect_eq "signed prog: verified" verified "$(jq -r .signature.verdict signed.json)"
expect_eq "signed prog: signer = the certificate's SKID" "$skid" \
	"$(jq -r .signature.signer.key_id signed.json)"
expect_eq "signed prog: signer key = openssl SHA-256 of the certificate's key" "sha256:$key" \
	"$(jq -r .signature.signer.key signed.json)"
expect_eq "signed prog: no loader" null "$(jq -r .loader signed.json)"
expect_eq "signed prog: signature over instructions alone covers 0 maps" 0 \
	"$(jq -r .signature.covers_maps signed.json)"
"$BPFTOOL" prog show pinned "$dir/signed" | mask >signed.masked
golden signed.masked prog-show-signed.txt
"$BPFTOOL" -j prog show pinned "$dir/unsigned" >unsigned.json
mask_json <unsigned.json >unsigned.json.masked
golden unsigned.json.masked prog-show-unsigned.json
expect_eq "unsigned prog: unsigned" unsigned "$(jq -r .signature.verdict unsigned.json)"
expect_eq "unsigned prog: no signer" null "$(jq -r .signature.signer unsigned.json)"
expect_eq "unsigned prog: no covers_maps" null "$(jq -r .signature.covers_maps unsigned.json)"
"$BPFTOOL" prog show pinned "$dir/unsigned" | mask >unsigned.masked
golden unsigned.masked prog-show-unsigned.txt
n=$("$BPFTOOL" -j prog show | jq '[.[] | select(.digest | startswith("sha256:"))] | length')
total=$("$BPFTOOL" -j prog show | jq length)
expect_eq "prog show lists a digest for every program" "$total" "$n"

# Maps: content hash of a frozen array, none yet for an unfrozen one,
# exclusive owner.
"$BPFTOOL" map create "$dir/arr" type array key 4 value 8 entries 2 name arr
"$BPFTOOL" map update pinned "$dir/arr" key 1 0 0 0 value 1 2 3 4 5 6 7 8
expect_eq "map: unfrozen array shows no hash line" "" \
	"$("$BPFTOOL" map show pinned "$dir/arr" | grep -P '^\thash' || true)"
expect_eq "map: unfrozen array JSON has \"hash\": null" true \
	"$("$BPFTOOL" -j map show pinned "$dir/arr" | jq 'has("hash") and .hash == null')"
"$BPFTOOL" map freeze pinned "$dir/arr"
want=$(printf '0000000000000000''0102030405060708' | xxd -r -p | openssl dgst -sha256 -r | cut -c1-64)
expect_eq "map: frozen array hash = openssl over its values" "	hash sha256:$want" \
	"$("$BPFTOOL" map show pinned "$dir/arr" | grep -P '^\thash ')"
expect_eq "map: frozen array JSON hash" "sha256:$want" \
	"$("$BPFTOOL" -j map show pinned "$dir/arr" | jq -r .hash)"
"$BPFTOOL" map create "$dir/hash" type hash key 4 value 8 entries 2 name h
expect_eq "map: HASH map shows no hash" "" \
	"$("$BPFTOOL" map show pinned "$dir/hash" | grep -P '^\thash' || true)"
expect_eq "map: HASH map JSON has no \"hash\" key" false \
	"$("$BPFTOOL" -j map show pinned "$dir/hash" | jq 'has("hash")')"
"$T/excl_maps" dump insns.bin
excl=$(openssl dgst -sha256 -r insns.bin | cut -c1-64)
"$T/excl_maps" digest "$excl" "$dir" >/dev/null
expect_eq "map: exclusive map names its owner's digest" "sha256:$excl" \
	"$("$BPFTOOL" -j map show pinned "$dir/excl_map" | jq -r .exclusive_to)"
expect_eq "map: owner program's digest is that digest" "sha256:$excl" \
	"$("$BPFTOOL" -j prog show pinned "$dir/owner" | jq -r .digest)"
# The plain output: a last line "exclusive to sha256:DIGEST", the digest
# that prog show prints for the owner program
"$BPFTOOL" -j map show pinned "$dir/excl_map" >excl.json
"$BPFTOOL" map show pinned "$dir/excl_map" >excl.txt
expect_eq "map: plain output of the exclusive map, its last line naming the owner's digest" \
	"$(printf '%s: array  flags 0x0\n\tkey 4B  value 4B  max_entries 1  memlock %sB\n\texclusive to sha256:%s' \
		"$(jq -r .id excl.json)" "$(jq -r .bytes_memlock excl.json)" "$excl")" \
	"$(cat excl.txt)"
expect_eq "map: the owner's plain prog show prints that digest" "	digest sha256:$excl" \
	"$("$BPFTOOL" prog show pinned "$dir/owner" | grep -P '^\tdigest ' || true)"
for m in arr hash; do
	expect_eq "map: no 'exclusive to' line for the non-exclusive $m map (plain)" 0 \
		"$("$BPFTOOL" map show pinned "$dir/$m" | grep -c 'exclusive' || true)"
	expect_eq "map: no \"exclusive_to\" for the non-exclusive $m map (JSON)" false \
		"$("$BPFTOOL" -j map show pinned "$dir/$m" | jq 'has("exclusive_to")' 2>&1)"
done
expect_eq "map: listing all maps still succeeds" 0 \
	"$("$BPFTOOL" map show >/dev/null 2>&1; echo $?)"
rm -rf "$dir"
