#!/usr/bin/env bash
# bpftool prog verify { id | pinned | name } on loaded programs: what the
# kernel verified (fdinfo prog_digest, prog_sig*, prog_loader_*), against a
# system keyring unless 'keyring' names another one, by the key of a
# certificate (the key digest the kernel records, not only the key id any
# certificate can copy), or an expected digest. Exit statuses: 0 verified,
# 1 not verified, 2 usage error.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$WORK"

dir=/sys/fs/bpf/prog_verify
rm -rf "$dir"
mkdir -p "$dir/lskel" "$dir/lskel2" "$dir/lskel3" "$dir/lskel4" "$dir/ulskel" "$dir/builtin"
CLEANUP+=("$dir")

keyctl new_session >/dev/null
keyctl padd asymmetric "" @s <"$T/keys/signer.der" >/dev/null
serial=$(keyctl show @s | awk '/keyring: _ses/ { print $1; exit }')
skid=$(skid "$T/keys/signer.pem")
key=$(key_digest "$T/keys/signer.pem")
loader=$(cat "$T/fentry_count.loader.sha256")
openssl req -x509 -newkey rsa:2048 -nodes -keyout other.key -subj "/CN=other" -days 2 \
	-addext subjectKeyIdentifier=hash -out other.pem 2>/dev/null
other=$(skid other.pem)
other_key=$(key_digest other.pem)
bt() { "$BPFTOOL" "$@"; }

# expect_err NAME STATUS MESSAGE COMMAND...
expect_err() {
	local name=$1 status=$2 msg=$3
	shift 3
	expect_status "$name: exit status" "$status" "$@"
	expect_eq "$name: message" "Error: $msg" "$(cat "$WORK/err")"
}
raw() { sed -n "s/^$1:\t//p" "$2"; }
row() { printf '%-22s %s\n' "$1" "$2"; }

# --- A signed light skeleton's program: unsigned itself, its loader signed
# and verified against the session keyring (a user keyring) ---
expect_status "signed light skeleton loads and pins" 0 "$T/lskel_run" pin "$dir/lskel" session
P=$dir/lskel/on_entry
expect_status "lskel prog: verifies with keyring SERIAL and -i PEM" 0 \
	bt prog verify pinned "$P" -i "$T/keys/signer.pem" keyring "$serial"
expect_status "lskel prog: verifies with keyring SERIAL and -i DER" 0 \
	bt prog verify pinned "$P" -i "$T/keys/signer.der" keyring "$serial"
expect_status "lskel prog: verifies with keyring SERIAL, without -i" 0 \
	bt prog verify pinned "$P" keyring "$serial"
# A user keyring is not trusted unless asked for
expect_err "lskel prog: without keyring, a user keyring does not pass" 1 \
	"the program's loader was verified against user keyring $serial, not a system keyring: add 'keyring $serial' to accept that keyring" \
	bt prog verify pinned "$P"
expect_err "lskel prog: with -i, without keyring" 1 \
	"the program's loader was verified against user keyring $serial, not a system keyring: add 'keyring $serial' to accept that keyring" \
	bt prog verify pinned "$P" -i "$T/keys/signer.pem"
expect_err "lskel prog: keyring builtin is not the one" 1 \
	"the program's loader was verified against user keyring $serial, not the one asked for" \
	bt prog verify pinned "$P" keyring builtin
expect_err "lskel prog: another keyring serial is not the one" 1 \
	"the program's loader was verified against user keyring $serial, not the one asked for" \
	bt prog verify pinned "$P" keyring $((serial + 1))
bt -j prog verify pinned "$P" -i "$T/keys/signer.pem" keyring "$serial" >lskel.json || true
mask_json <lskel.json >lskel.json.masked
golden lskel.json.masked prog-verify-lskel.json
expect_eq "lskel prog: JSON facts" \
	"verified|loader|unsigned|sha256:$loader|verified|user|$serial|$skid|sha256:$key|1" \
	"$(jq -r '[.verdict, .verified_by, .signature.verdict, .loader.digest, .loader.signature.verdict, .loader.signature.keyring, .loader.signature.keyring_serial, .loader.signature.signer.key_id, .loader.signature.signer.key, .loader.signature.covers_maps] | join("|")' lskel.json 2>&1)"
