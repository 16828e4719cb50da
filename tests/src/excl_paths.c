// SPDX-License-Identifier: GPL-2.0
/*
 * The paths by which a program could reach an exclusive map's values other
 * than naming the map in its own instructions as the map's owner, checked
 * in the guest. Each check names the path it closes; the owner still gets
 * through where the path is legitimate.
 *
 *   excl_paths     run every check (exit 1 if one failed)
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "testlib.h"
#include "excl_paths.skel.h"

#define HASH_SIZE	32
#define GOOD		0x11111111u
#define EVIL		0x41414141u

/* A digest no program here has */
static const __u8 stranger[HASH_SIZE] = { 0x5e, 0xed };

/* The program's SHA-256 digest, from its fdinfo (prog_digest) */
static int prog_digest(int prog_fd, __u8 digest[HASH_SIZE])
{
	char hex[256];
	int err;

	err = fdinfo_field(prog_fd, "prog_digest", hex, sizeof(hex));
	if (err)
		return err;
	return parse_hex(hex, digest, HASH_SIZE) ? -EINVAL : 0;
}

/* An exclusive map of TYPE, one u32 element set to GOOD for arrays */
static int create_map(enum bpf_map_type type, const __u8 *hash, __u32 flags)
{
	__u32 key = 0, value = GOOD;
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = type;
	attr.key_size = 4;
	attr.value_size = 4;
	attr.max_entries = 1;
	attr.map_flags = flags;
	attr.excl_prog_hash = (unsigned long)hash;
	attr.excl_prog_hash_size = hash ? HASH_SIZE : 0;
	fd = sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
	if (fd >= 0 && type == BPF_MAP_TYPE_ARRAY && bpf_map_update_elem(fd, &key, &value, 0)) {
		close(fd);
		return -errno;
	}
	return fd;
}

static __u32 value_of(int map_fd)
{
	__u32 key = 0, value = 0;

	if (bpf_map_lookup_elem(map_fd, &key, &value))
		return 0;
	return value;
}

static void test_iterators(struct excl_paths *skel)
{
	int prog = bpf_program__fd(skel->progs.iter_array);
	__u8 digest[HASH_SIZE];
	int map, err;

	map = create_map(BPF_MAP_TYPE_ARRAY, stranger, 0);
	CHECK("iter: frozen exclusive array is created", map >= 0 && !bpf_map_freeze(map),
	      "map %d errno %d", map, errno);
	err = run_map_iter(prog, map);
	CHECK("iter/bpf_map_elem: another program's iterator is EPERM", err == -EPERM,
	      "got %d", err);
	CHECK("iter/bpf_map_elem: the frozen value is unchanged", value_of(map) == GOOD,
	      "value %#x", value_of(map));
	close(map);

	/* The owner by digest may iterate, and its writes land */
	err = prog_digest(prog, digest);
	CHECK("iter: iterator's digest read from fdinfo", !err, "err %d", err);
	map = create_map(BPF_MAP_TYPE_ARRAY, digest, 0);
	err = run_map_iter(prog, map);
	CHECK("iter/bpf_map_elem: the owner's iterator attaches and runs", err == 0,
	      "map %d err %d", map, err);
	CHECK("iter/bpf_map_elem: the owner's write lands", value_of(map) == EVIL,
	      "value %#x", value_of(map));
	close(map);

	/* A map programs may only read (.rodata) that no verified loader
	 * made: iterated as upstream lets it be (a verified loader's are
	 * refused, guest/loader-maps.sh)
	 */
	map = create_map(BPF_MAP_TYPE_ARRAY, NULL, BPF_F_RDONLY_PROG);
	CHECK("iter: frozen read-only-for-programs array is created",
	      map >= 0 && !bpf_map_freeze(map), "map %d errno %d", map, errno);
	err = run_map_iter(prog, map);
	CHECK("iter/bpf_map_elem: on user space's BPF_F_RDONLY_PROG map: runs, as upstream",
	      err == 0, "got %d", err);
	close(map);
	map = create_map(BPF_MAP_TYPE_ARRAY, NULL, 0);
	err = run_map_iter(prog, map);
	CHECK("iter/bpf_map_elem: on a plain array: attaches, and its write lands",
	      err == 0 && value_of(map) == EVIL, "err %d value %#x", err, value_of(map));
	close(map);

	err = run_map_iter(bpf_program__fd(skel->progs.iter_sk_storage),
			   bpf_map__fd(skel->maps.sk_map));
	CHECK("iter/bpf_sk_storage_map: another program's iterator is EPERM",
	      err == -EPERM, "got %d", err);

	map = create_map(BPF_MAP_TYPE_SOCKMAP, stranger, 0);
	CHECK("iter: exclusive sockmap is created", map >= 0, "got %d", map);
	err = run_map_iter(bpf_program__fd(skel->progs.iter_sockmap), map);
	CHECK("iter/sockmap: another program's iterator is EPERM", err == -EPERM,
	      "got %d", err);
	close(map);
}

