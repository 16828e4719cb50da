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

# bpftool prog verify: a loader verified over its instructions alone (0
# maps) does not vouch for what it loads, whichever keyring is named
"$T/loader_maps" pin-child sig.der /sys/fs/bpf/lm_child
expect_err "prog verify: a program whose loader's signature covers 0 maps fails" 1 \
	"the program's loader was verified over its instructions only (covers 0 maps): such a loader loads whatever its caller hands it" \
	"$BPFTOOL" prog verify pinned /sys/fs/bpf/lm_child keyring "$(keyctl show @s | awk 'NR == 2 { print $1 }')"
rm -f /sys/fs/bpf/lm_child
run_tool loader_race 200 "$OUT/vmlinux.h"
# The write before the freeze: the loader's own .rodata, written by a
# thread of its process between the loader's update and its freeze
# (progs/freeze_sleeper.bpf.c holds the window open)
run_tool rodata_race 50 "$OUT/vmlinux.h"
# The same two races with the sleeper disarmed: only the two CPUs (and, on
# DISTRO=1, preemption) open the windows; each run prints how often its
# attack hit, and the same guarantees must hold
run_tool loader_race 200 "$OUT/vmlinux.h" --no-sleeper
run_tool rodata_race 200 "$OUT/vmlinux.h" --no-sleeper
