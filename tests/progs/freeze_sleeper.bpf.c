// SPDX-License-Identifier: GPL-2.0
/* Makes a loader sleep at one of its bpf() calls, so that another thread
 * of the process runs in the window in every round, whatever the CPUs and
 * the preemption model give it: a sleepable BPF-LSM program on the bpf() hook that
 * reads bytes of file pages that are not in the page cache (the test maps
 * a file of the 9p-mounted repository and drops its cache). It changes
 * nothing. tests/src/rodata_race.c holds the loader before its
 * BPF_MAP_FREEZE of .rodata (between the loader's update and its freeze); tests/src/loader_race.c, with target_cmd BPF_PROG_LOAD,
 * before each program load the loader makes (between its freeze and the
 * load), while armed.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char _license[] SEC("license") = "GPL";

__u32 target_tgid;
__s32 target_cmd = BPF_MAP_FREEZE;
__u32 armed = 1, pages_per_hit = 1;
__u64 base, npages, next;
__u64 hits;

SEC("lsm.s/bpf")
int BPF_PROG(freeze_sleeper, int cmd, union bpf_attr *attr, unsigned int size, bool kernel)
{
	unsigned int i;
	char c;

	if (!armed || cmd != target_cmd || bpf_get_current_pid_tgid() >> 32 != target_tgid)
		return 0;
	/* the loader's freeze (through bpf_sys_bpf(): kernel), not the
	 * process's freeze of the metadata map. Not by fd number: a thread
	 * of the process that opens a file at the wrong moment shifts the
	 * number the loader's map gets (1 round in 50 of a cold run)
	 */
	if (cmd == BPF_MAP_FREEZE && !kernel)
		return 0;
	/* the loader's own load carries its signature, its programs' none */
	if (cmd == BPF_PROG_LOAD && attr->signature)
		return 0;
	hits++;
	for (i = 0; i < 16 && i < pages_per_hit && next < npages; i++)
		bpf_copy_from_user(&c, 1, (void *)(base + next++ * 4096));
	return 0;
}
