// SPDX-License-Identifier: GPL-2.0
/* Settings of a light skeleton made before its __load(): a .rodata
 * constant, .data and .bss values and an array's max_entries, which a
 * signed loader takes from its signed metadata. get_settings() returns
 * what the program sees: ro << 16 | data << 8 | bss.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

const volatile __u32 setting_ro = 1;
/* A constant past the first 8 bytes of .rodata, so that a check that
 * compares only a prefix of the section is seen (lskel_run settings
 * rodata-tail)
 */
const volatile __u32 setting_ro_pad[3] = { 1, 2, 3 };
const volatile __u32 setting_ro_tail = 3;
__u32 setting_data = 2;
__u32 setting_bss;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 8);
} setting_map SEC(".maps");

SEC("syscall")
int get_settings(void *ctx)
{
	return setting_ro << 16 | setting_data << 8 | setting_bss;
}
