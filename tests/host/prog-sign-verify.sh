#!/usr/bin/env bash
# bpftool prog sign file / prog verify file, offline: re-signing a signed
# light skeleton, exporting the payload for an external signer and attaching
# its signature, detached signatures, and verification of headers against a
# certificate, with exact exit statuses (0 verified, 1 failed, 2 usage or
# malformed input) and messages. Expected digests come from openssl over the
# blobs that tests/lskel-blob (not bpftool) reads out of the headers, the
# signer's key digest from openssl over the certificate's public key. Where
# prog sign writes ('-', symbolic links, FIFOs, hard links, replaced files)
# nothing is half-written and nothing becomes something else.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

unset BPFTOOL_SIGN_PIN
BLOB=$TESTS_DIR/lskel-blob
obj=$T/sign_min.bpf.o
if [ ! -f "$obj" ]; then
	fail "sign_min.bpf.o" "missing $obj (build the tests first)"
	exit 1
fi

# --- Keys and self-signed certificates, as gen-skeleton-sign.sh makes them ---
make_key rsa -algorithm RSA -pkeyopt rsa_keygen_bits:2048
make_key rsa2 -algorithm RSA -pkeyopt rsa_keygen_bits:2048
make_key p256 -algorithm EC -pkeyopt ec_paramgen_curve:P-256

sha256() { openssl dgst -sha256 -r "$1" | cut -d' ' -f1; }
hex() { od -An -v -tx1 "$1" | tr -d ' \n'; }
skel() { "$BPFTOOL" "$@" gen skeleton "$obj" name sign_min; }
bt() { "$BPFTOOL" "$@"; }


# no_stray DIR: no temporary file left in DIR
no_stray() {
	expect_eq "$1: no temporary file left" "" "$(find "$2" -maxdepth 1 -name '.*.??????' -printf '%f ')"
}

for k in rsa rsa2 p256; do
	if ! skel -S -k "$WORK/$k.key" -i "$WORK/$k.crt" >"$WORK/$k.h" 2>"$WORK/err"; then
		fail "gen skeleton -S with $k" "$(head -c 300 "$WORK/err")"
		exit 1
	fi
done
skel -L >"$WORK/unsigned.h"
H=$WORK/rsa.h

# --- A header signed by gen skeleton -S verifies: PEM and DER, RSA and ECDSA ---
for k in rsa p256; do
	for c in crt der; do
		expect_status "$k: gen skeleton -S header verifies ($c cert)" 0 \
			bt prog verify file "$WORK/$k.h" -i "$WORK/$k.$c"
	done
done

# --- Printed digests are openssl's over the blobs lskel-blob reads ---
row() { printf '%-20s %s\n' "$1" "$2"; }
for k in rsa p256; do
	d=$WORK/blobs-$k
	mkdir -p "$d"
	for b in opts_insn opts_data opts_sig opts_excl_hash; do
		"$BLOB" dump $b "$WORK/$k.h" >"$d/$b.bin"
	done
	cat "$d/opts_insn.bin" "$d/opts_data.bin" >"$d/payload.bin"
	key=$(key_digest "$WORK/$k.crt")
	bt prog verify file "$WORK/$k.h" -i "$WORK/$k.crt" >"$d/plain" 2>&1 || true
	expect_eq "$k: plain loader digest = openssl SHA-256 of opts_insn" \
		"$(row 'loader digest:' "sha256:$(sha256 "$d/opts_insn.bin")")" "$(grep '^loader digest:' "$d/plain")"
	expect_eq "$k: plain loader digest = opts_excl_hash" \
		"$(row 'loader digest:' "sha256:$(hex "$d/opts_excl_hash.bin")")" "$(grep '^loader digest:' "$d/plain")"
	expect_eq "$k: plain metadata digest" "$(row 'metadata digest:' "sha256:$(sha256 "$d/opts_data.bin")")" \
		"$(grep '^metadata digest:' "$d/plain")"
	expect_eq "$k: plain payload digest" "$(row 'payload digest:' "sha256:$(sha256 "$d/payload.bin")")" \
		"$(grep '^payload digest:' "$d/plain")"
	expect_eq "$k: plain verdict, signer, key id and key" \
		"$(row verdict: verified; row signer: "CN=bpftool test $k"
		   row 'signer key id:' "$(skid "$WORK/$k.crt")"; row 'signer key:' "sha256:$key")" \
		"$(head -n 4 "$d/plain")"
	expect_eq "$k: plain signature file is opts_sig" "$(row 'signature file:' opts_sig)" \
		"$(grep '^signature file:' "$d/plain")"
	expect_eq "$k: plain output has none of the old rows" 0 \
		"$(grep -c -E '^(loader|metadata|payload|excl_prog_hash|signature):' "$d/plain" || true)"

	bt -j prog verify file "$WORK/$k.h" -i "$WORK/$k.der" >"$d/json" 2>&1 || true
	if [ $k = rsa ]; then alg=rsaEncryption; else alg=ecdsa-with-SHA256; fi
	expect_eq "$k: JSON facts" \
		"verified|verified|CN=bpftool test $k|$(skid "$WORK/$k.crt")|1|sha256|$alg|opts_sig|sha256:$(hex "$d/opts_excl_hash.bin")|sha256:$(sha256 "$d/opts_data.bin")|sha256:$(sha256 "$d/payload.bin")" \
		"$(jq -r '[.verdict, .signature.verdict, .signature.signer.subject, .signature.signer.key_id, .signature.covers_maps, .algorithm.digest, .algorithm.signature, .signature_file, .loader_digest, .metadata_digest, .payload_digest] | join("|")' "$d/json" 2>&1)"
	expect_eq "$k: JSON signer key = openssl SHA-256 of the certificate's public key" "sha256:$key" \
		"$(jq -r .signature.signer.key "$d/json" 2>&1)"
	expect_eq "$k: JSON has none of the old keys" true \
		"$(jq '[.loader, .metadata, .payload, .excl_prog_hash, .signer] | all(. == null)' "$d/json" 2>&1)"
