// SPDX-License-Identifier: GPL-2.0
/* For the host test of libbpf's exclusive owners (src/excl_owner.c): an
 * owner that calls bpf_probe_read_kernel(), which libbpf rewrites to
 * bpf_probe_read() for a kernel without it, a subprogram, and a program
 * with autoload off. Never loaded into a kernel.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} excl_map SEC(".maps");

char _license[] SEC("license") = "GPL";

static __noinline int sub(__u64 *v)
{
	return *v & 1;
}

SEC("kprobe/do_nanosleep")
int owner(void *ctx)
{
	__u64 *v, x = 0;
	__u32 key = 0;

	v = bpf_map_lookup_elem(&excl_map, &key);
	if (!v)
		return 0;
	bpf_probe_read_kernel(&x, sizeof(x), v);
	return sub(&x);
}

SEC("?kprobe/do_nanosleep")
int not_loaded(void *ctx)
{
	__u32 key = 0;

	return bpf_map_lookup_elem(&excl_map, &key) != 0;
}
