#!/usr/bin/env bash
# BPF_PROG_LOAD signature checks (signature, signature_size, keyring_id,
# fd_array_cnt), against data signed here with openssl. Each refusal names
# the attack or mistake it models and asserts one errno.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$WORK"

sha256() { openssl dgst -sha256 -r "$1" | cut -d' ' -f1; }
# newkey ALG NAME [-pkeyopt OPT]: key NAME.key, certificate NAME.pem/.der
newkey() {
	local alg=$1 name=$2
	shift 2
	openssl req -x509 -newkey "$alg" "$@" -nodes -keyout "$name.key" -out "$name.pem" \
		-days 2 -subj "/CN=$name" 2>/dev/null
	openssl x509 -in "$name.pem" -outform DER -out "$name.der"
}
load() { "$T/sig_load" load "$@" 2>>"$WORK/load.err" || true; }

newkey rsa:2048 signer
newkey rsa:2048 stranger
newkey ec ecsigner -pkeyopt ec_paramgen_curve:prime256v1

# A keyring holding the signer's certificate, and the session keyring too.
keyctl new_session >/dev/null
ring=$(keyctl newring bpftest @s)
keyctl padd asymmetric "" "$ring" <signer.der >/dev/null
keyctl padd asymmetric "" "$ring" <ecsigner.der >/dev/null
keyctl padd asymmetric "" @s <signer.der >/dev/null
empty=$(keyctl newring empty @s)
userkey=$(keyctl add user notakeyring secret @s)

"$T/sig_load" dump insns.bin
printf 'loader metadata: maps, programs, relocations... %s\n' {1..40} >meta.bin
excl=$(sha256 insns.bin)
# The kernel signs value_size bytes of each map's one value, as upstream
# does; the map's hash covers the value padded with zeros to 8 bytes
# (elem_size). meta.bin's odd size makes the difference matter.
pad8() { cat "$1"; head -c $(((8 - $(stat -c %s "$1") % 8) % 8)) /dev/zero; }
cat insns.bin meta.bin >signed.bin
{ cat insns.bin; pad8 meta.bin; } >padded.bin
cms_sign signed.bin signer.pem signer.key sig.der
cms_sign signed.bin ecsigner.pem ecsigner.key ecsig.der
cms_sign signed.bin stranger.pem stranger.key stranger.der
cms_sign insns.bin signer.pem signer.key insns-only.der
cms_sign padded.bin signer.pem signer.key padded.der

# Good signatures
expect_eq "signed loader + metadata, keyring by serial: loads" ok \
	"$(load --meta meta.bin --excl "$excl" --sig sig.der --keyring "$ring")"
expect_eq "signed with ECDSA P-256: loads" ok \
	"$(load --meta meta.bin --excl "$excl" --sig ecsig.der --keyring "$ring")"
expect_eq "session keyring (KEY_SPEC_SESSION_KEYRING): loads" ok \
	"$(load --meta meta.bin --excl "$excl" --sig sig.der --keyring -3)"
"$T/sig_load" dump-nomap nomap.bin
cms_sign nomap.bin signer.pem signer.key nomap.der
"$T/sig_load" dump-prog mapfd mapfd.bin
cms_sign mapfd.bin signer.pem signer.key mapfd.der
"$T/sig_load" dump-prog ksym ksym.bin
cms_sign ksym.bin signer.pem signer.key ksym.der
expect_eq "fd_array_cnt 0: signature over instructions only loads" ok \
	"$(load --sig nomap.der --keyring "$ring")"
expect_eq "unsigned program still loads" ok "$(load --meta meta.bin --excl "$excl")"
# fdinfo says what a verdict covers: an instructions-only signature must not
# read like one over the loader and its metadata
expect_eq "fdinfo: signature over instructions and one map covers 1 map" "prog_sig_maps:	1" \
	"$(load --meta meta.bin --excl "$excl" --sig sig.der --keyring "$ring" --fdinfo |
		grep '^prog_sig_maps:' || true)"
expect_eq "fdinfo: signature over instructions only covers 0 maps" "prog_sig_maps:	0" \
	"$(load --sig nomap.der --keyring "$ring" --fdinfo | grep '^prog_sig_maps:' || true)"