done
D=$WORK/blobs-rsa

# --- Round trip: re-sign with another key, in place and to a file ---
cp "$H" "$WORK/rsa.h.orig"
expect_status "re-sign rsa header with rsa2 (out FILE)" 0 \
	bt prog sign file "$H" -k "$WORK/rsa2.key" -i "$WORK/rsa2.crt" out "$WORK/resigned.h"
expect_eq "re-signed header is what gen skeleton -S gives with rsa2" "" \
	"$(cmp "$WORK/resigned.h" "$WORK/rsa2.h" 2>&1)"
expect_eq "re-sign with out FILE leaves the input alone" "" "$(cmp "$H" "$WORK/rsa.h.orig" 2>&1)"
expect_status "re-signed header verifies with rsa2" 0 \
	bt prog verify file "$WORK/resigned.h" -i "$WORK/rsa2.der"
expect_err "re-signed header does not verify with rsa" 1 \
	"opts_sig was made by key id $(skid "$WORK/rsa2.crt"), not by certificate $WORK/rsa.crt (CN=bpftool test rsa)" \
	bt prog verify file "$WORK/resigned.h" -i "$WORK/rsa.crt"
cp "$WORK/p256.h" "$WORK/inplace.h"
chmod 640 "$WORK/inplace.h"
expect_status "re-sign p256 header in place with rsa" 0 \
	bt prog sign file "$WORK/inplace.h" -k "$WORK/rsa.key" -i "$WORK/rsa.der"
expect_eq "in-place re-signed header is what gen skeleton -S gives with rsa" "" \
	"$(cmp "$WORK/inplace.h" "$H" 2>&1)"
expect_eq "in-place re-sign keeps the file mode" 640 "$(stat -c %a "$WORK/inplace.h")"
no_stray "in-place re-sign" "$WORK"
expect_eq "JSON prog sign prints null" null \
	"$(bt -j prog sign file "$WORK/inplace.h" -k "$WORK/rsa.key" -i "$WORK/rsa.crt" 2>&1)"

# --- One byte flipped (lskel-blob flip): status 1, exact messages ---
for b in opts_insn opts_data opts_excl_hash opts_sig; do
	"$BLOB" flip $b "$H" "$WORK/flip-$b.h"
done
"$BLOB" dump opts_insn "$WORK/flip-opts_insn.h" >"$WORK/flip-insn.bin"
expect_err "flipped loader" 1 \
	"opts_excl_hash does not match the loader's digest sha256:$(sha256 "$WORK/flip-insn.bin")" \
	bt prog verify file "$WORK/flip-opts_insn.h" -i "$WORK/rsa.crt"
expect_err "flipped metadata" 1 \
	"opts_sig does not verify over the loader and its metadata with certificate $WORK/rsa.crt" \
	bt prog verify file "$WORK/flip-opts_data.h" -i "$WORK/rsa.crt"
expect_err "flipped opts_excl_hash" 1 \
	"opts_excl_hash does not match the loader's digest sha256:$(sha256 "$D/opts_insn.bin")" \
	bt prog verify file "$WORK/flip-opts_excl_hash.h" -i "$WORK/rsa.crt"
expect_err "flipped signature" 1 \
	"opts_sig does not verify over the loader and its metadata with certificate $WORK/rsa.crt" \
	bt prog verify file "$WORK/flip-opts_sig.h" -i "$WORK/rsa.crt"
"$BLOB" flip opts_sig "$WORK/p256.h" "$WORK/flip-p256.h"
expect_status "flipped ECDSA signature: status 1" 1 \
	bt prog verify file "$WORK/flip-p256.h" -i "$WORK/p256.crt"
expect_status "detached signature over the original, flipped metadata: status 1" 1 \
	bt prog verify file "$WORK/flip-opts_data.h" -i "$WORK/rsa.crt" signature "$D/opts_sig.bin"

# --- Wrong certificate ---
expect_err "wrong certificate" 1 \
	"opts_sig was made by key id $(skid "$WORK/rsa.crt"), not by certificate $WORK/p256.der (CN=bpftool test p256)" \
	bt prog verify file "$H" -i "$WORK/p256.der"
# Another key under the signer's subjectKeyIdentifier: names match, the
# signature does not verify
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$WORK/forged.key" -subj "/CN=bpftool test forged" \
	-days 2 -addext "subjectKeyIdentifier=$(skid "$WORK/rsa.crt")" -out "$WORK/forged.crt" 2>/dev/null
expect_eq "forged certificate has the signer's subjectKeyIdentifier, another key" \
	"$(skid "$WORK/rsa.crt") different" \
	"$(skid "$WORK/forged.crt") $([ "$(key_digest "$WORK/forged.crt")" != "$(key_digest "$WORK/rsa.crt")" ] && echo different)"
expect_err "certificate with the signer's subjectKeyIdentifier and another key" 1 \
	"opts_sig does not verify over the loader and its metadata with certificate $WORK/forged.crt" \
	bt prog verify file "$H" -i "$WORK/forged.crt"
expect_err "unsigned header" 1 "$WORK/unsigned.h is not signed: no opts_sig and opts_excl_hash" \
	bt prog verify file "$WORK/unsigned.h" -i "$WORK/rsa.crt"
expect_err "unsigned header with a detached signature" 1 \
	"$WORK/unsigned.h is not signed: no opts_sig and opts_excl_hash" \
	bt prog verify file "$WORK/unsigned.h" -i "$WORK/rsa.crt" signature "$D/opts_sig.bin"

