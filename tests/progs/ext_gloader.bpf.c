// SPDX-License-Identifier: GPL-2.0
/* A generic loader for tests/src/ext_verified.c: it loads whatever program
 * its caller puts in the ctx. Signed over its instructions alone, its
 * verdict covers 0 maps, and it must not vouch for what it loads: here, an
 * extension of a verified program.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

#define ATTR_SZ 168

/* The same layout as struct gloader_ctx in tests/src/ext_verified.c */
struct gloader_ctx {
	__u8 attr[ATTR_SZ];	/* union bpf_attr, the pointers set here */
	__s32 fd;		/* out: the program, or -errno */
	__u32 pad;
	__u64 insns[128];
	__u8 func_info[64];
	__u8 license[8];
};

SEC("syscall")
int gloader(struct gloader_ctx *ctx)
{
	union bpf_attr attr;

	__builtin_memset(&attr, 0, sizeof(attr));
	__builtin_memcpy(&attr, ctx->attr, ATTR_SZ);
	attr.insns = (__u64)(long)ctx->insns;
	attr.license = (__u64)(long)ctx->license;
	attr.func_info = attr.func_info_cnt ? (__u64)(long)ctx->func_info : 0;
	attr.line_info_cnt = 0;
	attr.line_info = 0;
	ctx->fd = bpf_sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
	return 0;
}
