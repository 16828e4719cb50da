#!/usr/bin/env bash
# bpftool prog verify { id | pinned } on loaded programs: what the kernel
# verified (fdinfo prog_digest, prog_sig*, prog_loader_*), matched against a
# certificate's subjectKeyIdentifier or an expected digest. Exit statuses:
# 0 verified, 1 not verified, 2 usage error.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$WORK"

dir=/sys/fs/bpf/prog_verify
rm -rf "$dir"
mkdir -p "$dir/lskel" "$dir/ulskel"
trap 'rm -rf "$dir" "$WORK"' EXIT

keyctl new_session >/dev/null
keyctl padd asymmetric "" @s <"$T/keys/signer.der" >/dev/null
skid=$(skid "$T/keys/signer.pem")
loader=$(cat "$T/fentry_count.loader.sha256")
openssl req -x509 -newkey rsa:2048 -nodes -keyout other.key -subj "/CN=other" -days 2 \
	-addext subjectKeyIdentifier=hash -out other.pem 2>/dev/null
other=$(skid other.pem)
bt() { "$BPFTOOL" "$@"; }

# expect_err NAME STATUS MESSAGE COMMAND...
expect_err() {
	local name=$1 status=$2 msg=$3
	shift 3
	expect_status "$name: exit status" "$status" "$@"
	expect_eq "$name: message" "Error: $msg" "$(cat "$WORK/err")"
}

# --- A signed light skeleton's program: unsigned itself, its loader signed ---
expect_status "signed light skeleton loads and pins" 0 "$T/lskel_run" pin "$dir/lskel" session
P=$dir/lskel/on_entry
expect_status "lskel prog: verifies with -i PEM" 0 bt prog verify pinned "$P" -i "$T/keys/signer.pem"
expect_status "lskel prog: verifies with -i DER" 0 bt prog verify pinned "$P" -i "$T/keys/signer.der"
expect_status "lskel prog: verifies without -i (loader verified)" 0 bt prog verify pinned "$P"
bt -j prog verify pinned "$P" -i "$T/keys/signer.pem" >lskel.json || true
expect_eq "lskel prog: JSON facts" \
	"verified|unsigned|sha256:$loader|verified|user|$skid" \
	"$(jq -r '[.verdict, .signature, .loader.digest, .loader.signature, .loader.keyring, .loader.signer_key_id] | join("|")' lskel.json 2>&1)"
digest=$(jq -r .digest lskel.json)
# The kernel's own words, read by the test and not by bpftool
"$T/sig_load" fdinfo "$P" >lskel.fdinfo
raw() { sed -n "s/^$1:\t//p" "$2"; }
expect_eq "lskel prog: digest = fdinfo prog_digest" "sha256:$(raw prog_digest lskel.fdinfo)" "$digest"
expect_eq "lskel prog: fdinfo loader digest = openssl's SHA-256 of the header's loader" \
	"$loader" "$(raw prog_loader_digest lskel.fdinfo)"
expect_eq "lskel prog: fdinfo loader signer = the certificate's SKID" \
	"$skid" "$(raw prog_loader_sig_signer lskel.fdinfo)"
expect_eq "lskel prog: fdinfo loader signature covers 1 map" 1 "$(raw prog_loader_sig_maps lskel.fdinfo)"
expect_eq "lskel prog: JSON covers_maps = fdinfo's" 1 "$(jq -r .loader.covers_maps lskel.json)"
bt prog verify pinned "$P" -i "$T/keys/signer.pem" >lskel.txt || true
row() { printf '%-22s %s\n' "$1" "$2"; }
expect_eq "lskel prog: plain output" \
	"$(row verdict: verified; row digest: "$digest"; row signature: unsigned
	   row 'loader digest:' "sha256:$loader"; row 'loader signature:' verified
	   row 'loader keyring:' user)" \
	"$(head -n 6 lskel.txt)"
expect_eq "lskel prog: plain loader signer" "$(row 'loader signer key id:' "$skid")" \
	"$(grep '^loader signer key id:' lskel.txt)"
expect_eq "lskel prog: plain loader covers maps" "$(row 'loader covers maps:' 1)" \
	"$(grep '^loader covers maps:' lskel.txt)"
