// SPDX-License-Identifier: GPL-2.0
/* Extensions and tracing programs that try to change what a verified
 * program, or the owner of an exclusive map, runs or holds
 * (tests/src/ext_verified.c sets their targets).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char _license[] SEC("license") = "GPL";

#define EVIL 0x41414141

/* Replaces ext_target's pick(): the verified program would return this */
SEC("?freplace/pick")
int new_pick(int x)
{
	return 0x1337;
}

struct excl_value {
	__u32 v;
};

/* Replaces the owner's use() and writes through the pointer it is given */
SEC("?freplace/use")
int new_use(struct excl_value *value)
{
	if (value)
		value->v = EVIL;
	return 0;
}

__u64 seen;

/* Only watches pick(): tracing programs read, they do not replace */
SEC("?fentry/pick")
int BPF_PROG(watch_pick, int x)
{
	seen = x;
	return 0;
}

/* Tries to write through use()'s pointer from an fexit program */
SEC("?fexit/use")
int BPF_PROG(write_use, struct excl_value *value, int ret)
{
	value->v = EVIL;
	return 0;
}
