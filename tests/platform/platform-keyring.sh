#!/usr/bin/env bash
# The platform keyring, booted through UEFI firmware (make check DISTRO=1):
# tests/run enrolled the tests' platform CA (tests/Makefile:
# keys/platform.pem) in UEFI db in an earlier boot of the same variable
# store, and this boot's kernel loaded it into .platform. What a program
# and a light skeleton verified against it record, what bpftool shows, and
# who accepts such a verdict: prog verify only with "keyring platform", the
# signed_only policy never.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$WORK"

dir=/sys/fs/bpf/platform
mkdir -p "$dir"
skid=$(openssl x509 -in "$T/keys/platform.pem" -noout -ext subjectKeyIdentifier |
	awk 'NR == 2 { gsub(/[ :]/, ""); print tolower($0) }')

expect_eq "platform: the kernel loaded the test CA from UEFI db into .platform" yes \
	"$(keyctl list %:.platform | grep -F "bpf-signing platform test CA" >/dev/null &&
		echo yes || echo no)"

# A program with a signature of its own
"$T/sig_load" dump-nomap prog.bin
cms_sign prog.bin "$T/keys/platform.pem" "$T/keys/platform.key" prog.der
expect_eq "platform: a program signed by the CA loads against keyring_id 2 (platform)" ok \
	"$("$T/sig_load" load --sig prog.der --keyring 2 --pin "$dir/signed" || true)"
expect_eq "platform: the same against the builtin keys (keyring_id 0): ENOKEY" ENOKEY \
	"$("$T/sig_load" load --sig prog.der --keyring 0 || true)"
expect_eq "platform: the same against the secondary keyring (keyring_id 1): ENOKEY" ENOKEY \
	"$("$T/sig_load" load --sig prog.der --keyring 1 || true)"

"$T/sig_load" fdinfo "$dir/signed" >fdinfo
field() { awk -v k="$1:" '$1 == k { print $2 }' fdinfo; }
expect_eq "platform: fdinfo prog_sig" verified "$(field prog_sig)"
expect_eq "platform: fdinfo prog_sig_keyring" platform "$(field prog_sig_keyring)"
expect_eq "platform: fdinfo has no keyring serial for a system keyring" "" \
	"$(field prog_sig_keyring_serial)"
expect_eq "platform: fdinfo prog_sig_signer is the CA's subjectKeyIdentifier" "$skid" \
	"$(field prog_sig_signer)"

"$BPFTOOL" prog show pinned "$dir/signed" >show.txt
expect_eq "platform: prog show's signature line" \
	"	signature verified  keyring platform  signer $skid  covers 0 maps" \
	"$(grep -P '^\tsignature ' show.txt)"
"$BPFTOOL" -j prog show pinned "$dir/signed" >show.json
expect_eq "platform: prog show -j: signature verdict, keyring, no serial, signer" \
	"verified platform null $skid" \
	"$(jq -r '.signature | "\(.verdict) \(.keyring) \(.keyring_serial) \(.signer.key_id)"' show.json)"

expect_err "platform: prog verify without a keyring refuses the platform keyring" 1 \
	"the program was verified against the platform keyring, which holds the firmware's third-party CAs: add 'keyring platform' to accept it" \
	"$BPFTOOL" prog verify pinned "$dir/signed"
expect_status "platform: prog verify ... keyring platform accepts it" 0 \
	"$BPFTOOL" prog verify pinned "$dir/signed" keyring platform
expect_status "platform: prog verify ... keyring builtin refuses it" 1 \
	"$BPFTOOL" prog verify pinned "$dir/signed" keyring builtin

# A light skeleton signed by the CA: its loader is verified against
# .platform, its programs carry the loader's verdict
expect_status "platform: a light skeleton signed by the CA loads with keyring_id 2" 0 \
	"$T/lskel_run_platform" pin "$dir" 2
expect_eq "platform: the same light skeleton with keyring_id 0: ENOKEY" "Required key not available" \
	"$("$T/lskel_run_platform" load-only 0 || true)"
expect_eq "platform: prog show's loader line for a program of the light skeleton" \
	"	loader sha256:$(cat "$T/platform/fentry_count.loader.sha256")  signature verified  keyring platform  signer $skid  covers 1 map" \
	"$("$BPFTOOL" prog show pinned "$dir/on_entry" | grep -P '^\tloader ')"
expect_err "platform: prog verify without a keyring refuses the loader's platform verdict" 1 \
	"the program's loader was verified against the platform keyring, which holds the firmware's third-party CAs: add 'keyring platform' to accept it" \
	"$BPFTOOL" prog verify pinned "$dir/on_entry"
expect_status "platform: prog verify ... keyring platform accepts the light skeleton's program" 0 \
	"$BPFTOOL" prog verify pinned "$dir/on_entry" keyring platform

# The signed_only policy trusts the builtin and secondary keys and one
# named keyring, never the platform keyring
keyctl new_session >/dev/null
keyctl padd asymmetric "" @s <"$T/keys/signer.der" >/dev/null
expect_status "platform: the signed_only policy loads and attaches" 0 \
	"$T/signed_only" enforce "$dir/policy" session session
expect_eq "platform: under the policy, a program verified against .platform: EPERM" EPERM \
	"$("$T/sig_load" load --sig prog.der --keyring 2 || true)"
expect_eq "platform: under the policy, the platform-signed light skeleton is refused" \
	"Operation not permitted" "$("$T/lskel_run_platform" load-only 2 || true)"
rm -f "$dir/policy"
