// SPDX-License-Identifier: GPL-2.0
/* A loader program, like a light skeleton's, for tests/src/loader_maps.c:
 * it creates an array map with bpf_sys_bpf(BPF_MAP_CREATE) and loads a
 * child program that names a map by fd (ld_imm64 r1 = map; r0 = 0; exit),
 * either its own new map or one the caller passes in the ctx. A signed
 * loader's child may use only maps that loader program created: any other
 * map makes the child's BPF_PROG_LOAD fail with EACCES.
 *
 * The loader uses nothing but its stack and its ctx (no global data, no
 * maps, no subprograms), so that its instructions in this object are final:
 * they are signed as they are and loaded without libbpf relocating them.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

/* ctx->mode */
#define LM_OWN_MAP	0	/* the child uses the map this run created */
#define LM_CTX_MAP	1	/* the child uses ctx->map_fd */
#define LM_CREATE_ONLY	2	/* create the map, load no child */
#define LM_CREATE_RDONLY 3	/* the same, read-only for programs (.rodata) */
#define LM_UPDATE	4	/* write 0x1337 to element 0 of ctx->map_fd */

/* The same layout as struct loader_maps_ctx in tests/src/loader_maps.c */
struct loader_maps_ctx {
	__u32 mode;
	__s32 map_fd;		/* in: the map of LM_CTX_MAP */
	__s32 own_map_fd;	/* out: the map this run created, or -errno */
	__s32 prog_fd;		/* out: the child, or -errno (0: none loaded);
				 * LM_UPDATE: the update's result
				 */
	__u64 log_buf;		/* in: the child's verifier log, user memory */
	__u32 log_size;
	__u32 log_level;
};

/* The child's instructions as 64-bit words (little endian): code, then
 * dst_reg in the low and src_reg in the high nibble, off, imm
 */
#define INSN_LD_IMM64_R1_MAP_FD	0x1118ULL	/* BPF_LD | BPF_DW | BPF_IMM, r1, BPF_PSEUDO_MAP_FD */
#define INSN_MOV64_R0_0		0x00b7ULL	/* BPF_ALU64 | BPF_MOV | BPF_K, r0, imm 0 */
#define INSN_EXIT		0x0095ULL	/* BPF_JMP | BPF_EXIT */
#define LICENSE_GPL		0x004c5047U	/* "GPL\0" */

/* A map element iterator that writes each value it is given */
SEC("?iter/bpf_map_elem")
int iter_write(struct bpf_iter__bpf_map_elem *ctx)
{
	__u32 *value = ctx->value;

	if (value)
		*value = 0xbad;
	return 0;
}

SEC("syscall")
int loader(struct loader_maps_ctx *ctx)
{
	union bpf_attr attr;
	__u64 insns[4];
	__u32 license;
	int map_fd;

	if (ctx->mode == LM_UPDATE) {
		__u32 key = 0, value = 0x1337;

		__builtin_memset(&attr, 0, sizeof(attr));
		attr.map_fd = ctx->map_fd;
		attr.key = (__u64)(long)&key;
		attr.value = (__u64)(long)&value;
		ctx->own_map_fd = -1;
		ctx->prog_fd = bpf_sys_bpf(BPF_MAP_UPDATE_ELEM, &attr, sizeof(attr));
		return 0;
	}

	__builtin_memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = 4;
	attr.max_entries = 1;
	if (ctx->mode == LM_CREATE_RDONLY)
		attr.map_flags = BPF_F_RDONLY_PROG;
	map_fd = bpf_sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
	ctx->own_map_fd = map_fd;
	ctx->prog_fd = 0;
	if (ctx->mode == LM_CREATE_ONLY || ctx->mode == LM_CREATE_RDONLY)
		return 0;
	if (ctx->mode == LM_CTX_MAP)
		map_fd = ctx->map_fd;
	else if (map_fd < 0)
		return 0;

	insns[0] = INSN_LD_IMM64_R1_MAP_FD | (__u64)(__u32)map_fd << 32;
	insns[1] = 0;
	insns[2] = INSN_MOV64_R0_0;
	insns[3] = INSN_EXIT;
	license = LICENSE_GPL;

	__builtin_memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (__u64)(long)insns;
	attr.insn_cnt = 4;
	attr.license = (__u64)(long)&license;
	attr.log_buf = ctx->log_buf;
	attr.log_size = ctx->log_size;
	attr.log_level = ctx->log_level;
	ctx->prog_fd = bpf_sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
	return 0;
}
