#!/usr/bin/env bash
# bpf_preload (CONFIG_BPF_PRELOAD, which distributions ship): the kernel
# loads an in-kernel light skeleton at boot through kern_sys_bpf(), its
# loader running as a syscall program outside BPF_PROG_TEST_RUN. Booting at
# all is the first check; then its programs are there, with their loader.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$WORK"

expect_eq "preload: kernel built with BPF_PRELOAD=y, BPF_PRELOAD_UMD=y" 2 \
	"$(zcat /proc/config.gz | grep -cxE 'CONFIG_BPF_PRELOAD(_UMD)?=y')"
mkdir bpffs
mount -t bpf bpf bpffs
if grep -q ' dump_bpf_prog ' bpffs/progs.debug; then
	pass "preload: a fresh bpffs lists the iterators in progs.debug"
else
	fail "preload: a fresh bpffs lists the iterators in progs.debug" \
		"$(ls bpffs; head -5 bpffs/progs.debug 2>&1)"
fi
umount bpffs

"$BPFTOOL" -j prog show >progs.json
jq '.[] | select(.name == "dump_bpf_prog")' progs.json >iter.json
expect_eq "preload: the iterator program is itself unsigned" unsigned \
	"$(jq -r .signature.verdict iter.json)"
if jq -e '.loader.digest | test("^sha256:[0-9a-f]{64}$")' iter.json >/dev/null; then
	pass "preload: the iterator program names its loader's digest"
else
	fail "preload: the iterator program names its loader's digest" "$(jq -c .loader iter.json)"
fi
expect_eq "preload: the loader was unsigned" unsigned "$(jq -r .loader.signature.verdict iter.json)"
