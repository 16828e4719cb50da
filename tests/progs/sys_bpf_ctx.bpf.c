// SPDX-License-Identifier: GPL-2.0
/* bpf_sys_bpf() in each place where a syscall program's code can run
 * (tests/src/sys_bpf_ctx.c). The helper acts for the task that runs the
 * syscall program (its credentials, its fd table) and records the calling
 * program as the loader of what it loads, so it works only where the
 * program runs synchronously in that task, within BPF_PROG_RUN: its main
 * body, a static subprogram, a global function, a bpf_loop() callback.
 * The verifier accepts the same programs as upstream's; in a bpf_wq or
 * bpf_timer callback (run later, by a kworker or in softirq) the call
 * fails at run time with -EPERM. An extension program is not sleepable
 * and may not call it at all, as upstream.
 *
 * A syscall program reached by a tail call is the loader of what it
 * loads, not the program the caller was run as. A syscall program is
 * sleepable and cannot use a prog array itself (tail_caller), but an
 * extension program that replaces a syscall program's global function
 * can (ext_tail_call in place of replaced()).
 */
/* the kfuncs below are declared here, as the selftests' bpf_experimental.h
 * declares them
 */
#define BPF_NO_KFUNC_PROTOTYPES
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

extern int bpf_wq_init(struct bpf_wq *wq, void *p__map, unsigned int flags) __weak __ksym;
extern int bpf_wq_start(struct bpf_wq *wq, unsigned int flags) __weak __ksym;
extern int bpf_wq_set_callback_impl(struct bpf_wq *wq,
				    int (callback_fn)(void *map, int *key, void *value),
				    unsigned int flags__k, void *aux__ign) __weak __ksym;

#define CLOCK_MONOTONIC 1

/* The context of every program here, read back by the test */
struct result {
	int fd;		/* what bpf_sys_bpf() returned: an fd or -errno */
	int closed;	/* what bpf_sys_close() of that fd returned */
};

struct wq_elem {
	struct bpf_wq work;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct wq_elem);
} wq_map SEC(".maps");

struct timer_elem {
	struct bpf_timer timer;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct timer_elem);
} timer_map SEC(".maps");

/* Slot 0: the loader program, put there by the test */
struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} jmp_table SEC(".maps");

/* BPF_MAP_CREATE of a one-element array, then bpf_sys_close() of the fd */
static __always_inline void create_and_close(struct result *res)
{
	union bpf_attr attr = {};
	int fd;

	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = 4;
	attr.max_entries = 1;
	fd = bpf_sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
	res->fd = fd;
	res->closed = fd >= 0 ? bpf_sys_close(fd) : 1;
}

/* Allowed: the main body */
SEC("syscall")
int in_main(struct result *ctx)
{
	create_and_close(ctx);
	return 0;
}

/* Allowed: a static subprogram, verified as part of its caller */
static __noinline int static_sub(struct result *res)
{
	create_and_close(res);
	return 0;
}

SEC("syscall")
int in_static(struct result *ctx)
{
	return static_sub(ctx);
}

/* Allowed: a bpf_loop() callback, which runs before bpf_loop() returns */
static long loop_cb(__u64 index, void *data)
{
	create_and_close(data);
	return 1;	/* stop after this one */
}

SEC("syscall")
int in_loop(struct result *ctx)
{
	struct result res = { .fd = -1, .closed = 1 };
	long n;

	n = bpf_loop(1, loop_cb, &res, 0);
	ctx->fd = res.fd;
	ctx->closed = res.closed;
	return n;
}

/* Allowed: a global function, verified on its own; called here from the
 * syscall program's own run
 */
__noinline int global_create(struct result *res __arg_ctx)
{
	create_and_close(res);
	return 0;
}

SEC("syscall")
int in_global(struct result *ctx)
{
	return global_create(ctx);
}

/* What bpf_sys_bpf() returned in the last async callback that ran */
int async_fd = 0x7eadbeef;

/* Loads, but bpf_sys_bpf() fails in it (-EPERM): a bpf_wq callback, run
 * later from a kworker
 */
static int wq_cb(void *map, int *key, void *value)
{
	struct result res;

	create_and_close(&res);
	async_fd = res.fd;
	return 0;
}

SEC("syscall")
int in_wq(struct result *ctx)
{
	struct wq_elem *val;
	int key = 0;

	val = bpf_map_lookup_elem(&wq_map, &key);
	if (!val)
		return 1;
	if (bpf_wq_init(&val->work, &wq_map, 0))
		return 2;
	if (bpf_wq_set_callback_impl(&val->work, wq_cb, 0, NULL))
		return 3;
	if (bpf_wq_start(&val->work, 0))
		return 4;
	return 0;
}

