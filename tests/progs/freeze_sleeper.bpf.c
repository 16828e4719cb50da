// SPDX-License-Identifier: GPL-2.0
/* Makes a loader sleep just before its BPF_MAP_FREEZE of one map, for
 * tests/src/rodata_race.c: a sleepable BPF-LSM program on the bpf() hook
 * that, when the test process freezes the map with fd target_fd, reads a
 * byte of a file page that is not in the page cache (the test maps a file
 * of the 9p-mounted repository and drops its cache). It changes nothing;
 * it only lets another thread of the process run in the window between the
 * loader's update and its freeze, which a guest with one CPU and no
 * preemption would not give it.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char _license[] SEC("license") = "GPL";

__u32 target_tgid;
__s32 target_fd = -1;
__u64 base, npages, next;
__u64 hits;

SEC("lsm.s/bpf")
int BPF_PROG(freeze_sleeper, int cmd, union bpf_attr *attr, unsigned int size)
{
	char c;

	if (cmd != BPF_MAP_FREEZE || bpf_get_current_pid_tgid() >> 32 != target_tgid ||
	    (__s32)attr->map_fd != target_fd)
		return 0;
	hits++;
	if (next < npages)
		bpf_copy_from_user(&c, 1, (void *)(base + next++ * 4096));
	return 0;
}