# --- External signing: payload, openssl cms -sign, attach ---
expect_status "prog sign payload" 0 bt prog sign file "$WORK/p256.h" payload "$WORK/payload.bin"
expect_eq "payload is opts_insn || opts_data" "" \
	"$(cmp "$WORK/payload.bin" "$WORK/blobs-p256/payload.bin" 2>&1)"
for k in rsa p256; do
	cms_sign "$WORK/payload.bin" "$WORK/$k.crt" "$WORK/$k.key" "$WORK/ext-$k.p7s" 2>"$WORK/err" ||
		fail "$k: openssl cms -sign" "$(head -c 300 "$WORK/err")"
	expect_status "$k: attach external signature" 0 \
		bt prog sign file "$WORK/p256.h" -i "$WORK/$k.crt" attach "$WORK/ext-$k.p7s" out "$WORK/attached-$k.h"
	expect_status "$k: attached header verifies" 0 \
		bt prog verify file "$WORK/attached-$k.h" -i "$WORK/$k.der"
	expect_eq "$k: attached opts_sig is the external signature" "" \
		"$(cmp <("$BLOB" dump opts_sig "$WORK/attached-$k.h") "$WORK/ext-$k.p7s" 2>&1)"
done
expect_eq "RSA: attach gives the same header as signing with -k" "" \
	"$(cmp "$WORK/attached-rsa.h" "$H" 2>&1)"

# --- Detached signatures agree with embedded ones ---
expect_status "prog sign detached" 0 \
	bt prog sign file "$WORK/p256.h" -k "$WORK/rsa.key" -i "$WORK/rsa.crt" detached "$WORK/det.p7s"
expect_eq "RSA detached signature is opts_sig of the -k signed header" "" \
	"$(cmp "$WORK/det.p7s" "$D/opts_sig.bin" 2>&1)"
# (a failing bpftool or jq ends the script, which tests/run reports)
emb=$(bt -j prog verify file "$H" -i "$WORK/rsa.crt" | jq -c 'del(.signature_file)')
det=$(bt -j prog verify file "$H" -i "$WORK/rsa.crt" signature "$WORK/det.p7s" | jq -c 'del(.signature_file)')
expect_eq "embedded signature: JSON verdict is verified" verified "$(jq -r .verdict <<<"$emb")"
expect_eq "detached and embedded: same facts" "$emb" "$det"
bt -j prog verify file "$H" -i "$WORK/rsa.crt" | mask_json >"$WORK/verify-file.json"
golden "$WORK/verify-file.json" prog-verify-file.json
expect_eq "JSON names the detached signature" "$WORK/det.p7s" \
	"$(bt -j prog verify file "$H" -i "$WORK/rsa.crt" signature "$WORK/det.p7s" | jq -r .signature_file)"
expect_eq "plain output names the detached signature" "$(row 'signature file:' "$WORK/det.p7s")" \
	"$(bt prog verify file "$H" -i "$WORK/rsa.crt" signature "$WORK/det.p7s" | grep '^signature file:')"
expect_status "ECDSA detached signature verifies on another header with the same loader" 0 \
	bt prog verify file "$WORK/rsa2.h" -i "$WORK/p256.crt" signature "$WORK/blobs-p256/opts_sig.bin"

# --- attach refuses a signature that does not verify; nothing is written ---
cat "$D/payload.bin" - <<<x >"$WORK/other.bin"
cms_sign "$WORK/other.bin" "$WORK/rsa.crt" "$WORK/rsa.key" "$WORK/bad.p7s"
mkdir "$WORK/att"
expect_err "attach a signature over other bytes" 255 \
	"$WORK/bad.p7s does not verify over the loader and its metadata with certificate $WORK/rsa.crt" \
	bt prog sign file "$H" -i "$WORK/rsa.crt" attach "$WORK/bad.p7s" out "$WORK/att/x.h"
expect_err "attach a signature by another key" 255 \
	"$WORK/ext-p256.p7s was made by key id $(skid "$WORK/p256.crt"), not by certificate $WORK/rsa.crt (CN=bpftool test rsa)" \
	bt prog sign file "$H" -i "$WORK/rsa.crt" attach "$WORK/ext-p256.p7s" out "$WORK/att/x.h"
# What the kernel refuses (another eContentType than id-data; CMS then
# needs signed attributes) prog verify and attach refuse too
openssl cms -sign -binary -nocerts -nosmimecap -md sha256 -keyid -outform DER \
	-econtent_type 1.3.6.1.4.1.2312.16.1 -in "$D/payload.bin" -signer "$WORK/rsa.crt" \
	-inkey "$WORK/rsa.key" -out "$WORK/econtent.p7s"
expect_err "verify a signature over another content type than id-data" 1 \
	"$WORK/econtent.p7s signs content of another type than id-data, which the kernel refuses" \
	bt prog verify file "$H" -i "$WORK/rsa.crt" signature "$WORK/econtent.p7s"
expect_err "attach a signature over another content type than id-data" 255 \
	"$WORK/econtent.p7s signs content of another type than id-data, which the kernel refuses" \
	bt prog sign file "$H" -i "$WORK/rsa.crt" attach "$WORK/econtent.p7s" out "$WORK/att/x.h"
cp "$H" "$WORK/att/keep.h"
expect_status "attach in place a bad signature: refused" 255 \
	bt prog sign file "$WORK/att/keep.h" -i "$WORK/rsa.crt" attach "$WORK/bad.p7s"
expect_eq "refused attach: header unchanged" "" "$(cmp "$WORK/att/keep.h" "$H" 2>&1)"
expect_eq "refused attach: no output file" "keep.h" "$(ls -A "$WORK/att")"

# --- prog sign refuses unsigned headers and leaves nothing behind ---
expect_err "prog sign of an unsigned header" 255 \
	"$WORK/unsigned.h is an unsigned light skeleton: its loader takes values from the skeleton at run time and cannot be signed; generate it with 'bpftool gen skeleton -S', then re-sign it" \
	bt prog sign file "$WORK/unsigned.h" -k "$WORK/rsa.key" -i "$WORK/rsa.crt" out "$WORK/att/u.h"
