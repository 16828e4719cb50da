// SPDX-License-Identifier: GPL-2.0
/* Targets for extensions and tracing programs (tests/src/ext_verified.c):
 * a program the test loads signed or unsigned, and the owner of an
 * exclusive map that hands a pointer into the map's value to a global
 * function.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

/* Global, so an extension may replace it where the kernel allows */
__noinline int pick(int x)
{
	return x + 1;
}

/* Loaded through the test's "signed" section handler, which passes the
 * signature the guest script made over these instructions.
 */
SEC("signed")
int target(void *ctx)
{
	return pick(1);
}

/* A struct, so that an extension's argument may have the same type (the
 * kernel matches pointer arguments of extensions by struct name)
 */
struct excl_value {
	__u32 v;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct excl_value);
	__uint(max_entries, 1);
} excl_map SEC(".maps");

__noinline int use(struct excl_value *value)
{
	return value ? value->v : 0;
}

/* Made the owner of excl_map by the test */
SEC("syscall")
int owner(void *ctx)
{
	struct excl_value *value;
	__u32 key = 0;

	value = bpf_map_lookup_elem(&excl_map, &key);
	if (!value)
		return 0;
	return use(value);
}
