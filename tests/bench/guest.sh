#!/usr/bin/env bash
# Guest side of make bench: load latencies (median, p95) of signed and
# unsigned loads, and bpftool prog show over 1000 loaded programs.
# Prints "RESULT name median_us p95_us n" lines for tests/bench/run.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$WORK"

keyctl new_session >/dev/null
keyctl padd asymmetric "" @s <"$T/keys/signer.der" >/dev/null
N=${BENCH_LOADS:-200}

r() { sed 's/^/RESULT /'; }
"$T/bench_load_unsigned" lskel "$N" 0 | r
"$T/bench_load" lskel "$N" session | r

"$T/sig_load" dump insns.bin
export EXCL=$(openssl dgst -sha256 -r insns.bin | cut -c1-64)
for kib in 1 16 256 1024; do
	head -c $((kib * 1024)) /dev/urandom >meta.bin
	cat insns.bin meta.bin >signed.bin
	cms_sign signed.bin "$T/keys/signer.pem" "$T/keys/signer.key" sig.der
	n=$N
	[ "$kib" -lt 1024 ] || n=$((N / 4))
	"$T/bench_load" raw meta.bin - session "$n" | sed "s/^raw-unsigned/raw-unsigned-${kib}KiB/" | r
	"$T/bench_load" raw meta.bin sig.der session "$n" | sed "s/^raw-signed/raw-signed-${kib}KiB/" | r
done

# bpftool prog show with 1000 programs loaded: patched vs unpatched bpftool
mkdir -p /sys/fs/bpf/bench
for i in $(seq 1000); do "$T/sig_load" load --pin "/sys/fs/bpf/bench/p$i" >/dev/null; done
# 9 rounds, the two tools one after the other in each, so that a slow
# moment of the host weighs on both
tools=("$BPFTOOL" ${PRISTINE_BPFTOOL:+"$PRISTINE_BPFTOOL"})
declare -A ts
for _ in $(seq 9); do
	for tool in "${tools[@]}"; do
		s=$(date +%s%N)
		"$tool" prog show >/dev/null
		ts[$tool]+="$((($(date +%s%N) - s) / 1000)) "
	done
done
for tool in "${tools[@]}"; do
	name=prog-show-1000-patched
	[ "$tool" = "$BPFTOOL" ] || name=prog-show-1000-unpatched
	sorted=($(printf '%s\n' ${ts[$tool]} | sort -n))
	echo "RESULT $name ${sorted[4]} ${sorted[8]} 9"
done
rm -rf /sys/fs/bpf/bench