expect_eq "unsigned: no output file" "keep.h" "$(ls -A "$WORK/att")"
expect_err "prog sign without -k" 255 \
	"signing needs -k <private_key.pem> and -i <certificate.x509>" \
	bt prog sign file "$H" -i "$WORK/rsa.crt" out "$WORK/att/y.h"

# --- Output that cannot be written: error, no temporary file ---
mkdir "$WORK/isdir.h"
expect_err "out FILE is a directory" 255 "header $WORK/isdir.h is a directory" \
	bt prog sign file "$H" -k "$WORK/rsa.key" -i "$WORK/rsa.crt" out "$WORK/isdir.h"
no_stray "out FILE is a directory" "$WORK"
ro=$WORK/ro
mkdir "$ro"
chmod 555 "$ro"
chmod 755 "$WORK"
chmod 644 "$H" "$WORK/rsa.crt" "$WORK/ext-rsa.p7s" 2>/dev/null || true
cp "$BPFTOOL" "$WORK/bpftool-copy"
if [ "$(id -u)" = 0 ]; then
	# root writes anywhere: run as nobody
	as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"; }
else
	as_user() { "$@"; }
fi
expect_err "out FILE in a read-only directory" 255 \
	"cannot write header $ro/x.h: its directory: Permission denied" \
	as_user "$WORK/bpftool-copy" prog sign file "$H" -i "$WORK/rsa.crt" attach "$WORK/ext-rsa.p7s" out "$ro/x.h"
expect_err "payload FILE in a read-only directory" 255 \
	"cannot write payload $ro/p.bin: its directory: Permission denied" \
	as_user "$WORK/bpftool-copy" prog sign file "$H" payload "$ro/p.bin"
expect_eq "read-only directory stays empty" "" "$(ls -A "$ro")"

# --- Where prog sign writes: standard output, symbolic links, FIFOs, hard
# links, replaced files keeping mode, owner and extended attributes ---
F=$WORK/files
mkdir "$F" "$F/cwd"
signrsa() { "$BPFTOOL" -k "$WORK/rsa.key" -i "$WORK/rsa.crt" prog sign file "$@"; }
# '-' is standard output, run from an empty directory that must stay empty
expect_status "out - : exit status" 0 env -C "$F/cwd" "$BPFTOOL" -k "$WORK/rsa.key" -i "$WORK/rsa.crt" \
	prog sign file "$WORK/p256.h" out -
expect_eq "out - : standard output is the header gen skeleton -S gives with rsa" "" \
	"$(cmp "$WORK/out" "$H" 2>&1)"
expect_eq "out - : nothing on stderr" "" "$(cat "$WORK/err")"
expect_status "payload - : exit status" 0 env -C "$F/cwd" "$BPFTOOL" prog sign file "$H" payload -
expect_eq "payload - : standard output is opts_insn || opts_data" "" \
	"$(cmp "$WORK/out" "$D/payload.bin" 2>&1)"
expect_status "detached - : exit status" 0 env -C "$F/cwd" "$BPFTOOL" -k "$WORK/rsa.key" \
	-i "$WORK/rsa.crt" prog sign file "$WORK/p256.h" detached -
expect_eq "detached - : standard output is the RSA header's opts_sig" "" \
	"$(cmp "$WORK/out" "$D/opts_sig.bin" 2>&1)"
if openssl cms -verify -binary -inform DER -in "$WORK/out" -content "$D/payload.bin" \
	-certfile "$WORK/rsa.crt" -CAfile "$WORK/rsa.crt" -purpose any -out /dev/null 2>/dev/null; then
	pass "detached - : openssl verifies it over the payload"
else
	fail "detached - : openssl verifies it over the payload"
fi
expect_eq "'-' creates no file" "" "$(ls -A "$F/cwd")"
expect_status "payload ./- is a file named '-'" 0 env -C "$F/cwd" "$BPFTOOL" prog sign file "$H" payload ./-
expect_eq "payload ./- : the file holds the payload, stdout is empty" "0|" \
	"$(wc -c <"$WORK/out")|$(cmp "$F/cwd/-" "$D/payload.bin" 2>&1)"
rm -f "$F/cwd/-"
json_dash='{"error":"writing to standard output ('"'-'"') and JSON output (-j) exclude each other"}'
expect_status "out - with -j: exit status" 255 \
	env -C "$F/cwd" "$BPFTOOL" -j -k "$WORK/rsa.key" -i "$WORK/rsa.crt" prog sign file "$H" out -
expect_eq "out - with -j: the JSON error and nothing else" "$json_dash" "$(cat "$WORK/out")"
expect_status "payload - with -j: exit status" 255 env -C "$F/cwd" "$BPFTOOL" -j prog sign file "$H" payload -
expect_eq "payload - with -j: the JSON error and nothing else" "$json_dash" "$(cat "$WORK/out")"
expect_status "detached - with -p: exit status" 255 \
	env -C "$F/cwd" "$BPFTOOL" -p -k "$WORK/rsa.key" -i "$WORK/rsa.crt" prog sign file "$H" detached -
expect_eq "detached - with -p: the JSON error and nothing else" "$json_dash" "$(jq -c . "$WORK/out" 2>&1)"
expect_eq "'-' with -j creates no file" "" "$(ls -A "$F/cwd")"

# Symbolic links are refused, whatever they point to; nothing changes
cp "$WORK/p256.h" "$F/target.h"
ln -s target.h "$F/link.h"
ln -s nowhere.h "$F/dangling.h"
expect_err "out is a symbolic link" 255 \
	"header $F/link.h is a symbolic link: give the path of the file it points to" \
	signrsa "$H" out "$F/link.h"
expect_err "in-place header is a symbolic link" 255 \
	"header $F/link.h is a symbolic link: give the path of the file it points to" \
	signrsa "$F/link.h"
