#!/usr/bin/env bash
# The signing options -S, -k and -i go only to the commands that take them
# (gen skeleton and prog load: -S with -k and -i; prog sign: -k and -i
# without -S; prog verify: -i alone). Any other command, in a batch file
# too, refuses them before it runs, with one error and status 255 (2 for
# prog verify, its usage error). The passphrase of an encrypted key comes
# from BPFTOOL_SIGN_PIN: file:PATH, fd:N or the passphrase itself.
# Nothing here makes a bpf() syscall: the refused commands never run.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

unset BPFTOOL_SIGN_PIN
obj=$T/sign_min.bpf.o
if [ ! -f "$obj" ]; then
	fail "sign_min.bpf.o" "missing $obj (build the tests first)"
	exit 1
fi

make_key rsa -algorithm RSA -pkeyopt rsa_keygen_bits:2048
K=$WORK/rsa.key
C=$WORK/rsa.crt
bt() { "$BPFTOOL" "$@"; }
skel() { "$BPFTOOL" "$@" gen skeleton "$obj" name sign_min; }


if ! skel -S -k "$K" -i "$C" >"$WORK/signed.h" 2>"$WORK/err"; then
	fail "gen skeleton -S" "$(head -c 300 "$WORK/err")"
	exit 1
fi
H=$WORK/signed.h
cp "$H" "$WORK/signed.h.orig"

# --- Commands that do not take the options refuse them, before running ---
expect_err "-i with prog show" 255 "command 'show' does not take option -i" \
	bt -i "$C" prog show
expect_err "-S -k -i with prog help" 255 "command 'help' does not take option -S" \
	bt -S -k "$K" -i "$C" prog help
expect_err "-k with map" 255 "command 'map' does not take option -k" \
	bt -k "$K" map show
expect_err "-S -k -i with prog loadall" 255 "command 'loadall' does not take option -S" \
	bt -S -k "$K" -i "$C" prog loadall "$obj" /sys/fs/bpf/sign-options-none
expect_err "-S -k -i with gen object" 255 "command 'object' does not take option -S" \
	bt -S -k "$K" -i "$C" gen object "$WORK/linked.o" "$obj"
expect_eq "refused gen object writes nothing" "" "$(ls "$WORK/linked.o" 2>/dev/null || true)"
expect_err "-S -k -i with gen subskeleton" 255 "command 'subskeleton' does not take option -S" \
	bt -S -k "$K" -i "$C" gen subskeleton "$obj"
expect_err "-S -k -i with version" 255 "command 'version' does not take option -S" \
	bt -S -k "$K" -i "$C" version
expect_err "-i with -V" 255 "command 'version' does not take option -i" \
	bt -i "$C" -V
expect_status "JSON: -i with map: status" 255 bt -j -i "$C" map
expect_eq "JSON: -i with map: error" "command 'map' does not take option -i" \
	"$(jq -r .error "$WORK/out" 2>&1)"

# --- gen skeleton and prog load: -S with both -k and -i (gen skeleton: or
# neither, for a header signed later), upstream's messages ---
expect_err "gen skeleton -S -k alone" 255 \
	"-i <identity_x509_cert> and -k <private_key> must be supplied with -S for signing (or neither, for a header signed later)" \
	skel -S -k "$K"
expect_err "gen skeleton -k -i without -S" 255 \
	"--sign (or -S) must be explicitly passed with -i <identity_x509_cert> and -k <private_key> to sign the programs" \
	skel -k "$K" -i "$C"
expect_err "prog load -S -k without -i" 255 \
	"-i <identity_x509_cert> and -k <private_key> must be supplied with -S for signing" \
	bt -S -k "$K" prog load "$obj" /sys/fs/bpf/sign-options-none
expect_err "prog load -i without -S" 255 \
	"--sign (or -S) must be explicitly passed with -i <identity_x509_cert> and -k <private_key> to sign the programs" \
	bt -i "$C" prog load "$obj" /sys/fs/bpf/sign-options-none

# --- prog sign takes -k and -i without -S; prog verify takes -i alone ---
expect_err "prog sign with -S" 255 "command 'prog sign' does not take option -S" \
	bt -S -k "$K" -i "$C" prog sign file "$H"
expect_eq "prog sign with -S: header unchanged" "" "$(cmp "$H" "$WORK/signed.h.orig" 2>&1)"
expect_status "prog sign with -k and -i" 0 \
	bt -k "$K" -i "$C" prog sign file "$H" out "$WORK/resigned.h"
expect_err "prog verify with -S" 2 "command 'prog verify' does not take option -S" \
	bt -S -k "$K" -i "$C" prog verify file "$H"
expect_err "prog verify with -k" 2 "command 'prog verify' does not take option -k" \
	bt -k "$K" -i "$C" prog verify file "$H"
expect_status "prog verify with -i" 0 bt -i "$C" prog verify file "$H"

# --- Batch files: each command is checked as if it were run alone ---
printf 'prog verify file %s\nprog verify file %s\n' "$H" "$WORK/resigned.h" >"$WORK/verify.batch"
expect_status "-i with a batch of prog verify" 0 bt -i "$C" batch file "$WORK/verify.batch"
expect_eq "-i with a batch of prog verify: both verified" 2 "$(grep -c '^verdict: *verified' "$WORK/out")"
printf 'gen skeleton %s name sign_min\n' "$obj" >"$WORK/gen.batch"
expect_status "-S -k -i with a batch of gen skeleton" 0 \
	bt -S -k "$K" -i "$C" batch file "$WORK/gen.batch"
printf 'prog verify file %s\nprog help\nprog verify file %s\n' "$H" "$H" >"$WORK/mixed.batch"
expect_status "-i with a batch that has prog help: status" 255 \
	bt -i "$C" batch file "$WORK/mixed.batch"
