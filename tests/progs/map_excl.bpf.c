// SPDX-License-Identifier: GPL-2.0
/* Two programs that write to the same map: the map is made exclusive to the
 * first, so only the first may load.
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
