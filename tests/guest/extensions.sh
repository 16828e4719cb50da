#!/usr/bin/env bash
# Extensions (freplace) and tracing programs against a verified program
# and against the owner of an exclusive map: a verdict stays about the code
# that runs, and an exclusive map stays the owner's.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$WORK"

make_key signer -algorithm RSA -pkeyopt rsa_keygen_bits:2048
make_key stranger -algorithm RSA -pkeyopt rsa_keygen_bits:2048

keyctl new_session >/dev/null
ring=$(keyctl newring ext-signer @s)
keyctl padd asymmetric "" "$ring" <signer.der >/dev/null
other=$(keyctl newring ext-stranger @s)
keyctl padd asymmetric "" "$other" <stranger.der >/dev/null

"$T/ext_verified" dump target.bin ext.bin gloader.bin 2>/dev/null
expect_eq "ext: the target's instructions were dumped" yes \
	"$([ -s target.bin ] && [ -s ext.bin ] && echo yes || echo no)"
cms_sign target.bin signer.crt signer.key target.der
cms_sign ext.bin signer.crt signer.key ext.der
cms_sign ext.bin stranger.crt stranger.key ext-other.der

run_tool ext_verified run target.der "$ring" ext.der "$ring" ext-other.der "$other"

# Targets with no signature of their own, loaded by signed light skeletons:
# one verified against the builtin keys, one against $ring (the tests' key,
# which signed that skeleton, added to it)
keyctl padd asymmetric "" "$ring" <"$T/keys/signer.der" >/dev/null
cms_sign ext.bin "$OUT/kernel-signing-key.pem" "$OUT/kernel-signing-key.pem" ext-builtin.der
run_tool ext_verified vouched "$ring" ext.der ext-builtin.der

# A loader signed over its instructions alone (its verdict covers 0 maps)
# vouches for nothing it loads: not for an extension of a verified program
cms_sign gloader.bin signer.crt signer.key gloader.der
run_tool ext_verified loader0 target.der "$ring" gloader.der