expect_eq "fdinfo: unsigned program has no maps line" "prog_sig:	unsigned" \
	"$(load --meta meta.bin --excl "$excl" --fdinfo | grep '^prog_sig' || true)"
expect_eq "unsigned program with plain metadata map loads" ok "$(load --meta meta.bin)"

expect_eq "metadata size is not a multiple of 8" 1 $(($(stat -c %s meta.bin) % 8 != 0))
expect_eq "signed over the value padded to 8 bytes: EKEYREJECTED" EKEYREJECTED \
	"$(load --meta meta.bin --excl "$excl" --sig padded.der --keyring "$ring")"
expect_eq "metadata map's hash = SHA-256 of its value padded to 8 bytes" \
	"$(pad8 meta.bin | openssl dgst -sha256 -r | cut -d' ' -f1)" \
	"$(load --meta meta.bin --excl "$excl" --sig sig.der --keyring "$ring" --fdinfo |
		sed -n 's/^map_hash:\t//p')"

# Tampering
cp meta.bin meta-flip.bin
flip_byte meta-flip.bin 5
expect_eq "one metadata byte flipped: EKEYREJECTED" EKEYREJECTED \
	"$(load --meta meta-flip.bin --excl "$excl" --sig sig.der --keyring "$ring")"
expect_eq "signature over instructions only, metadata added: EKEYREJECTED" EKEYREJECTED \
	"$(load --meta meta.bin --excl "$excl" --sig insns-only.der --keyring "$ring")"
cp sig.der sig-flip.der
flip_byte sig-flip.der $(($(stat -c %s sig.der) - 10))
expect_eq "one signature byte flipped: EKEYREJECTED" EKEYREJECTED \
	"$(load --meta meta.bin --excl "$excl" --sig sig-flip.der --keyring "$ring")"
head -c 300 /dev/urandom >junk.der
expect_eq "junk PKCS#7: EBADMSG" EBADMSG \
	"$(load --meta meta.bin --excl "$excl" --sig junk.der --keyring "$ring")"
head -c 100 sig.der >trunc.der
expect_eq "truncated signature: EBADMSG" EBADMSG \
	"$(load --meta meta.bin --excl "$excl" --sig trunc.der --keyring "$ring")"
# A second SignerInfo: the message would pass if any one signer were
# trusted, with the other one reported as the signer. Exactly one signer,
# in either order.
two_signers() {
	openssl cms -sign -binary -noattr -nocerts -nosmimecap -md sha256 -keyid -in signed.bin \
		-signer "$1.pem" -inkey "$1.key" -signer "$2.pem" -inkey "$2.key" -outform DER -out "$3"
}
two_signers stranger signer two-stranger-first.der
two_signers signer stranger two-signer-first.der
expect_eq "two signers, an untrusted one first: EBADMSG" EBADMSG \
	"$(load --meta meta.bin --excl "$excl" --sig two-stranger-first.der --keyring "$ring")"
expect_eq "two signers, the trusted one first: EBADMSG" EBADMSG \
	"$(load --meta meta.bin --excl "$excl" --sig two-signer-first.der --keyring "$ring")"
expect_eq "signed by a key not in the keyring: ENOKEY" ENOKEY \
	"$(load --meta meta.bin --excl "$excl" --sig stranger.der --keyring "$ring")"
expect_eq "empty keyring: ENOKEY" ENOKEY \
	"$(load --meta meta.bin --excl "$excl" --sig sig.der --keyring "$empty")"

# The metadata map must be what the kernel can vouch for
expect_eq "metadata map not frozen: EPERM" EPERM \
	"$(load --meta meta.bin --excl "$excl" --no-freeze --sig sig.der --keyring "$ring")"
expect_eq "metadata map not exclusive: EPERM (as upstream)" EPERM \
	"$(load --meta meta.bin --sig sig.der --keyring "$ring")"
expect_eq "metadata map is a HASH map: EINVAL" EINVAL \
	"$(load --meta meta.bin --excl "$excl" --map-type hash --sig sig.der --keyring "$ring")"