expect_err "payload is a symbolic link" 255 \
	"payload $F/link.h is a symbolic link: give the path of the file it points to" \
	bt prog sign file "$H" payload "$F/link.h"
expect_err "detached is a symbolic link" 255 \
	"signature $F/link.h is a symbolic link: give the path of the file it points to" \
	signrsa "$H" detached "$F/link.h"
expect_err "out is a dangling symbolic link" 255 \
	"header $F/dangling.h is a symbolic link: give the path of the file it points to" \
	signrsa "$H" out "$F/dangling.h"
expect_eq "refused symbolic links still point where they did" "target.h|nowhere.h" \
	"$(readlink "$F/link.h")|$(readlink "$F/dangling.h")"
expect_eq "the symbolic link's target is unchanged" "" "$(cmp "$F/target.h" "$WORK/p256.h" 2>&1)"
expect_eq "a dangling symbolic link's target is not created" no "$([ -e "$F/nowhere.h" ] && echo yes || echo no)"
no_stray "refused symbolic links" "$F"

# Directories and sockets are refused
mkdir "$F/dir.bin"
expect_err "payload is a directory" 255 "payload $F/dir.bin is a directory" \
	bt prog sign file "$H" payload "$F/dir.bin"
expect_err "detached is a directory" 255 "signature $F/dir.bin is a directory" \
	signrsa "$H" detached "$F/dir.bin"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$F/sock"
expect_err "payload is a socket" 255 "payload $F/sock is a socket" \
	bt prog sign file "$H" payload "$F/sock"
expect_eq "refused directory and socket stay what they were" "directory|socket" \
	"$(stat -c %F "$F/dir.bin")|$(stat -c %F "$F/sock")"
no_stray "refused directory and socket" "$F"

# A FIFO is written to, not replaced: the reader gets exactly the payload
mkfifo "$F/fifo"
timeout 30 cat "$F/fifo" >"$F/fifo.out" &
reader=$!
expect_status "payload to a FIFO" 0 bt prog sign file "$H" payload "$F/fifo"
wait "$reader" || true
expect_eq "the FIFO's reader got exactly opts_insn || opts_data" "" "$(cmp "$F/fifo.out" "$D/payload.bin" 2>&1)"
expect_eq "the FIFO is still a FIFO" fifo "$(stat -c %F "$F/fifo")"

# A header with two names is refused, before anything is signed: written
# in place, a failed write (EFBIG, ENOSPC, a signal) would leave half a
# header under every name; replaced, the other name would keep the old one
cp "$WORK/p256.h" "$F/h1.h"
ln "$F/h1.h" "$F/h2.h"
expect_err "re-sign in place a header with two hard links: refused" 255 \
	"header $F/h1.h has 2 hard links: a file with other names is not rewritten (give another path, or remove the other links)" \
	signrsa "$F/h1.h"
expect_eq "hard-linked header: both names hold the original bytes" "|" \
	"$(cmp "$F/h1.h" "$WORK/p256.h" 2>&1)|$(cmp "$F/h2.h" "$WORK/p256.h" 2>&1)"
expect_status "hard-linked header: re-signed to another path instead" 0 \
	signrsa "$F/h1.h" out "$F/h3.h"
expect_eq "hard-linked header: the other path holds the re-signed header" "" \
	"$(cmp "$F/h3.h" "$H" 2>&1)"
no_stray "hard-linked header" "$F"
# A detached signature to a hard-linked file: refused as well
expect_err "detached signature to a file with two hard links: refused" 255 \
	"signature $F/h1.h has 2 hard links: a file with other names is not rewritten (give another path, or remove the other links)" \
	signrsa "$H" detached "$F/h1.h"

# A write that fails half way (EFBIG: the header is over 8 KiB, the file
# size limit 8 KiB) leaves the original header whole and no temporary file
cp "$WORK/p256.h" "$F/big.h"
expect_eq "EFBIG test: the header is larger than 8 KiB" yes \
	"$([ "$(stat -c %s "$H")" -gt 8192 ] && echo yes || echo no)"
rc=0
(trap "" XFSZ; ulimit -f 8; signrsa "$F/big.h") >"$WORK/out" 2>"$WORK/err" || rc=$?
expect_eq "re-sign in place with the file size limit under the header's size: exit 255" 255 "$rc"
expect_eq "EFBIG: the message names the error" 1 \
	"$(grep -c "^Error: failed to write header $F/big.h: File too large$" "$WORK/err")"
expect_eq "EFBIG: the original header is whole" "" "$(cmp "$F/big.h" "$WORK/p256.h" 2>&1)"
no_stray "EFBIG" "$F"

# SIGTERM while the temporary file is written but not yet renamed (strace
# holds its fsync() for a second): bpftool finishes the rename first, then
# dies of the signal; the header is the new one, whole, and no temporary
# file is left
cp "$WORK/p256.h" "$F/term.h"
strace -f -o /dev/null -e trace=fsync -e inject=fsync:delay_enter=1000000:when=1 \
	"$BPFTOOL" -k "$WORK/rsa.key" -i "$WORK/rsa.crt" prog sign file "$F/term.h" \
	>/dev/null 2>&1 &
tracer=$!
for _ in $(seq 50); do
	[ -n "$(find "$F" -maxdepth 1 -name '.term.h.??????')" ] && break
	sleep 0.1
done
expect_eq "SIGTERM test: the temporary file exists while fsync() is held" 1 \
	"$(find "$F" -maxdepth 1 -name '.term.h.??????' | wc -l)"
pkill -TERM -P "$tracer" -x bpftool || true
wait "$tracer" || true
expect_eq "SIGTERM during the write: the header is the re-signed one" "" \
	"$(cmp "$F/term.h" "$H" 2>&1)"
no_stray "SIGTERM" "$F"

