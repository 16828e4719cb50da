#!/usr/bin/env bash
# The maps a signed loader's children may use: only those that loader
# program created through bpf_sys_bpf(BPF_MAP_CREATE). A map of user space,
# of another loader program or of another copy of the same signed loader
# makes the child's BPF_PROG_LOAD fail with EACCES; unsigned loaders are not
# restricted (tests/src/loader_maps.c, a loader signed here over its
# instructions). Then the attack itself, raced for real: a thread dup2()s
# its own frozen map over a signed light skeleton's .rodata map between the
# loader's freeze and its program load (tests/src/loader_race.c).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$WORK"

keyctl new_session >/dev/null
keyctl padd asymmetric "" @s <"$T/keys/signer.der" >/dev/null

"$T/loader_maps" dump insns.bin
cms_sign insns.bin "$T/keys/signer.pem" "$T/keys/signer.key" sig.der
run_tool loader_maps run sig.der
run_tool loader_race 200