expect_eq "-i with a batch that has prog help: error" \
	"Error: command 'help' does not take option -i" "$(cat "$WORK/err")"
expect_eq "-i with a batch that has prog help: stops there" 1 \
	"$(grep -c '^verdict: *verified' "$WORK/out")"

# --- BPFTOOL_SIGN_PIN: file:PATH and fd:N, first line without its newline ---
openssl pkcs8 -topk8 -in "$K" -v2 aes-256-cbc -passout pass:s3cret -out "$WORK/enc.key"
skel -S -k "$K" -i "$C" >"$WORK/clear.h"
printf 's3cret\nnot this line\n' >"$WORK/pin"
printf 's3cret' >"$WORK/pin-no-newline"
printf 'wrong\n' >"$WORK/wrong-pin"
chmod 600 "$WORK/pin" "$WORK/pin-no-newline" "$WORK/wrong-pin"
signs_like_clear() {
	local name=$1
	shift
	expect_status "$name: status" 0 "$@"
	expect_eq "$name: same header as the clear key" "" "$(cmp "$WORK/out" "$WORK/clear.h" 2>&1)"
}
pin() { env BPFTOOL_SIGN_PIN="$1" "$BPFTOOL" -S -k "$WORK/enc.key" -i "$C" \
	gen skeleton "$obj" name sign_min; }
signs_like_clear "file:PATH" pin "file:$WORK/pin"
signs_like_clear "file:PATH without a newline" pin "file:$WORK/pin-no-newline"
signs_like_clear "fd:N on a file" pin fd:3 3<"$WORK/pin"
signs_like_clear "fd:N on a pipe" pin fd:3 3< <(printf 's3cret\n')
signs_like_clear "literal passphrase" pin s3cret
# At the size limit: bpftool reads a passphrase into OpenSSL's PEM_BUFSIZE
# (1024) bytes, so 1023 characters are the longest it takes, in the
# environment and as a file's first line, and 1024 are refused whole (not
# cut to a prefix)
long=$(printf 'p%.0s' $(seq 1023))
openssl pkcs8 -topk8 -in "$K" -v2 aes-256-cbc -passout "pass:$long" -out "$WORK/enc.key"
printf '%s\n' "$long" >"$WORK/pin-1023"
printf '%sp' "$long" >"$WORK/pin-1024"
chmod 600 "$WORK/pin-1023" "$WORK/pin-1024"
signs_like_clear "literal passphrase of 1023 characters" pin "$long"
signs_like_clear "file:PATH, a first line of 1023 characters" pin "file:$WORK/pin-1023"
expect_err "literal passphrase of 1024 characters" 255 \
	"passphrase in BPFTOOL_SIGN_PIN is too long" pin "${long}p"
expect_err "file:PATH of 1024 characters" 255 \
	"passphrase in BPFTOOL_SIGN_PIN=file:$WORK/pin-1024 is too long" pin "file:$WORK/pin-1024"
openssl pkcs8 -topk8 -in "$K" -v2 aes-256-cbc -passout pass:s3cret -out "$WORK/enc.key"
expect_status "unencrypted key: BPFTOOL_SIGN_PIN is not read" 0 \
	env BPFTOOL_SIGN_PIN="file:$WORK/none" "$BPFTOOL" -S -k "$K" -i "$C" \
	gen skeleton "$obj" name sign_min
expect_err "file:PATH missing" 255 \
	"failed to read the passphrase from BPFTOOL_SIGN_PIN=file:$WORK/none: No such file or directory" \
	pin "file:$WORK/none"
expect_err "file:PATH is a directory" 255 \
	"failed to read the passphrase from BPFTOOL_SIGN_PIN=file:$WORK: Is a directory" \
	pin "file:$WORK"
expect_err "file:PATH empty" 255 "no passphrase in BPFTOOL_SIGN_PIN=file:/dev/null" \
	pin file:/dev/null
expect_err "fd:N closed" 255 \
	"failed to read the passphrase from BPFTOOL_SIGN_PIN=fd:9: Bad file descriptor" \
	pin fd:9 9<&-
expect_err "fd:N not a number" 255 "invalid file descriptor in BPFTOOL_SIGN_PIN=fd:x" \
	pin fd:x
expect_err "file:PATH with a wrong passphrase" 255 \
	"failed to decrypt private key $WORK/enc.key with the passphrase in BPFTOOL_SIGN_PIN" \
	pin "file:$WORK/wrong-pin"
cp "$WORK/pin" "$WORK/shared-pin"
chmod 640 "$WORK/shared-pin"
signs_like_clear "file:PATH others may read" pin "file:$WORK/shared-pin"
expect_eq "file:PATH others may read: a warning" \
	"warning: $WORK/shared-pin may be read by others than its owner (mode 0640): make it private (chmod 600)" \
	"$(cat "$WORK/err")"
expect_eq "file:PATH private: no warning" "" "$(pin "file:$WORK/pin" 2>&1 >/dev/null)"
cp "$H" "$WORK/inplace.h"
expect_err "prog sign with an unreadable passphrase" 255 \
	"failed to read the passphrase from BPFTOOL_SIGN_PIN=file:$WORK/none: No such file or directory" \
	env BPFTOOL_SIGN_PIN="file:$WORK/none" "$BPFTOOL" -k "$WORK/enc.key" -i "$C" \
	prog sign file "$WORK/inplace.h"
expect_eq "unreadable passphrase: header unchanged" "" "$(cmp "$WORK/inplace.h" "$H" 2>&1)"
expect_eq "unreadable passphrase: no temporary file" "" \
	"$(find "$WORK" -maxdepth 1 -name '.*.??????' -printf '%f ')"