# Paths that cannot be written are refused before the key is used: with a
# key file that does not exist, the output's error comes first
expect_err "output into a directory that does not exist: refused before signing" 255 \
	"cannot write header $F/nodir/x.h: its directory: No such file or directory" \
	"$BPFTOOL" -k "$WORK/no-such.key" -i "$WORK/rsa.crt" prog sign file "$H" out "$F/nodir/x.h"

# A header with one name is replaced (temporary file, rename): the new file
# keeps the mode, owner and extended attributes of the one it replaces
xdir=$F
: >"$F/xattr-probe"
if ! python3 -c 'import os, sys; os.setxattr(sys.argv[1], "user.bpfsign", b"v")' "$F/xattr-probe" 2>/dev/null; then
	# no user xattrs here: tmpfs has them
	xdir=$(mktemp -d /dev/shm/bpfsign.XXXXXX)
	CLEANUP+=("$xdir")
fi
cp "$WORK/p256.h" "$xdir/m.h"
chmod 640 "$xdir/m.h"
if [ "$(id -u)" = 0 ]; then
	chown 65534:65534 "$xdir/m.h"
	owner_check=("replaced header keeps its mode and owner (640, nobody)" "640 65534:65534" '%a %u:%g')
else
	owner_check=("replaced header keeps its mode 640 (not root: owner not checked)" 640 '%a')
fi
python3 -c 'import os, sys; os.setxattr(sys.argv[1], "user.bpfsign", b"v")' "$xdir/m.h"
# trusted. (like security.) is the administrator's and the LSMs': not copied.
# Only root may set it (tmpfs and ext4 store it); for others it is EPERM.
trusted_set=$(python3 -c 'import os, sys
try:
	os.setxattr(sys.argv[1], "trusted.bpfsign", b"t")
	print("set")
except OSError as e:
	print("OSError", e.errno)' "$xdir/m.h" 2>&1)
ino=$(stat -c %i "$xdir/m.h")
expect_status "re-sign in place a header with mode, owner and xattr" 0 signrsa "$xdir/m.h"
expect_eq "replaced header holds the re-signed header" "" "$(cmp "$xdir/m.h" "$H" 2>&1)"
expect_eq "replaced header is a new file (other inode), not rewritten" yes \
	"$([ "$(stat -c %i "$xdir/m.h")" != "$ino" ] && echo yes || echo "no, inode $ino")"
expect_eq "${owner_check[0]}" "${owner_check[1]}" "$(stat -c "${owner_check[2]}" "$xdir/m.h")"
expect_eq "replaced header keeps its user.bpfsign extended attribute" "b'v'" \
	"$(python3 -c 'import os, sys; print(os.getxattr(sys.argv[1], "user.bpfsign"))' "$xdir/m.h" 2>&1)"
if [ "$(id -u)" = 0 ]; then
	expect_eq "root sets trusted.bpfsign on the header before it is replaced" set "$trusted_set"
else
	expect_eq "not root: trusted.bpfsign cannot be set (EPERM)" "OSError 1" "$trusted_set"
fi
expect_eq "replaced header does not get the old file's trusted.bpfsign attribute" \
	"OSError 61" "$(python3 -c 'import os, sys
try:
	print(os.getxattr(sys.argv[1], "trusted.bpfsign"))
except OSError as e:
	print("OSError", e.errno)' "$xdir/m.h" 2>&1)"
# POSIX ACLs are extended attributes too (system.posix_acl_access)
cp "$WORK/p256.h" "$xdir/acl.h"
setfacl -m u:65534:r,g:65534:rw "$xdir/acl.h"
acl=$(getfacl -c -n "$xdir/acl.h" 2>&1)
expect_eq "header has the ACL entries set for the test" 2 \
	"$(grep -c -E '^(user|group):65534:' <<<"$acl")"
ino=$(stat -c %i "$xdir/acl.h")
expect_status "re-sign in place a header with a POSIX ACL" 0 signrsa "$xdir/acl.h"
expect_eq "re-signed header with a POSIX ACL is a new file" yes \
	"$([ "$(stat -c %i "$xdir/acl.h")" != "$ino" ] && echo yes || echo "no, inode $ino")"
expect_eq "replaced header keeps its POSIX ACL" "$acl" "$(getfacl -c -n "$xdir/acl.h" 2>&1)"
no_stray "replaced header" "$xdir"
# A new file gets 0666 minus the umask, not mkstemp's 0600
expect_status "out FILE new, umask 027" 0 \
	bash -c 'umask 027 && exec "$@"' - "$BPFTOOL" prog sign file "$H" payload "$F/new.bin"
expect_eq "new file's mode is 0666 minus the umask" 640 "$(stat -c %a "$F/new.bin")"

# --- A certificate without subjectKeyIdentifier cannot sign ---
openssl req -new -x509 -key "$WORK/rsa.key" -subj "/CN=bpftool test no SKID" -days 2 \
	-addext subjectKeyIdentifier=none -out "$WORK/noskid.crt"
noskid_msg="certificate $WORK/noskid.crt has no subjectKeyIdentifier, by which the kernel names a program's signer: make it with one (openssl req -addext subjectKeyIdentifier=hash)"
expect_err "prog sign with a certificate without subjectKeyIdentifier" 255 "$noskid_msg" \
	bt prog sign file "$WORK/p256.h" -k "$WORK/rsa.key" -i "$WORK/noskid.crt" out "$F/noskid.h"
expect_err "prog sign detached with a certificate without subjectKeyIdentifier" 255 "$noskid_msg" \
	bt prog sign file "$WORK/p256.h" -k "$WORK/rsa.key" -i "$WORK/noskid.crt" detached "$F/noskid.p7s"
cp "$WORK/p256.h" "$F/noskid-inplace.h"
expect_err "prog sign in place with a certificate without subjectKeyIdentifier" 255 "$noskid_msg" \
	bt prog sign file "$F/noskid-inplace.h" -k "$WORK/rsa.key" -i "$WORK/noskid.crt"
expect_eq "no subjectKeyIdentifier: nothing written, header unchanged" "no|no|" \
	"$([ -e "$F/noskid.h" ] && echo yes || echo no)|$([ -e "$F/noskid.p7s" ] && echo yes || echo no)|$(cmp "$F/noskid-inplace.h" "$WORK/p256.h" 2>&1)"
no_stray "no subjectKeyIdentifier" "$F"

# --- A signature naming its signer by issuer and serial (openssl, not
# bpftool) verifies; prog verify names the signer by issuer and serial ---
openssl cms -sign -binary -noattr -nocerts -nosmimecap -md sha256 -outform DER \
	-in "$D/payload.bin" -signer "$WORK/rsa.crt" -inkey "$WORK/rsa.key" -out "$WORK/issuer-serial.p7s"
bt prog verify file "$H" -i "$WORK/rsa.crt" signature "$WORK/issuer-serial.p7s" >"$WORK/is.txt" 2>&1 || true
serial=$(openssl x509 -in "$WORK/rsa.crt" -noout -serial | cut -d= -f2)
expect_eq "issuer and serial: plain signer rows" \
	"$(row signer: "CN=bpftool test rsa"; row 'signer issuer:' "CN=bpftool test rsa"
	   row 'signer serial:' "$serial"; row 'signer key:' "sha256:$(key_digest "$WORK/rsa.crt")")" \
	"$(sed -n '2,5p' "$WORK/is.txt")"