id=$(bt -j prog show pinned "$P" | jq -r .id)
expect_status "lskel prog: verifies by id" 0 bt prog verify id "$id" -i "$T/keys/signer.pem"
expect_err "lskel prog: other certificate" 1 \
	"the program's loader was signed by key id $skid, not by certificate other.pem (key id $other)" \
	bt prog verify pinned "$P" -i other.pem
expect_status "lskel prog: its own digest" 0 bt prog verify pinned "$P" digest "$digest"
expect_err "lskel prog: the loader's digest (openssl) is not the program's" 1 \
	"program digest $digest is not sha256:$loader" \
	bt prog verify pinned "$P" digest "$loader"

# --- A directly signed program (sig_load), digest = openssl's ---
"$T/sig_load" dump-nomap nomap.bin
openssl cms -sign -binary -noattr -nocerts -nosmimecap -md sha256 -keyid -in nomap.bin \
	-signer "$T/keys/signer.pem" -inkey "$T/keys/signer.key" -outform DER -out nomap.der
"$T/sig_load" load --sig nomap.der --keyring -3 --pin "$dir/signed" >/dev/null
"$T/sig_load" load --pin "$dir/unsigned" >/dev/null
sum=$(openssl dgst -sha256 -r nomap.bin | cut -c1-64)
expect_status "signed prog: verifies with -i" 0 bt prog verify pinned "$dir/signed" -i "$T/keys/signer.pem"
expect_status "signed prog: openssl digest" 0 bt prog verify pinned "$dir/signed" digest "$sum"
expect_status "signed prog: sha256: prefix, upper case" 0 \
	bt prog verify pinned "$dir/signed" digest "sha256:$(tr a-f A-F <<<"$sum")"
expect_status "signed prog: -i and digest" 0 \
	bt prog verify pinned "$dir/signed" -i "$T/keys/signer.pem" digest "$sum"
expect_eq "signed prog: JSON" "verified|sha256:$sum|verified|user|$skid|0|none" \
	"$(bt -j prog verify pinned "$dir/signed" -i "$T/keys/signer.der" |
		jq -r '[.verdict, .digest, .signature, .keyring, .signer_key_id, .covers_maps, (.loader // "none")] | join("|")' 2>&1)"
expect_err "signed prog: digest mismatch" 1 "program digest sha256:$sum is not sha256:$loader" \
	bt prog verify pinned "$dir/signed" digest "$loader"
expect_err "signed prog: other certificate" 1 \
	"the program was signed by key id $skid, not by certificate other.pem (key id $other)" \
	bt prog verify pinned "$dir/signed" -i other.pem

# --- Unsigned programs ---
expect_err "unsigned prog with -i" 1 "the program is not signed" \
	bt prog verify pinned "$dir/unsigned" -i "$T/keys/signer.pem"
expect_err "unsigned prog without -i" 1 "the program is not signed" \
	bt prog verify pinned "$dir/unsigned"
expect_status "unsigned prog: digest alone matches" 0 \
	bt prog verify pinned "$dir/unsigned" digest "$(bt -j prog show pinned "$dir/unsigned" | jq -r .digest)"
expect_status "unsigned light skeleton loads and pins" 0 "$T/lskel_run_unsigned" pin "$dir/ulskel" 0
expect_err "unsigned lskel prog with -i" 1 "neither the program nor its loader is signed" \
	bt prog verify pinned "$dir/ulskel/on_entry" -i "$T/keys/signer.pem"

# --- Usage errors: 2 ---
expect_err "bad digest" 2 "digest must be 64 hexadecimal digits, optionally after 'sha256:'" \
	bt prog verify pinned "$P" digest 1234
expect_err "private key" 2 "prog verify takes no private key (-k)" \
	bt prog verify pinned "$P" -k "$T/keys/signer.key" -i "$T/keys/signer.pem"
expect_status "no such program id" 2 bt prog verify id 999999 -i "$T/keys/signer.pem"
expect_status "not a pinned program" 2 bt prog verify pinned "$dir/none" -i "$T/keys/signer.pem"