digest=$(jq -r .digest lskel.json)
id=$(bt -j prog show pinned "$P" | jq -r .id)
expect_eq "lskel prog: JSON id is the program's" "$id" "$(jq -r .id lskel.json)"
# The kernel's own words, read by the test and not by bpftool
"$T/sig_load" fdinfo "$P" >lskel.fdinfo
expect_eq "lskel prog: digest = fdinfo prog_digest" "sha256:$(raw prog_digest lskel.fdinfo)" "$digest"
expect_eq "lskel prog: fdinfo loader digest = openssl's SHA-256 of the header's loader" \
	"$loader" "$(raw prog_loader_digest lskel.fdinfo)"
expect_eq "lskel prog: fdinfo loader signer = the certificate's SKID" \
	"$skid" "$(raw prog_loader_sig_signer lskel.fdinfo)"
expect_eq "lskel prog: fdinfo loader signer key = openssl SHA-256 of the certificate's key" \
	"$key" "$(raw prog_loader_sig_signer_key lskel.fdinfo)"
expect_eq "lskel prog: fdinfo loader signature covers 1 map" 1 "$(raw prog_loader_sig_maps lskel.fdinfo)"
# lskel_block ID DIGEST: what plain prog verify prints for a program of
# the signed skeleton, verified through its loader
lskel_block() {
	row id: "$1"; row verdict: verified; row 'verified by:' loader; row digest: "$2"
	row signature: unsigned; row 'loader digest:' "sha256:$loader"
	row 'loader signature:' verified; row 'loader keyring:' user
	row 'loader keyring serial:' "$serial"; row 'loader signer key id:' "$skid"
	row 'loader signer key:' "sha256:$key"; row 'loader covers maps:' 1
}
bt prog verify pinned "$P" -i "$T/keys/signer.pem" keyring "$serial" >lskel.txt || true
expect_eq "lskel prog: plain output" "$(lskel_block "$id" "$digest")" "$(cat lskel.txt)"
expect_status "lskel prog: verifies by id" 0 bt prog verify id "$id" -i "$T/keys/signer.pem" keyring "$serial"
expect_err "lskel prog: other certificate" 1 \
	"the program's loader was signed by key sha256:$key (key id $skid), not by the key of certificate other.pem (sha256:$other_key, key id $other)" \
	bt prog verify pinned "$P" -i other.pem keyring "$serial"
expect_status "lskel prog: its own digest" 0 bt prog verify pinned "$P" digest "$digest"
expect_err "lskel prog: the loader's digest (openssl) is not the program's" 1 \
	"program digest $digest is not sha256:$loader" \
	bt prog verify pinned "$P" digest "$loader"
# the right digest does not excuse another signer's certificate, nor,
# with no keyring named, a loader verified against a user keyring
expect_status "lskel prog: its own digest, with a certificate and no keyring" 1 \
	bt prog verify pinned "$P" -i other.pem digest "$digest"
expect_eq "lskel prog: its own digest, with a certificate and no keyring: why" \
	"Error: the program's loader was verified against user keyring $serial, not a system keyring: add 'keyring $serial' to accept that keyring" \
	"$(cat "$WORK/err")"
expect_status "lskel prog: its own digest, with another certificate" 1 \
	bt prog verify pinned "$P" -i other.pem keyring "$serial" digest "$digest"
expect_eq "lskel prog: its own digest, with another certificate: why" \
	"Error: the program's loader was signed by key sha256:$key (key id $skid), not by the key of certificate other.pem (sha256:$other_key, key id $other)" \
	"$(cat "$WORK/err")"