expect_eq "issuer and serial: JSON key_id null, serial, key" \
	"null|$serial|sha256:$(key_digest "$WORK/rsa.crt")" \
	"$(bt -j prog verify file "$H" -i "$WORK/rsa.crt" signature "$WORK/issuer-serial.p7s" |
		jq -r '[(.signature.signer.key_id | tostring), .signature.signer.serial, .signature.signer.key] | join("|")' 2>&1)"

# --- A signature of the 6.18 protocol (over the loader's instructions
# alone) is refused with its reason, offline and by attach ---
cms_sign "$D/opts_insn.bin" "$WORK/rsa.crt" "$WORK/rsa.key" "$WORK/insns-only.p7s"
msg618="$WORK/insns-only.p7s covers the loader's instructions only, as light skeletons of the 6.18 protocol are signed; the kernel checks the instructions and the metadata: regenerate the header with 'gen skeleton -S' or re-sign it with 'prog sign file $H'"
expect_err "6.18-protocol signature (instructions only)" 1 "$msg618" \
	bt prog verify file "$H" -i "$WORK/rsa.crt" signature "$WORK/insns-only.p7s"
expect_err "attach a 6.18-protocol signature" 255 "$msg618" \
	bt prog sign file "$H" -i "$WORK/rsa.crt" attach "$WORK/insns-only.p7s" out "$F/618.h"
expect_eq "refused 6.18-protocol signature: no output file" no "$([ -e "$F/618.h" ] && echo yes || echo no)"

# --- Malformed input: status 2, exact messages ---
printf 'hello, world\n' >"$WORK/garbage.h"
: >"$WORK/empty.h"
head -n 250 "$H" >"$WORK/trunc-lines.h"
head -c 5000 "$H" >"$WORK/trunc-bytes.h"
expect_err "garbage header" 2 "$WORK/garbage.h: not a header generated by bpftool" \
	bt prog verify file "$WORK/garbage.h" -i "$WORK/rsa.crt"
expect_err "empty header" 2 "header $WORK/empty.h is empty" \
	bt prog verify file "$WORK/empty.h" -i "$WORK/rsa.crt"
expect_err "/dev/zero" 2 "header /dev/zero is too large (more than 67108864 bytes)" \
	bt prog verify file /dev/zero -i "$WORK/rsa.crt"
expect_err "header truncated at a line" 2 \
	"$WORK/trunc-lines.h: truncated file: it does not end with the #endif of its header guard" \
	bt prog verify file "$WORK/trunc-lines.h" -i "$WORK/rsa.crt"
expect_err "header truncated mid-line" 2 "$WORK/trunc-bytes.h: truncated file: no newline at the end" \
	bt prog verify file "$WORK/trunc-bytes.h" -i "$WORK/rsa.crt"
expect_err "missing header" 2 "failed to open header $WORK/none.h: No such file or directory" \
	bt prog verify file "$WORK/none.h" -i "$WORK/rsa.crt"
expect_err "empty header, prog sign" 255 "header $WORK/empty.h is empty" \
	bt prog sign file "$WORK/empty.h" payload "$WORK/att/p.bin"

# Strict format: anything but bpftool's own output is refused
line=$(grep -n 'static const char opts_sig\[\]' "$H" | cut -d: -f1)
sed "$((line + 1))s/\\\\x30/\\\\X30/" "$H" >"$WORK/badesc.h"
expect_err "invalid escape" 2 "$WORK/badesc.h: line $((line + 1)): invalid escape in opts_sig" \
	bt prog verify file "$WORK/badesc.h" -i "$WORK/rsa.crt"
sed "$((line + 1))s/\\\\x30/\\\\x3g/" "$H" >"$WORK/badhex.h"
expect_err "non-hex escape" 2 "$WORK/badhex.h: line $((line + 1)): invalid hexadecimal escape in opts_sig" \
	bt prog verify file "$WORK/badhex.h" -i "$WORK/rsa.crt"
sed "$((line + 1))s/^\\\\x30/\\\\x30\\\\\\n/" "$H" >"$WORK/wrap.h"
expect_err "line not wrapped as bpftool wraps it" 2 \
	"$WORK/wrap.h: line $line: opts_sig is not formatted as bpftool prints it" \
	bt prog verify file "$WORK/wrap.h" -i "$WORK/rsa.crt"
