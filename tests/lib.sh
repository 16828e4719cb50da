# Helpers for the shell tests: each check prints "PASS: name" or
# "FAIL: name: why", which tests/run counts. Sourced, never executed.
# shellcheck shell=bash

TESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(dirname "$TESTS_DIR")
OUT=$REPO_ROOT/out
BPFTOOL=${BPFTOOL:-$OUT/bpftool}
# the same linked dynamically, for PKCS#11 tokens (tests/run sets both to
# the ASan build under SANITIZE=1, which is dynamic too)
BPFTOOL_DYNAMIC=${BPFTOOL_DYNAMIC:-$OUT/bpftool-dynamic/bpftool}
T=${T:-$OUT/tests}

pass() { echo "PASS: $1"; }
# a script that failed a check exits non-zero (see the EXIT trap below)
FAILED=0
fail() { echo "FAIL: $1${2:+: $2}"; FAILED=1; }

# expect_eq NAME EXPECTED ACTUAL
expect_eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "expected '$2', got '$3'"; fi
}

# expect_status NAME STATUS COMMAND...: COMMAND exits with exactly STATUS
expect_status() {
	local name=$1 want=$2 got=0
	shift 2
	"$@" >"$WORK/out" 2>"$WORK/err" || got=$?
	if [ "$got" = "$want" ]; then
		pass "$name"
	else
		fail "$name" "exit $got, expected $want; stderr: $(head -c 500 "$WORK/err")"
	fi
}

# expect_err NAME STATUS MESSAGE COMMAND...: COMMAND exits with exactly
# STATUS, prints exactly "Error: MESSAGE" on stderr and nothing on stdout
expect_err() {
	local name=$1 status=$2 msg=$3
	shift 3
	expect_status "$name: exit status" "$status" "$@"
	expect_eq "$name: message" "Error: $msg" "$(cat "$WORK/err")"
	expect_eq "$name: nothing on stdout" 0 "$(wc -c <"$WORK/out")"
}

# mask_json <JSON: its shape, for a golden file: keys sorted, numbers 0,
# digests "sha256:<SHA256>", hex strings "<HEX>", the words of a verdict as
# they are, any other string "<S>"
mask_json() {
	jq -S 'walk(if type == "number" then 0
		elif type != "string" then .
		elif test("^sha256:[0-9a-f]{64}$") then "sha256:<SHA256>"
		elif test("^[0-9a-f]+$") then "<HEX>"
		elif test("^(verified|unsigned|user|builtin|secondary|platform|program|loader|sha256|sha384|sha512|rsaEncryption|id-ecPublicKey|opts_sig)$") then .
		else "<S>" end)'
}

# golden FILE NAME: FILE is byte for byte tests/golden/NAME (UPDATE_GOLDEN=1
# rewrites the golden file instead); mask what varies first
golden() {
	if [ -n "${UPDATE_GOLDEN:-}" ]; then
		cp "$1" "$TESTS_DIR/golden/$2"
	fi
	if diff -u "$TESTS_DIR/golden/$2" "$1" >"$WORK/golden.diff"; then
		pass "output matches golden/$2"
	else
		fail "output matches golden/$2" "$(cat "$WORK/golden.diff")"
	fi
}

# run_tool TOOL ARGS...: run the C test tool out/tests/TOOL, which prints
# its own PASS/FAIL lines. Any other ending than exit status 0 is a failure
# naming the tool: a crash, a missing tool, a usage or setup error, or a
# failed check (also reported by the tool itself), so silence never passes.
run_tool() {
	local rc=0
	"$T/$1" "${@:2}" || rc=$?
	if [ "$rc" != 0 ]; then
		fail "$*: exited with status $rc"
	fi
}

# flip_byte FILE OFFSET: XOR the byte at OFFSET with 0xff, in place, and
# fail loudly if the file did not change (so a tamper can never be a no-op)
flip_byte() {
	local f=$1 off=$2 old new
	old=$(xxd -s "$off" -l 1 -p "$f")
	[ -n "$old" ] || { echo "flip_byte: $f has no byte at $off" >&2; return 1; }
	new=$(printf '%02x' $((0x$old ^ 0xff)))
	printf '%s' "$new" | xxd -r -p | dd of="$f" bs=1 seek="$off" conv=notrunc 2>/dev/null
	[ "$(xxd -s "$off" -l 1 -p "$f")" = "$new" ] ||
		{ echo "flip_byte: $f byte $off did not change" >&2; return 1; }
}

# cms_sign DATA CERT KEY OUT: a detached DER PKCS#7 signature over DATA as
# bpftool makes it (SHA-256, no signed attributes, no certificates, signer
# named by key identifier)
cms_sign() {
	openssl cms -sign -binary -noattr -nocerts -nosmimecap -md sha256 -keyid \
		-in "$1" -signer "$2" -inkey "$3" -outform DER -out "$4"
}

# make_key NAME GENPKEY_OPTIONS...: $WORK/NAME.key, a self-signed
# certificate with a subjectKeyIdentifier as $WORK/NAME.crt (PEM) and .der
make_key() {
	local n=$1
	shift
	openssl genpkey "$@" -out "$WORK/$n.key" 2>/dev/null
	openssl req -new -x509 -key "$WORK/$n.key" -subj "/CN=bpftool test $n" -days 2 \
		-addext subjectKeyIdentifier=hash -out "$WORK/$n.crt"
	openssl x509 -in "$WORK/$n.crt" -outform DER -out "$WORK/$n.der"
}

# skid CERT: the certificate's subjectKeyIdentifier, lower-case hex
skid() {
	openssl x509 -in "$1" -noout -ext subjectKeyIdentifier | tail -n 1 | tr -d ' :' | tr A-F a-f
}

# key_digest CERT: the signer key digest the kernel records and bpftool
# prints (fdinfo prog_sig_signer_key, "signer key"): SHA-256 of the
# certificate's subjectPublicKey BIT STRING contents without the unused-bits
# octet, found here with openssl asn1parse in the SubjectPublicKeyInfo
key_digest() {
	local cert=$1 spki=$WORK/key-digest.spki.der at
	openssl x509 -in "$cert" -pubkey -noout | openssl pkey -pubin -outform DER -out "$spki"
	# offset, header length and length of the BIT STRING at depth 1
	at=$(openssl asn1parse -inform DER -in "$spki" |
		sed -nE 's/^ *([0-9]+):d=1 +hl= *([0-9]+) +l= *([0-9]+) +prim: +BIT STRING.*/\1 \2 \3/p')
	set -- $at
	[ $# = 3 ] || { echo "key_digest: no BIT STRING in the key of $cert" >&2; return 1; }
	# a key's BIT STRING has no unused bits
	[ "$(xxd -s $(($1 + $2)) -l 1 -p "$spki")" = 00 ] ||
		{ echo "key_digest: unused bits in the key of $cert" >&2; return 1; }
	tail -c +$(($1 + $2 + 2)) "$spki" | head -c $(($3 - 1)) | openssl dgst -sha256 -r | cut -c1-64
}

# A fresh scratch folder per test script, removed on exit with whatever a
# script adds to CLEANUP (pins, other folders: never a trap of its own,
# which would replace this one); a script that failed a check exits with
# status 1 if it would have exited with 0.
WORK=$(mktemp -d)
CLEANUP=()
trap 'rc=$?; rm -rf "$WORK" "${CLEANUP[@]}"; [ "$rc" != 0 ] || [ "$FAILED" = 0 ] || exit 1' EXIT
