// SPDX-License-Identifier: GPL-2.0
/* A minimal BPF object for signed light skeletons: one socket filter, one
 * array map and global data in .data, .rodata and .bss, so that the loader's
 * metadata holds more than the program. It needs neither vmlinux.h nor the
 * kernel's UAPI headers (clang -target bpf does not find <asm/types.h>), so
 * that the host can always build it.
 */
typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef unsigned long long __u64;
typedef signed char __s8;
typedef short __s16;
typedef int __s32;
typedef long long __s64;
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;

#include <bpf/bpf_helpers.h>

#define BPF_MAP_TYPE_ARRAY 2

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 4);
} sign_counters SEC(".maps");

/* "SIGN": initial values that the signature must cover */
const volatile __u32 sign_magic = 0x5349474e;
__u64 sign_calls = 1;
__u32 sign_last_len;

char _license[] SEC("license") = "GPL";

SEC("socket")
int sign_min(void *skb)
{
	__u32 key = 0;
	__u64 *val;

	sign_calls++;
	sign_last_len = sign_magic;
	val = bpf_map_lookup_elem(&sign_counters, &key);
	if (val)
		__sync_fetch_and_add(val, 1);
	return 0;
}
