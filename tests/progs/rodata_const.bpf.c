// SPDX-License-Identifier: GPL-2.0
/* A program whose result is a constant of .rodata, for the race of
 * tests/src/loader_race.c: its signed light skeleton's loader creates the
 * .rodata map (BPF_F_RDONLY_PROG, value 1, as signed), freezes it and loads
 * the program, which returns 1; if another thread swapped a map of its own
 * (0x1337) in under the same fd between the freeze and the load, it would
 * return 0x1337, unless the kernel refuses the load.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

const volatile __u32 signed_value = 1;

SEC("syscall")
int get_value(void *ctx)
{
	return signed_value;
}