/* bpf_sys_bpf() from a syscall program: the same rules as user space */
static void test_sys_bpf(struct excl_paths *skel)
{
	struct { int map_fd; int ret; } ctx;
	LIBBPF_OPTS(bpf_test_run_opts, topts, .ctx_in = &ctx, .ctx_size_in = sizeof(ctx));
	int prog = bpf_program__fd(skel->progs.sys_bpf_update);
	__u32 key = 0, value = GOOD;
	int map, err;

	map = create_map(BPF_MAP_TYPE_ARRAY, stranger, 0);
	ctx.map_fd = map;
	ctx.ret = 1;
	err = bpf_prog_test_run_opts(prog, &topts);
	CHECK("bpf_sys_bpf: update of an unfrozen exclusive map works (filling it)",
	      !err && ctx.ret == 0 && value_of(map) == EVIL, "err %d ret %d value %#x",
	      err, ctx.ret, value_of(map));
	bpf_map_update_elem(map, &key, &value, 0);
	bpf_map_freeze(map);
	ctx.ret = 1;
	err = bpf_prog_test_run_opts(prog, &topts);
	CHECK("bpf_sys_bpf: update of a frozen exclusive map is EPERM",
	      !err && ctx.ret == -EPERM, "err %d ret %d", err, ctx.ret);
	CHECK("bpf_sys_bpf: the frozen value is unchanged", value_of(map) == GOOD,
	      "value %#x", value_of(map));
	close(map);
}

/* bpf_for_each_map_elem() names the map: the verifier's owner check */
static void test_for_each(void)
{
	struct excl_paths *skel = excl_paths__open();
	int err;

	if (!skel) {
		CHECK("for_each: open skeleton", 0, "errno %d", errno);
		return;
	}
	bpf_map__set_exclusive_program(skel->maps.named_map, skel->progs.iter_array);
	bpf_program__set_autoload(skel->progs.for_each, true);
	err = excl_paths__load(skel);
	CHECK("bpf_for_each_map_elem: a program that is not the owner is EACCES",
	      err == -EACCES, "got %d", err);
	excl_paths__destroy(skel);
}

/* User space: writes and writable mappings of a frozen exclusive map */
static void test_user_writes(void)
{
	__u32 keys[1] = { 0 }, values[1] = { EVIL }, count = 1, key = 0, value = EVIL;
	int map, err;
	void *mem;

	map = create_map(BPF_MAP_TYPE_ARRAY, stranger, BPF_F_MMAPABLE);
	CHECK("user: mmapable exclusive array is frozen", map >= 0 && !bpf_map_freeze(map),
	      "map %d errno %d", map, errno);
	err = bpf_map_update_elem(map, &key, &value, 0);
	CHECK("user: BPF_MAP_UPDATE_ELEM of the frozen map is EPERM", err == -EPERM,
	      "got %d", err);
	err = bpf_map_update_batch(map, keys, values, &count, NULL);
	CHECK("user: BPF_MAP_UPDATE_BATCH of the frozen map is EPERM", err == -EPERM,
	      "got %d", err);
	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, map, 0);
	CHECK("user: writable mmap of the frozen map is EPERM",
	      mem == MAP_FAILED && errno == EPERM, "mem %p errno %d", mem, errno);
	mem = mmap(NULL, 4096, PROT_READ, MAP_SHARED, map, 0);
	CHECK("user: read-only mmap sees the frozen value",
	      mem != MAP_FAILED && *(__u32 *)mem == GOOD, "mem %p", mem);
	if (mem != MAP_FAILED)
		munmap(mem, 4096);
	close(map);

	map = create_map(BPF_MAP_TYPE_ARRAY, stranger, BPF_F_MMAPABLE);
	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, map, 0);
	err = bpf_map_freeze(map);
	CHECK("user: freeze while a writable mapping exists is EBUSY",
	      mem != MAP_FAILED && err == -EBUSY, "mem %p err %d", mem, err);
	if (mem != MAP_FAILED)
		munmap(mem, 4096);
	close(map);
}

int main(int argc, char **argv)
{
	struct excl_paths *skel;
	int err;

	if (argc != 1) {
		fprintf(stderr, "usage: %s\n", argv[0]);
		return 2;
	}
	skel = excl_paths__open();
	if (!skel) {
		CHECK("open skeleton", 0, "errno %d", errno);
		return 1;
	}
	/* Not iter_array: iter_sk_storage has the very same instructions
	 * (ctx->value at the same offset), so the same digest, and would be
	 * the owner too.
	 */
	bpf_map__set_exclusive_program(skel->maps.sk_map, skel->progs.iter_sockmap);
	err = excl_paths__load(skel);
	CHECK("iterators and syscall program load", err == 0, "err %d", err);
	if (!err) {
		test_iterators(skel);
		test_sys_bpf(skel);
	}
	excl_paths__destroy(skel);
	test_for_each();
	test_user_writes();
	return test_failures ? 1 : 0;
}