# near misses: the digest with its last hex digit changed, and one whose
# first 8 bytes (the tag) are right and the rest wrong
hex=${digest#sha256:}
last=$(printf '%x' $(( (0x${hex: -1} + 1) % 16 )))
expect_err "lskel prog: its digest with the last digit changed" 1 \
	"program digest $digest is not sha256:${hex:0:63}$last" \
	bt prog verify pinned "$P" digest "sha256:${hex:0:63}$last"
expect_err "lskel prog: its tag followed by another digest's 24 bytes" 1 \
	"program digest $digest is not sha256:${hex:0:16}${loader:16}" \
	bt prog verify pinned "$P" digest "sha256:${hex:0:16}${loader:16}"

# --- prog verify name: every program of that name, one block (plain) or
# one object of a JSON array each ---
expect_status "second signed light skeleton loads and pins" 0 "$T/lskel_run" pin "$dir/lskel2" session
id2=$(bt -j prog show pinned "$dir/lskel2/on_entry" | jq -r .id)
ids=$(printf '%s\n' "$id" "$id2" | sort -n | paste -sd,)
# block ID: the block of program ID, with its own digest
block() { lskel_block "$1" "$(bt -j prog show id "$1" | jq -r .digest)"; }
expect_status "name matching two programs: exit status" 0 \
	bt prog verify name on_entry keyring "$serial"
expect_eq "name matching two programs: two blocks" \
	"$(block "${ids%,*}"; echo; block "${ids#*,}")" "$(cat "$WORK/out")"
expect_status "name matching two programs, JSON: exit status" 0 \
	bt -j prog verify name on_entry keyring "$serial"
expect_eq "name matching two programs, JSON: an array of 2, both verified" "array 2 $ids verified" \
	"$(jq -r '"\(type) \(length) \([.[].id] | sort | map(tostring) | join(",")) \([.[].verdict] | unique | join(","))"' "$WORK/out" 2>&1)"
rm -rf "$dir/lskel2"

# A program that fails fails the whole, wherever it comes: signed, then
# unsigned, then signed again (by id), under one name
expect_status "unsigned light skeleton pins another on_entry" 0 \
	"$T/lskel_run_unsigned" pin "$dir/lskel3" 0
expect_status "a signed light skeleton pins a third on_entry, after it" 0 \
	"$T/lskel_run" pin "$dir/lskel4" session
expect_status "name matching signed, unsigned, signed programs: exit 1" 1 \
	bt prog verify name on_entry keyring "$serial"
uid=$(bt -j prog show pinned "$dir/lskel3/on_entry" | jq -r .id)
expect_eq "name matching three: the error names the failing program's id" \
	"Error: program $uid: neither the program nor its loader is signed" "$(cat "$WORK/err")"
expect_eq "name matching three: the two others are printed as verified" 2 \
	"$(grep -c '^verdict: *verified$' "$WORK/out")"
expect_status "name matching three, JSON: exit 1" 1 \
	bt -j prog verify name on_entry keyring "$serial"
expect_eq "name matching three, JSON: an array of 3, the failing one an object with its id and reason" \
	"3 $uid failed neither the program nor its loader is signed" \
	"$(jq -r '"\(length) " + (.[] | select(.verdict == "failed") | "\(.id) \(.verdict) \(.reason)")' "$WORK/out" 2>&1)"
rm -rf "$dir/lskel3" "$dir/lskel4"
expect_err "name matching no program: a message, exit 2" 2 \
	"no program matches name no_such_prog" bt prog verify name no_such_prog
expect_eq "name matching no program, JSON: one error object" "no program matches name no_such_prog" \
	"$(bt -j prog verify name no_such_prog 2>/dev/null | jq -r .error 2>&1)"

# --- prog verify tag: a tag is over the instructions alone, so the same
# instructions loaded signed and unsigned share it. The program (r0 =
# 0x7a9c5e31; exit, loaded as a syscall program) is this test's own, and
# its tag is taken from openssl's SHA-256, not from the kernel ---
printf '\xb7\0\0\0\x31\x5e\x9c\x7a\x95\0\0\0\0\0\0\0' >tagged.bin
tsum=$(openssl dgst -sha256 -r tagged.bin | cut -c1-64)
tag=${tsum:0:16}
cms_sign tagged.bin "$T/keys/signer.pem" "$T/keys/signer.key" tagged.der
"$T/sig_load" load --insns tagged.bin --sig tagged.der --keyring -3 --pin "$dir/tag-signed" >/dev/null
tid=$(bt -j prog show pinned "$dir/tag-signed" | jq -r .id)
expect_eq "tag: the kernel's tag is the first 8 bytes of openssl's SHA-256" \
	"$tag sha256:$tsum" "$(bt -j prog show id "$tid" | jq -r '"\(.tag) \(.digest)"' 2>&1)"
# tag_block: what plain prog verify prints for the signed program
tag_block() {
	row id: "$tid"; row verdict: verified; row 'verified by:' program; row digest: "sha256:$tsum"
	row signature: verified; row keyring: user; row 'keyring serial:' "$serial"
	row 'signer key id:' "$skid"; row 'signer key:' "sha256:$key"; row 'covers maps:' 0
}
expect_status "tag matching one verified program: exit 0" 0 \
	bt prog verify tag "$tag" -i "$T/keys/signer.pem" keyring "$serial"
expect_eq "tag matching one verified program: plain output, its id and verdict" \
	"$(tag_block)" "$(cat "$WORK/out")"
expect_err "tag matching one program: without keyring, a user keyring does not pass" 1 \
	"the program was verified against user keyring $serial, not a system keyring: add 'keyring $serial' to accept that keyring" \
	bt prog verify tag "$tag"
bt -j prog verify tag "$tag" -i "$T/keys/signer.der" keyring "$serial" >tag.json || true
expect_eq "tag matching one program, JSON: one object of pinned's shape (golden/prog-verify-signed.json)" \
	"$(cat "$TESTS_DIR/golden/prog-verify-signed.json")" "$(mask_json <tag.json 2>&1)"
expect_eq "tag matching one program, JSON facts" \
	"object|$tid|verified|program|sha256:$tsum|verified|user|$serial|$skid|sha256:$key|0" \
	"$(jq -r '[type, .id, .verdict, .verified_by, .digest, .signature.verdict, .signature.keyring, .signature.keyring_serial, .signature.signer.key_id, .signature.signer.key, .signature.covers_maps] | join("|")' tag.json 2>&1)"
# The same instructions again, unsigned: another program, the same tag
"$T/sig_load" load --insns tagged.bin --pin "$dir/tag-unsigned" >/dev/null
tuid=$(bt -j prog show pinned "$dir/tag-unsigned" | jq -r .id)
expect_eq "tag: the unsigned copy is another program with the same tag" "$tag different" \
	"$(bt -j prog show id "$tuid" | jq -r .tag) $([ "$tuid" != "$tid" ] && echo different)"
expect_status "tag shared by a verified and an unsigned program: exit 1" 1 \
	bt prog verify tag "$tag" keyring "$serial"
expect_eq "tag shared: the error names the unsigned program's id" \
	"Error: program $tuid: the program is not signed" "$(cat "$WORK/err")"
expect_eq "tag shared: the verified program is printed with its id, and only it" \
	"$(tag_block)" "$(cat "$WORK/out")"
expect_status "tag shared, JSON: exit 1" 1 bt -j prog verify tag "$tag" keyring "$serial"
expect_eq "tag shared, JSON: an array of 2, each object with its id and verdict" \
	"$(printf '%s\n' "$tid verified program sha256:$tsum verified null" \
		"$tuid failed null null null the program is not signed" | sort -n)" \
	"$(jq -r 'if type == "array" then .[] | "\(.id) \(.verdict) \(.verified_by) \(.digest) \(.signature.verdict) \(.reason)" else "not an array: \(.)" end' \
		"$WORK/out" 2>&1 | sort -n)"
rm -f "$dir/tag-signed" "$dir/tag-unsigned"
# A tag no program has: that of r0 = 0x7a9c5e32; exit, never loaded
none=$(printf '\xb7\0\0\0\x32\x5e\x9c\x7a\x95\0\0\0\0\0\0\0' | openssl dgst -sha256 -r | cut -c1-16)
expect_err "tag matching no program: a message naming it, exit 2" 2 \
	"no program matches tag $none" bt prog verify tag "$none"
expect_eq "tag matching no program: nothing on stdout" 0 "$(wc -c <"$WORK/out")"
expect_eq "tag matching no program, JSON: one error object" "no program matches tag $none" \
	"$(bt -j prog verify tag "$none" 2>/dev/null | jq -r .error 2>&1)"

# --- A directly signed program (sig_load), digest = openssl's ---
"$T/sig_load" dump-nomap nomap.bin
cms_sign nomap.bin "$T/keys/signer.pem" "$T/keys/signer.key" nomap.der
"$T/sig_load" load --sig nomap.der --keyring -3 --pin "$dir/signed" >/dev/null
"$T/sig_load" load --pin "$dir/unsigned" >/dev/null
sum=$(openssl dgst -sha256 -r nomap.bin | cut -c1-64)
expect_status "signed prog: verifies with -i and keyring SERIAL" 0 \
	bt prog verify pinned "$dir/signed" -i "$T/keys/signer.pem" keyring "$serial"
expect_err "signed prog: without keyring, a user keyring does not pass" 1 \
	"the program was verified against user keyring $serial, not a system keyring: add 'keyring $serial' to accept that keyring" \
	bt prog verify pinned "$dir/signed" -i "$T/keys/signer.pem"
expect_status "signed prog: openssl digest" 0 bt prog verify pinned "$dir/signed" digest "$sum"
expect_status "signed prog: sha256: prefix, upper case" 0 \
	bt prog verify pinned "$dir/signed" digest "sha256:$(tr a-f A-F <<<"$sum")"
expect_status "signed prog: -i, digest and keyring" 0 \
	bt prog verify pinned "$dir/signed" -i "$T/keys/signer.pem" digest "$sum" keyring "$serial"
bt -j prog verify pinned "$dir/signed" -i "$T/keys/signer.der" keyring "$serial" | mask_json >signed.json.masked
golden signed.json.masked prog-verify-signed.json
expect_eq "signed prog: JSON" "verified|program|sha256:$sum|verified|user|$serial|$skid|sha256:$key|0|none" \
	"$(bt -j prog verify pinned "$dir/signed" -i "$T/keys/signer.der" keyring "$serial" |
		jq -r '[.verdict, .verified_by, .digest, .signature.verdict, .signature.keyring, .signature.keyring_serial, .signature.signer.key_id, .signature.signer.key, .signature.covers_maps, (.loader // "none")] | join("|")' 2>&1)"
"$T/sig_load" fdinfo "$dir/signed" >signed.fdinfo
expect_eq "signed prog: fdinfo signer key = openssl SHA-256 of the certificate's key" \
	"$key" "$(raw prog_sig_signer_key signed.fdinfo)"
expect_err "signed prog: digest mismatch" 1 "program digest sha256:$sum is not sha256:$loader" \
	bt prog verify pinned "$dir/signed" digest "$loader"
expect_err "signed prog: other certificate" 1 \
	"the program was signed by key sha256:$key (key id $skid), not by the key of certificate other.pem (sha256:$other_key, key id $other)" \
	bt prog verify pinned "$dir/signed" -i other.pem keyring "$serial"

# --- bpftool built without libcrypto (SKIP_CRYPTO=1): digests and keyring
# verdicts need no libcrypto, only -i does ---
nc=$OUT/bpftool-nocrypto/bpftool
expect_status "SKIP_CRYPTO=1 bpftool: signed prog, openssl digest" 0 \
	"$nc" prog verify pinned "$dir/signed" digest "$sum"
expect_eq "SKIP_CRYPTO=1 bpftool: ... JSON as the full build's" \
	"$(bt -j prog verify pinned "$dir/signed" digest "$sum")" \
	"$("$nc" -j prog verify pinned "$dir/signed" digest "$sum" 2>&1)"
expect_err "SKIP_CRYPTO=1 bpftool: digest mismatch" 1 \
	"program digest sha256:$sum is not sha256:$loader" \
	"$nc" prog verify pinned "$dir/signed" digest "$loader"
expect_status "SKIP_CRYPTO=1 bpftool: keyring SERIAL verdict" 0 \
	"$nc" prog verify pinned "$dir/signed" keyring "$serial"
expect_err "SKIP_CRYPTO=1 bpftool: -i" 2 \
	"certificates are not supported in this build of bpftool (built without libcrypto)" \
	"$nc" prog verify pinned "$dir/signed" -i "$T/keys/signer.pem"

# --- Unsigned programs ---
expect_err "unsigned prog with -i" 1 "the program is not signed" \
	bt prog verify pinned "$dir/unsigned" -i "$T/keys/signer.pem"
expect_err "unsigned prog without -i" 1 "the program is not signed" \
	bt prog verify pinned "$dir/unsigned"
expect_err "unsigned prog with keyring" 1 "the program is not signed" \
	bt prog verify pinned "$dir/unsigned" keyring builtin
expect_status "unsigned prog: digest alone matches" 0 \
	bt prog verify pinned "$dir/unsigned" digest "$(bt -j prog show pinned "$dir/unsigned" | jq -r .digest)"
expect_status "unsigned light skeleton loads and pins" 0 "$T/lskel_run_unsigned" pin "$dir/ulskel" 0
expect_err "unsigned lskel prog with -i" 1 "neither the program nor its loader is signed" \
	bt prog verify pinned "$dir/ulskel/on_entry" -i "$T/keys/signer.pem"

# --- Signed with the kernel build's key: verified against the builtin
# keyring, a system keyring, which passes without 'keyring' ---
kkey=$OUT/kernel-signing-key.pem
if [ -f "$kkey" ]; then
	expect_status "kernel build key: light skeleton loads and pins (keyring 0)" 0 \
		"$T/lskel_run_builtin" pin "$dir/builtin" 0
	K=$dir/builtin/on_entry
	expect_status "kernel build key: verifies without keyring" 0 bt prog verify pinned "$K"
	expect_status "kernel build key: verifies with keyring builtin" 0 \
		bt prog verify pinned "$K" keyring builtin
	expect_status "kernel build key: verifies with -i the build key's certificate" 0 \
		bt prog verify pinned "$K" -i "$kkey"
	expect_err "kernel build key: keyring secondary is not the one" 1 \
		"the program's loader was verified against the builtin keyring, not the one asked for" \
		bt prog verify pinned "$K" keyring secondary
	expect_err "kernel build key: the session keyring is not the one" 1 \
		"the program's loader was verified against the builtin keyring, not the one asked for" \
		bt prog verify pinned "$K" keyring "$serial"
	"$T/sig_load" fdinfo "$K" >builtin.fdinfo
	expect_eq "kernel build key: fdinfo loader keyring and signer key" \
		"builtin|$(key_digest "$kkey")" \
		"$(raw prog_loader_sig_keyring builtin.fdinfo)|$(raw prog_loader_sig_signer_key builtin.fdinfo)"
	expect_eq "kernel build key: JSON keyring, no serial, signer key" \
		"loader|builtin|null|sha256:$(key_digest "$kkey")" \
		"$(bt -j prog verify pinned "$K" | jq -r '[.verified_by, .loader.signature.keyring, (.loader.signature.keyring_serial | tostring), .loader.signature.signer.key] | join("|")' 2>&1)"
	# a program signed directly with it, verified against the builtin keyring
	cms_sign nomap.bin "$kkey" "$kkey" nomap-builtin.der
	"$T/sig_load" load --sig nomap-builtin.der --keyring 0 --pin "$dir/kbuiltin" >/dev/null
	expect_status "kernel build key: directly signed program verifies without keyring, -i its certificate" 0 \
		bt prog verify pinned "$dir/kbuiltin" -i "$kkey"
	"$T/sig_load" fdinfo "$dir/kbuiltin" >kbuiltin.fdinfo
	expect_eq "kernel build key: directly signed program's fdinfo keyring and signer key" \
		"builtin|$(key_digest "$kkey")" \
		"$(raw prog_sig_keyring kbuiltin.fdinfo)|$(raw prog_sig_signer_key kbuiltin.fdinfo)"
else
	fail "prog verify: kernel signing key staged in out/" "$kkey missing"
fi

# --- Usage errors: 2 ---
expect_err "bad digest" 2 "digest must be 64 hexadecimal digits, optionally after 'sha256:'" \
	bt prog verify pinned "$P" digest 1234
expect_err "bad keyring" 2 \
	"keyring must be builtin, secondary, platform or a keyring's serial number, got: 'bogus'" \
	bt prog verify pinned "$P" keyring bogus
expect_err "unknown keyword" 2 "expected 'digest HEX' or 'keyring KEYRING' once each, got: 'bogus'" \
	bt prog verify pinned "$P" bogus
expect_err "keyring twice" 2 "expected 'digest HEX' or 'keyring KEYRING' once each, got: 'keyring'" \
	bt prog verify pinned "$P" keyring builtin keyring builtin
expect_err "private key" 2 "command 'prog verify' does not take option -k" \
	bt prog verify pinned "$P" -k "$T/keys/signer.key" -i "$T/keys/signer.pem"
expect_status "no such program id" 2 bt prog verify id 999999 -i "$T/keys/signer.pem"
expect_status "not a pinned program" 2 bt prog verify pinned "$dir/none" -i "$T/keys/signer.pem"

# --- A forged certificate: another key under the signer's subjectKeyIdentifier.
# The kernel records the key's digest, so -i tells them apart; enrolling the
# forged certificate changes nothing for what was verified before ---
openssl req -x509 -newkey rsa:2048 -nodes -keyout forged.key -subj "/CN=forged" -days 2 \
	-addext "subjectKeyIdentifier=$skid" -out forged.pem 2>/dev/null
openssl x509 -in forged.pem -outform DER -out forged.der
forged_key=$(key_digest forged.pem)
expect_eq "forged certificate: the signer's SKID, another key" "$skid different" \
	"$(skid forged.pem) $([ "$forged_key" != "$key" ] && echo different)"
forged_msg="the program's loader was signed by key sha256:$key (key id $skid), not by the key of certificate forged.pem (sha256:$forged_key, key id $skid)"
expect_err "forged SKID: refused" 1 "$forged_msg" \
	bt prog verify pinned "$P" -i forged.pem keyring "$serial"
expect_status "forged SKID: the real certificate verifies" 0 \
	bt prog verify pinned "$P" -i "$T/keys/signer.pem" keyring "$serial"
forged_id=$(keyctl padd asymmetric "" @s <forged.der)
expect_err "forged SKID enrolled in the session keyring: still refused" 1 "$forged_msg" \
	bt prog verify pinned "$P" -i forged.pem keyring "$serial"
expect_status "forged SKID enrolled in the session keyring: the real certificate still verifies" 0 \
	bt prog verify pinned "$P" -i "$T/keys/signer.pem" keyring "$serial"
keyctl unlink "$forged_id" @s >/dev/null
