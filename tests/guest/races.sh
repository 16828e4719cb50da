#!/usr/bin/env bash
# Concurrency around signed loads: BPF_MAP_FREEZE racing with updates of
# the metadata map (the verdict must follow the frozen contents), and many
# signed loads in parallel.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$WORK"

# Two threads only race on two CPUs: qemu-run offers 2 (-smp 2, as two sockets), and the
# guest kernel must bring both up (SMP, the firmware's CPU tables)
expect_eq "the guest has 2 CPUs online" 2 "$(nproc)"
expect_eq "the guest's online CPU list" 0-1 "$(cat /sys/devices/system/cpu/online)"

keyctl new_session >/dev/null
keyctl padd asymmetric "" @s <"$T/keys/signer.der" >/dev/null
"$T/sig_load" dump insns.bin
for v in A B; do
	head -c 64 /dev/zero | tr '\0' "$v" >"meta$v.bin"
	cat insns.bin "meta$v.bin" >"signed$v.bin"
	cms_sign "signed$v.bin" "$T/keys/signer.pem" "$T/keys/signer.key" "sig$v.der"
done
export EXCL=$(openssl dgst -sha256 -r insns.bin | cut -c1-64)
run_tool races freeze sigA.der sigB.der 200
run_tool races parallel sigA.der 8 25
