// SPDX-License-Identifier: GPL-2.0
/* Programs that try to reach an exclusive map's values without naming the
 * map in their instructions, or naming it without being its owner: each
 * path must be refused (tests/src/excl_paths.c).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

#define EVIL 0x41414141

/* Made exclusive to iter_sockmap by the test, so that iter_sk_storage is
 * not its owner.
 */
struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u32);
} sk_map SEC(".maps");

/* Made exclusive to iter_array too: for_each is not its owner */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 1);
} named_map SEC(".maps");

/* An array iterator writes into every element it is given */
SEC("iter/bpf_map_elem")
int iter_array(struct bpf_iter__bpf_map_elem *ctx)
{
	__u32 *value = ctx->value;

	if (value)
		*value = EVIL;
	return 0;
}

SEC("iter/bpf_sk_storage_map")
int iter_sk_storage(struct bpf_iter__bpf_sk_storage_map *ctx)
{
	__u32 *value = ctx->value;

	if (value)
		*value = EVIL;
	return 0;
}

SEC("iter/sockmap")
int iter_sockmap(struct bpf_iter__sockmap *ctx)
{
	return 0;
}

static long overwrite(struct bpf_map *map, __u32 *key, __u32 *value, void *ctx)
{
	*value = EVIL;
	return 0;
}

/* Names the map and walks it with a callback: the verifier's check */
SEC("?syscall")
int for_each(void *ctx)
{
	bpf_for_each_map_elem(&named_map, overwrite, NULL, 0);
	return 0;
}

/* Reaches a map by fd only, through bpf_sys_bpf() like a loader does */
struct sys_bpf_ctx {
	int map_fd;
	int ret;
};

SEC("syscall")
int sys_bpf_update(struct sys_bpf_ctx *ctx)
{
	union bpf_attr attr = {};
	__u32 key = 0, value = EVIL;

	attr.map_fd = ctx->map_fd;
	attr.key = (unsigned long)&key;
	attr.value = (unsigned long)&value;
	ctx->ret = bpf_sys_bpf(BPF_MAP_UPDATE_ELEM, &attr, sizeof(attr));
	return 0;
}