/* Loads, but bpf_sys_bpf() fails in it (-EPERM): a bpf_timer callback,
 * run later from the timer (softirq)
 */
static int timer_cb(void *map, int *key, struct timer_elem *val)
{
	struct result res;

	create_and_close(&res);
	async_fd = res.fd;
	return 0;
}

SEC("syscall")
int in_timer(struct result *ctx)
{
	struct timer_elem *val;
	int key = 0;

	val = bpf_map_lookup_elem(&timer_map, &key);
	if (!val)
		return 1;
	if (bpf_timer_init(&val->timer, &timer_map, CLOCK_MONOTONIC))
		return 2;
	if (bpf_timer_set_callback(&val->timer, timer_cb))
		return 3;
	if (bpf_timer_start(&val->timer, 0, 0))
		return 4;
	return 0;
}

/* The target of the extension programs: a global function given the
 * context, and the syscall program that calls it
 */
int target_calls;

/* Zero, and known to be by the verifier (read-only data) */
const volatile int never;

__noinline int replaced(struct result *ctx __arg_ctx)
{
	target_calls++;
	/* Dead code, dropped unverified (a syscall program has no such
	 * helper), but it makes replaced() a function that may change packet
	 * data, as a tail call may: an extension that tail calls can only
	 * replace such a function. A syscall program has no other.
	 */
	if (never)
		bpf_skb_pull_data((void *)ctx, 0);
	return 0;
}

SEC("syscall")
int freplace_target(struct result *ctx)
{
	return replaced(ctx);
}

/* Refused: an extension program (of freplace_target's replaced()), which
 * is not sleepable, as upstream refuses it
 */
SEC("?freplace/replaced")
int ext_sys_bpf(struct result *ctx __arg_ctx)
{
	create_and_close(ctx);
	return 0;
}

/* Loaded by the test and attached in place of replaced(): jumps to the
 * loader, which then runs as freplace_target's replaced()
 */
SEC("?freplace/replaced")
int ext_tail_call(struct result *ctx __arg_ctx)
{
	bpf_tail_call(ctx, &jmp_table, 0);
	return 0;
}

/* Refused as every sleepable program using a prog array is (not for
 * bpf_sys_bpf(): the check that a syscall program cannot tail call)
 */
SEC("?syscall")
int tail_caller(struct result *ctx)
{
	bpf_tail_call(ctx, &jmp_table, 0);
	return 0;
}

/* The loader: loads a program of two instructions (r0 = 0; exit) through
 * bpf_sys_bpf(), which records this program as that program's loader
 */
static const struct bpf_insn tiny_insns[2] = {
	{ .code = 0xb7 },	/* BPF_ALU64 | BPF_MOV | BPF_K, r0 = 0 */
	{ .code = 0x95 },	/* BPF_JMP | BPF_EXIT */
};
static const char tiny_license[4] = "GPL";

SEC("syscall")
int loader(struct result *ctx)
{
	union bpf_attr attr = {};

	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insn_cnt = 2;
	attr.insns = (unsigned long)tiny_insns;
	attr.license = (unsigned long)tiny_license;
	ctx->fd = bpf_sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
	return 0;
}

/* A signed load through bpf_sys_bpf() (tests/src/sys_bpf_ctx.c "signed"):
 * the same two instructions, with the signature that the test put in the
 * context. BPF_PROG_TEST_RUN copied the context into kernel memory, so
 * attr.signature is a kernel address, as attr.insns is.
 */
struct signed_load {
	int fd;			/* what bpf_sys_bpf() returned: an fd or -errno */
	__u32 sig_size;
	__s32 keyring_id;
	__u32 bad_ptr;		/* non-zero: a signature pointer to no memory */
	__u8 sig[8192];
};

SEC("?syscall")
int signed_loader(struct signed_load *ctx)
{
	union bpf_attr attr = {};

	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insn_cnt = 2;
	attr.insns = (unsigned long)tiny_insns;
	attr.license = (unsigned long)tiny_license;
	attr.signature = ctx->bad_ptr ? 8 : (unsigned long)ctx->sig;
	attr.signature_size = ctx->sig_size;
	attr.keyring_id = ctx->keyring_id;
	ctx->fd = bpf_sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
	return 0;
}