# An offloaded map (struct bpf_offloaded_map, here on netdevsim) has the
# ARRAY type but none of an array's memory: refused, never read as one
echo "1 1" >/sys/bus/netdevsim/new_device
ifindex=$(cat /sys/bus/netdevsim/devices/netdevsim1/net/*/ifindex)
expect_eq "metadata map offloaded to a netdevsim device: EINVAL" EINVAL \
	"$(load --meta meta.bin --excl "$excl" --ifindex "$ifindex" --sig sig.der --keyring "$ring")"
echo 1 >/sys/bus/netdevsim/del_device
other=$(printf '%064x' 7)
expect_eq "metadata map exclusive to another program: EACCES" EACCES \
	"$(load --meta meta.bin --excl "$other" --sig sig.der --keyring "$ring")"
expect_eq "exclusive map used but not covered (fd_array_cnt 0): EACCES" EACCES \
	"$(load --meta meta.bin --excl "$excl" --fd-array-cnt 0 --sig insns-only.der --keyring "$ring")"

# Hostile attributes
expect_eq "signature_size 0: EINVAL" EINVAL \
	"$(load --meta meta.bin --excl "$excl" --sig sig.der --sig-size 0 --keyring "$ring")"
expect_eq "signature_size KMALLOC_MAX_CACHE_SIZE + 1: EINVAL" EINVAL \
	"$(load --meta meta.bin --excl "$excl" --sig sig.der --sig-size 8193 --keyring "$ring")"
expect_eq "signature_size 64 MiB: EINVAL" EINVAL \
	"$(load --meta meta.bin --excl "$excl" --sig sig.der --sig-size $((64 << 20)) --keyring "$ring")"
expect_eq "signature_size UINT32_MAX: EINVAL" EINVAL \
	"$(load --meta meta.bin --excl "$excl" --sig sig.der --sig-size 0xffffffff --keyring "$ring")"
expect_eq "signature_size without signature: ignored, as upstream" "ok|prog_sig:	unsigned" \
	"$(load --meta meta.bin --excl "$excl" --sig-size 256 --keyring "$ring" --fdinfo |
		grep -E '^(ok|prog_sig:)' | paste -sd'|')"
expect_eq "unmapped signature pointer: EFAULT" EFAULT \
	"$(load --meta meta.bin --excl "$excl" --sig-ptr bad --keyring "$ring")"
expect_eq "keyring_id INT_MAX: EINVAL" EINVAL \
	"$(load --meta meta.bin --excl "$excl" --sig sig.der --keyring 2147483647)"
expect_eq "keyring_id -9 (no .bpf keyring here): EINVAL" EINVAL \
	"$(load --meta meta.bin --excl "$excl" --sig sig.der --keyring -9)"
expect_eq "keyring_id names a user key, not a keyring: EINVAL" EINVAL \
	"$(load --meta meta.bin --excl "$excl" --sig sig.der --keyring "$userkey")"
expect_eq "keyring_id without a signature: ignored, as upstream" "ok|prog_sig:	unsigned" \
	"$(load --meta meta.bin --excl "$excl" --keyring "$ring" --fdinfo |
		grep -E '^(ok|prog_sig:)' | paste -sd'|')"
expect_eq "fd_array_cnt 4097 (> 4096): E2BIG" E2BIG \
	"$(load --meta meta.bin --excl "$excl" --fd-array-cnt 4097 --sig sig.der --keyring "$ring")"
expect_eq "fd_array_cnt 2, fd_array[1] = -1: EBADF" EBADF \
	"$(load --meta meta.bin --excl "$excl" --fd-array-cnt 2 --extra-fd -1)"
expect_eq "fd_array_cnt 2, fd_array[1] is neither a map nor BTF: EINVAL" EINVAL \
	"$(load --meta meta.bin --excl "$excl" --fd-array-cnt 2 --extra-fd 0)"
# An index into fd_array is bounded by fd_array_cnt: the index equal to it
# and the one past it are refused (a kernel comparing with > would read
# past the maps it resolved), for unsigned loads as for signed ones
expect_eq "fd_array_cnt 1, the program reaches fd_array[1]: EINVAL" EINVAL \
	"$(load --meta meta.bin --map-idx 1)"
expect_eq "fd_array_cnt 1, the program reaches fd_array[2]: EINVAL" EINVAL \
	"$(load --meta meta.bin --map-idx 2)"

# A map listed twice is folded once, as upstream binds it once: a signature
# over its value twice does not verify
cat insns.bin meta.bin meta.bin >twice.bin
cms_sign twice.bin signer.pem signer.key twice.der
expect_eq "fd_array_cnt 2 listing the metadata map twice, signed twice: EKEYREJECTED" \
	EKEYREJECTED \
	"$(load --meta meta.bin --excl "$excl" --fd-array-cnt 2 --extra-fd same --sig twice.der --keyring "$ring")"

# The keyring named must be one the caller may search (keyctl search's
# rule): not a keyring without search permission for its possessor, nor
# another user's keyring. Before, such a load was recorded as verified
# against it, and ENOKEY/EKEYREJECTED told which keys it held.
nosearch=$(keyctl newring nosearch @s)
keyctl padd asymmetric "" "$nosearch" <signer.der >/dev/null
keyctl setperm "$nosearch" 0x37370000
expect_eq "keyctl search of a keyring without search permission is refused" 1 \
	"$(keyctl search "$nosearch" asymmetric x 2>&1 | grep -c 'Permission denied' || true)"
expect_eq "keyring without search permission (possessor and owner): EACCES" EACCES \
	"$(load --meta meta.bin --excl "$excl" --sig sig.der --keyring "$nosearch")"
expect_eq "keyring without search permission, wrong key: EACCES, not ENOKEY" EACCES \
	"$(load --meta meta.bin --excl "$excl" --sig stranger.der --keyring "$nosearch")"
others=$(keyctl newring others @s)
keyctl padd asymmetric "" "$others" <signer.der >/dev/null
keyctl setperm "$others" 0x013f0000
keyctl chown "$others" 65534
expect_eq "another user's keyring (uid 65534, possessor may only view): EACCES" EACCES \
	"$(load --meta meta.bin --excl "$excl" --sig sig.der --keyring "$others")"
expect_eq "a keyring the caller may search still verifies (by serial)" ok \
	"$(load --meta meta.bin --excl "$excl" --sig sig.der --keyring "$ring")"

expect_eq "fd_array_cnt binds a map no instruction references" 1 "$("$T/sig_load" bound)"

# The signed data is capped at 16 MiB: three maps of 4 MiB (an array
# value's limit) after the instructions are signed and checked, four are
# refused before any copy. (The maps are bound through fd_array_cnt only.)
head -c $((4 << 20)) /dev/urandom >mib.bin
nomap_excl=$(sha256 nomap.bin)
cat nomap.bin mib.bin mib.bin mib.bin >big.bin
cms_sign big.bin signer.pem signer.key big.der
expect_eq "signed data of three 4 MiB maps + the instructions: loads" ok \
	"$(load --nomap --meta mib.bin --maps 3 --excl "$nomap_excl" --sig big.der --keyring "$ring")"
expect_eq "signed data over 16 MiB (four 4 MiB maps): E2BIG" E2BIG \
	"$(load --nomap --meta mib.bin --maps 4 --excl "$nomap_excl" --sig big.der --keyring "$ring")"
rm -f big.bin

# The verifier log says why, for every way the check can fail, and
# log_true_size counts it (with its NUL)
logged() {
	local name=$1
	shift
	"$T/sig_load" load --meta meta.bin --excl "$excl" --log "$@" >/dev/null 2>log.txt || true
	expect_eq "verifier log says 'signature verification failed': $name" \
		"signature verification failed|log_true_size 31" "$(paste -sd'|' log.txt)"
}
logged "bad signature" --meta meta-flip.bin --sig sig.der --keyring "$ring"
logged "signature_size 0" --sig sig.der --sig-size 0 --keyring "$ring"
logged "keyring_id INT_MAX" --sig sig.der --keyring 2147483647
logged "junk PKCS#7" --sig junk.der --keyring "$ring"
# Every other place in bpf_prog_verify_signature() that fails a signed load
# (kernel/bpf/syscall.c), with its errno: each goes through its one exit,
# which writes the line. logged_as NAME ERRNO SIG_LOAD-ARGS...: the load
# fails with ERRNO and the log is exactly that line.
logged_as() {
	local name=$1 want=$2 got
	shift 2
	got=$("$T/sig_load" load --log "$@" 2>log.txt || true)
	expect_eq "verifier log says 'signature verification failed': $name" \
		"$want|signature verification failed|log_true_size 31" "$got|$(paste -sd'|' log.txt)"
}
M=(--meta meta.bin --excl "$excl")
logged_as "signature_size 8193 (> KMALLOC_MAX_CACHE_SIZE)" EINVAL "${M[@]}" --sig sig.der --sig-size 8193 --keyring "$ring"
logged_as "keyring_id names a user key, not a keyring" EINVAL "${M[@]}" --sig sig.der --keyring "$userkey"
logged_as "keyring without search permission" EACCES "${M[@]}" --sig sig.der --keyring "$nosearch"
logged_as "unmapped signature pointer" EFAULT "${M[@]}" --sig-ptr bad --keyring "$ring"
logged_as "truncated signature (not one DER message)" EBADMSG "${M[@]}" --sig trunc.der --keyring "$ring"
# one DER message (SEQUENCE { INTEGER 0 }) that the PKCS#7 parser refuses
printf '\x30\x03\x02\x01\x00' >seq.der
logged_as "one DER message, not PKCS#7" EBADMSG "${M[@]}" --sig seq.der --keyring "$ring"
openssl cms -sign -binary -nosmimecap -nocerts -md sha256 -keyid -econtent_type 1.3.6.1.4.1.2312.16.1 \
	-in signed.bin -signer signer.pem -inkey signer.key -outform DER -out econtent.der
logged_as "eContentType unknown to the parser" EINVAL "${M[@]}" --sig econtent.der --keyring "$ring"
logged_as "two signers" EBADMSG "${M[@]}" --sig two-stranger-first.der --keyring "$ring"
logged_as "metadata map is a HASH map" EINVAL "${M[@]}" --map-type hash --sig sig.der --keyring "$ring"
logged_as "metadata array of two elements" "errno 524" "${M[@]}" --entries 2 --sig sig.der --keyring "$ring"
logged_as "metadata map not frozen" EPERM "${M[@]}" --no-freeze --sig sig.der --keyring "$ring"
logged_as "metadata map not exclusive" EPERM --meta meta.bin --sig sig.der --keyring "$ring"
logged_as "signed data over 16 MiB" E2BIG --nomap --meta mib.bin --maps 4 --excl "$nomap_excl" \
	--sig big.der --keyring "$ring"
logged_as "signed by a key not in the keyring" ENOKEY "${M[@]}" --sig stranger.der --keyring "$ring"
logged_as "a test key against the builtin keyring" ENOKEY "${M[@]}" --sig sig.der --keyring 0
logged_as "keyring 2 (platform)" ENOKEY "${M[@]}" --sig sig.der --keyring 2
logged_as "one signature byte flipped" EKEYREJECTED "${M[@]}" --sig sig-flip.der --keyring "$ring"
openssl cms -sign -binary -noattr -nocerts -nosmimecap -md sha1 -keyid \
	-in signed.bin -signer signer.pem -inkey signer.key -outform DER -out sha1.der
logged_as "SHA-1 digest (not for BPF signatures)" EKEYREJECTED "${M[@]}" --sig sha1.der --keyring "$ring"
"$T/cms_craft" sign --sigalg 1.2.840.113549.1.1.11 signed.bin signer.pem signer.key sigalg.der
logged_as "signatureAlgorithm sha256WithRSAEncryption" ENOPKG "${M[@]}" --sig sigalg.der --keyring "$ring"
# Refusals of a signed load that are not the signature's: the signature
# verified, and the verifier says why it refuses the program, before it
# looks at any instruction
verifier_says() {
	local name=$1 errno=$2 want=$3 got
	shift 3
	got=$("$T/sig_load" load --log "$@" 2>log.txt || true)
	expect_eq "verifier log of a verified signed load refused: $name" \
		"$errno|$want|processed 0 insns (limit 1000000) max_states_per_insn 0 total_states 0 peak_states 0 mark_read 0" \
		"$got|$(grep -v '^log_true_size ' log.txt | paste -sd'|')"
}
verifier_says "metadata map exclusive to another program" EACCES \
	"program's hash doesn't match map's excl_prog_hash" \
	--meta meta.bin --excl "$other" --sig sig.der --keyring "$ring"
verifier_says "exclusive map used but not covered (fd_array_cnt 0)" EACCES \
	"signed program must bind maps via a continuous fd_array (fd_array_cnt)" \
	"${M[@]}" --fd-array-cnt 0 --sig insns-only.der --keyring "$ring"
verifier_says "a plain map by fd in signed instructions" EINVAL \
	"signed program cannot reference a map by fd, only via fd_array index" \
	--prog mapfd --sig mapfd.der --keyring "$ring"
verifier_says "a ksym's BTF in a signed program" EACCES \
	"signed program cannot bind any BTF" --prog ksym --sig ksym.der --keyring "$ring"

# The builtin trusted keys hold the kernel build's own signing key.
kkey=$OUT/kernel-signing-key.pem
if [ -f "$kkey" ]; then
	cms_sign signed.bin "$kkey" "$kkey" builtin.der
	expect_eq "signed with the kernel's build key, keyring 0 (builtin): loads" ok \
		"$(load --meta meta.bin --excl "$excl" --sig builtin.der --keyring 0)"
	expect_eq "signed with the kernel's build key, keyring 1 (secondary): loads" ok \
		"$(load --meta meta.bin --excl "$excl" --sig builtin.der --keyring 1)"
	expect_eq "keyring 2 (platform: none, or empty without UEFI keys): ENOKEY" ENOKEY \
		"$(load --meta meta.bin --excl "$excl" --sig builtin.der --keyring 2)"
	expect_eq "test key against the builtin keyring: ENOKEY" ENOKEY \
		"$(load --meta meta.bin --excl "$excl" --sig sig.der --keyring 0)"

	# The secondary keyring takes a certificate only if a builtin (or
	# secondary) key signed it: a release key certified by the build key.
	openssl req -new -newkey rsa:2048 -nodes -keyout release.key -subj /CN=release \
		-out release.csr 2>/dev/null
	printf '%s\n' subjectKeyIdentifier=hash authorityKeyIdentifier=keyid \
		basicConstraints=CA:FALSE keyUsage=digitalSignature >release.ext
	openssl x509 -req -in release.csr -CA "$kkey" -CAkey "$kkey" -days 2 \
		-extfile release.ext -out release.pem 2>/dev/null
	openssl x509 -in release.pem -outform DER -out release.der
	expect_status "secondary keyring: a certificate signed by the build key is enrolled" 0 \
		keyctl padd asymmetric "" %:.secondary_trusted_keys <release.der
	expect_status "secondary keyring: a self-signed certificate is refused" 1 \
		keyctl padd asymmetric "" %:.secondary_trusted_keys <stranger.der
	cms_sign signed.bin release.pem release.key release.sig
	expect_eq "signed with the enrolled key, keyring 1: verified against secondary" \
		"prog_sig:	verified|prog_sig_keyring:	secondary" \
		"$(load --meta meta.bin --excl "$excl" --sig release.sig --keyring 1 --fdinfo |
			grep -E '^prog_sig(_keyring)?:' | paste -sd'|')"
	expect_eq "signed with the enrolled key, keyring 0 (builtin only): ENOKEY" ENOKEY \
		"$(load --meta meta.bin --excl "$excl" --sig release.sig --keyring 0)"
else
	fail "kernel signing key staged in out/" "$kkey missing"
fi

# The same signatures through libbpf: bpf_prog_load() and the signature,
# signature_sz, keyring_id and fd_array_cnt of bpf_prog_load_opts
libbpf_load() { load --libbpf --meta meta.bin --excl "$excl" "$@"; }
mkdir -p /sys/fs/bpf/libbpf-opts
expect_eq "libbpf opts: signed loader + metadata: loads" ok \
	"$(libbpf_load --sig sig.der --keyring "$ring" --pin /sys/fs/bpf/libbpf-opts/signed)"
"$BPFTOOL" -j prog show pinned /sys/fs/bpf/libbpf-opts/signed >libbpf-signed.json
expect_eq "libbpf opts: prog show: verified against the keyring, covers 1 map" \
	"verified|user|$ring|1" \
	"$(jq -r '.signature | "\(.verdict)|\(.keyring)|\(.keyring_serial)|\(.covers_maps)"' \
		libbpf-signed.json)"
expect_eq "libbpf opts: prog show: digest is the SHA-256 of the instructions" \
	"sha256:$excl" "$(jq -r .digest libbpf-signed.json)"
rm -rf /sys/fs/bpf/libbpf-opts
expect_eq "libbpf opts: signature over instructions only (fd_array_cnt 0): loads" ok \
	"$(load --libbpf --sig nomap.der --keyring "$ring")"
expect_eq "libbpf opts: one metadata byte flipped: EKEYREJECTED" EKEYREJECTED \
	"$(load --libbpf --meta meta-flip.bin --excl "$excl" --sig sig.der --keyring "$ring")"
expect_eq "libbpf opts: signed by a key not in the keyring: ENOKEY" ENOKEY \
	"$(libbpf_load --sig stranger.der --keyring "$ring")"
expect_eq "libbpf opts: junk PKCS#7: EBADMSG" EBADMSG "$(libbpf_load --sig junk.der --keyring "$ring")"
expect_eq "libbpf opts: signature_sz 0: EINVAL" EINVAL \
	"$(libbpf_load --sig sig.der --sig-size 0 --keyring "$ring")"
expect_eq "libbpf opts: metadata map not frozen: EPERM" EPERM \
	"$(libbpf_load --no-freeze --sig sig.der --keyring "$ring")"
expect_eq "libbpf opts: fd_array_cnt 4097: E2BIG" E2BIG \
	"$(libbpf_load --fd-array-cnt 4097 --sig sig.der --keyring "$ring")"
# An application built before fd_array_cnt passes a smaller opts: libbpf
# reads none of the new fields, and the program loads as before (unsigned)
expect_eq "libbpf opts: opts.sz of an older binary: loads, unsigned" "ok|prog_sig:	unsigned" \
	"$(load --libbpf --old-opts --sig nomap.der --keyring "$ring" --fdinfo |
		grep -E '^(ok|prog_sig:)' | paste -sd'|')"
expect_eq "libbpf opts: no 'kernel does not support' warning on this kernel" 0 \
	"$(grep -c 'does not support program signatures' "$WORK/load.err" || true)"
# libbpf keeps the kernel's errno: an unprivileged caller gets EPERM, not
# EOPNOTSUPP and a warning that the kernel has no program signatures (its
# feature probe, unprivileged too, fails with EPERM as well)
unpriv=$(cat /proc/sys/kernel/unprivileged_bpf_disabled)
[ "$unpriv" != 0 ] || echo 2 >/proc/sys/kernel/unprivileged_bpf_disabled
pub=$(mktemp -d)
cp nomap.der "$pub/" && chmod -R a+rX "$pub"
expect_eq "libbpf opts: an unprivileged caller: EPERM, the kernel's errno" "EPERM|0" \
	"$(setpriv --reuid=65534 --regid=65534 --clear-groups "$T/sig_load" load --libbpf \
		--sig "$pub/nomap.der" --keyring 0 2>"$pub/err" || true)|$(grep -c 'does not support' "$pub/err" || true)"
rm -rf "$pub"
[ "$unpriv" != 0 ] || echo 0 >/proc/sys/kernel/unprivileged_bpf_disabled

# The kfunc that checks PKCS#7 signatures from BPF programs, given a null
# dynptr as data or signature (kernel patch 0001)
run_tool kfunc_null
