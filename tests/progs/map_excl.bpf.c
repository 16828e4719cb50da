// SPDX-License-Identifier: GPL-2.0
/* Two programs that write to the same map: the map is made exclusive to the
 * first, so only the first may load. A third owner reads globals.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 1);
} excl_map SEC(".maps");

char _license[] SEC("license") = "GPL";

SEC("?fentry.s/__x64_sys_getpgid")
int should_have_access(void *ctx)
{
	__u32 key = 0, value = 0xdeadbeef;

	bpf_map_update_elem(&excl_map, &key, &value, 0);
	return 0;
}

SEC("?fentry.s/__x64_sys_getpgid")
int should_not_have_access(void *ctx)
{
	__u32 key = 0, value = 0xcafe;

	bpf_map_update_elem(&excl_map, &key, &value, 0);
	return 0;
}

/* Two globals of .bss, so that one of them is at a non-zero offset, which
 * its ld_imm64 carries in the instruction's second half: the digest of a
 * program, libbpf's for the map's excl_prog_hash as the kernel's, is over
 * the instructions with both halves' immediates zeroed
 */
__u32 global_a, global_b;

SEC("?fentry.s/__x64_sys_getpgid")
int owner_globals(void *ctx)
{
	__u32 key = 0, value = 0xdeadbeef + global_a + global_b;

	bpf_map_update_elem(&excl_map, &key, &value, 0);
	return 0;
}