awk -v l="$line" 'NR == l { s = 1 } s { blk = blk $0 "\n" } { print } /";$/ && s { s = 0; printf "%s", blk }' \
	"$H" >"$WORK/dup.h"
sig_end=$(awk -v l="$line" 'NR >= l && /";$/ { print NR; exit }' "$H")
expect_err "duplicated opts_sig" 2 "$WORK/dup.h: line $((sig_end + 1)): duplicate opts_sig" \
	bt prog verify file "$WORK/dup.h" -i "$WORK/rsa.crt"
sed 's/opts_excl_hash\[\]/opts_extra\[\]/' "$H" >"$WORK/extra.h"
expect_err "unexpected blob" 2 "$WORK/extra.h: line $(grep -n 'opts_extra\[\]' "$WORK/extra.h" | cut -d: -f1): unexpected blob opts_extra" \
	bt prog verify file "$WORK/extra.h" -i "$WORK/rsa.crt"
# drop the last byte of opts_excl_hash
python3 - "$H" "$WORK/short.h" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
i = text.index('opts_excl_hash[]')
j = text.index('";', i)
m = re.search(r'\\(x[0-9a-f]{2}|0)$', text[i:j])
open(sys.argv[2], 'w').write(text[:i + m.start()] + text[j:])
PY
expect_err "opts_excl_hash of 31 bytes" 2 "$WORK/short.h: opts_excl_hash is 31 bytes, expected 32" \
	bt prog verify file "$WORK/short.h" -i "$WORK/rsa.crt"
grep -v -F -x '	opts.keyring_id = skel->keyring_id;' "$H" >"$WORK/nokeyring.h"
expect_err "signed header that does not pass keyring_id" 2 \
	"$WORK/nokeyring.h: expected 'opts.keyring_id = skel->keyring_id;' once in a signed light skeleton, found it 0 times" \
	bt prog verify file "$WORK/nokeyring.h" -i "$WORK/rsa.crt"
expect_err "signature file that is not PKCS#7" 1 "$WORK/garbage.h is not a DER PKCS#7 signature" \
	bt prog verify file "$H" -i "$WORK/rsa.crt" signature "$WORK/garbage.h"
expect_err "missing signature file" 2 "failed to open signature $WORK/none.p7s: No such file or directory" \
	bt prog verify file "$H" -i "$WORK/rsa.crt" signature "$WORK/none.p7s"

# --- Usage errors: status 2 ---
expect_err "verify without -i" 2 \
	"prog verify file HEADER needs the signer's certificate: -i <certificate.x509>" \
	bt prog verify file "$H"
expect_err "verify with -k" 2 "command 'prog verify' does not take option -k" \
	bt prog verify file "$H" -k "$WORK/rsa.key" -i "$WORK/rsa.crt"
expect_err "verify without arguments" 2 "'verify' needs at least 2 arguments, 0 found" \
	bt prog verify -i "$WORK/rsa.crt"
expect_err "verify with an unknown keyword" 2 "expected 'object OBJ' or 'signature SIGFILE' once each, got: 'bogus'" \
	bt prog verify file "$H" -i "$WORK/rsa.crt" bogus
expect_err "verify with a missing certificate" 2 \
	"failed to open certificate $WORK/none.crt: No such file or directory" \
	bt prog verify file "$H" -i "$WORK/none.crt"
# The old spellings without 'file': refused, nothing written
cp "$H" "$F/old.h"
expect_err "old spelling prog sign HEADER out FILE" 255 "expected 'file HEADER', got: '$F/old.h'" \
	bt prog sign "$F/old.h" -k "$WORK/rsa2.key" -i "$WORK/rsa2.crt" out "$F/old-out.h"
expect_err "old spelling prog sign HEADER (in place)" 255 "expected 'file HEADER', got: '$F/old.h'" \
	bt prog sign "$F/old.h" -k "$WORK/rsa2.key" -i "$WORK/rsa2.crt"
expect_eq "old spellings: header unchanged, no output file" "|no" \
	"$(cmp "$F/old.h" "$H" 2>&1)|$([ -e "$F/old-out.h" ] && echo yes || echo no)"
# prog verify HEADER is a program selector now: usage error from its parser
expect_err "old spelling prog verify HEADER signature SIGFILE" 2 \
	"expected 'id', 'tag', 'name' or 'pinned', got: '$F/old.h'?" \
	bt prog verify "$F/old.h" -i "$WORK/rsa.crt" signature "$D/opts_sig.bin"
expect_err "old spelling prog verify HEADER" 2 \
	"'verify' needs at least 2 arguments, 1 found" \
	bt prog verify "$F/old.h" -i "$WORK/rsa.crt"
expect_status "JSON error on failure: status 1" 1 \
	bt -j prog verify file "$WORK/flip-opts_data.h" -i "$WORK/rsa.crt"
expect_eq "JSON error on failure" \
	"opts_sig does not verify over the loader and its metadata with certificate $WORK/rsa.crt" \
	"$(jq -r .error "$WORK/out" 2>&1)"
expect_status "JSON error on malformed input: status 2" 2 \
	bt -j prog verify file "$WORK/garbage.h" -i "$WORK/rsa.crt"
expect_eq "JSON error on malformed input" "$WORK/garbage.h: not a header generated by bpftool" \
	"$(jq -r .error "$WORK/out" 2>&1)"

# -k and -i still need -S for the other commands (sign-options.sh has more)
expect_err "-k and -i without -S for gen skeleton" 255 \
	"--sign (or -S) must be explicitly passed with -i <identity_x509_cert> and -k <private_key> to sign the programs" \
	skel -k "$WORK/rsa.key" -i "$WORK/rsa.crt"
expect_err "-i without -S for prog show" 255 "command 'show' does not take option -i" \
	bt prog show -i "$WORK/rsa.crt"
