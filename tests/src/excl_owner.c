// SPDX-License-Identifier: GPL-2.0
/*
 * libbpf's exclusive map owners, checked on the host: no bpf(2) reaches the
 * kernel. libbpf.a is linked with --wrap=syscall, so its bpf(2) calls come
 * to fake_bpf(), and a seccomp filter kills the process if a bpf(2) gets
 * past it anyway.
 *
 * fake_bpf() plays a kernel without bpf_probe_read_kernel() (as before 5.5),
 * so that libbpf rewrites that call to bpf_probe_read(). Map and program
 * fds are memfds. BPF_PROG_LOAD of a program that uses an exclusive map
 * compares the program's digest, computed here with OpenSSL over the
 * instructions as passed (map fd and map value immediates cleared, as the
 * kernel does), with the map's excl_prog_hash: -EACCES if they differ.
 *
 *   excl_owner OBJ      OBJ is excl_owner.bpf.o
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <openssl/evp.h>
#include <bpf/libbpf.h>

#include "testlib.h"

#define HASH_SIZE 32
#define MAX_MAPS 64
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define offsetofend(type, member) (offsetof(type, member) + sizeof(((type *)0)->member))

static struct fake_map {
	ino_t ino;
	char name[BPF_OBJ_NAME_LEN];
	bool excl;
	unsigned char hash[HASH_SIZE];
} maps[MAX_MAPS];
static int nr_maps;

/* What the last BPF_PROG_LOAD of a program using an exclusive map saw */
static struct {
	char name[BPF_OBJ_NAME_LEN];
	bool probe_read;	/* calls bpf_probe_read() (the sanitized call) */
	bool digest_ok;
} excl_load;

long __real_syscall(long nr, ...);

static int fake_fd(const char *name)
{
	return memfd_create(name, MFD_CLOEXEC);
}

static struct fake_map *map_of_fd(int fd)
{
	struct stat st;
	int i;

	if (fstat(fd, &st))
		return NULL;
	for (i = 0; i < nr_maps; i++)
		if (maps[i].ino == st.st_ino)
			return &maps[i];
	return NULL;
}

static int map_create(union bpf_attr *attr, unsigned int size)
{
	struct fake_map *m;
	struct stat st;
	int fd;

	if (nr_maps == MAX_MAPS)
		return -ENOSPC;
	m = &maps[nr_maps];
	memset(m, 0, sizeof(*m));
	if (size >= offsetofend(union bpf_attr, excl_prog_hash_size) &&
	    (attr->excl_prog_hash || attr->excl_prog_hash_size)) {
		if (!attr->excl_prog_hash || attr->excl_prog_hash_size != HASH_SIZE)
			return -EINVAL;
		memcpy(m->hash, (void *)(unsigned long)attr->excl_prog_hash, HASH_SIZE);
		m->excl = true;
	}
	fd = fake_fd("fake-map");
	if (fd < 0 || fstat(fd, &st))
		return -errno;
	m->ino = st.st_ino;
	memcpy(m->name, attr->map_name, sizeof(m->name));
	nr_maps++;
	return fd;
}

static void digest(const struct bpf_insn *insns, __u32 cnt, unsigned char out[HASH_SIZE])
{
	struct bpf_insn *buf = calloc(cnt, sizeof(*buf));
	bool was_ld_map = false;
	__u32 i;

	if (!buf)
		abort();
	memcpy(buf, insns, cnt * sizeof(*buf));
	for (i = 0; i < cnt; i++) {
		if (!was_ld_map && buf[i].code == (BPF_LD | BPF_IMM | BPF_DW) &&
		    (buf[i].src_reg == BPF_PSEUDO_MAP_FD ||
		     buf[i].src_reg == BPF_PSEUDO_MAP_VALUE)) {
			was_ld_map = true;
			buf[i].imm = 0;
		} else if (was_ld_map && buf[i].code == 0 && buf[i].dst_reg == 0 &&
			   buf[i].src_reg == 0 && buf[i].off == 0) {
			was_ld_map = false;
			buf[i].imm = 0;
		} else {
			was_ld_map = false;
		}
	}
	if (!EVP_Digest(buf, cnt * sizeof(*buf), out, NULL, EVP_sha256(), NULL))
		abort();
	free(buf);
}

static bool is_helper_call(const struct bpf_insn *insn, int func)
{
	return insn->code == (BPF_JMP | BPF_CALL) && insn->src_reg == 0 &&
	       insn->imm == func;
}

static int prog_load(union bpf_attr *attr)
{
	const struct bpf_insn *insns = (void *)(unsigned long)attr->insns;
	unsigned char hash[HASH_SIZE];
	bool probe_read = false;
	struct fake_map *m;
	__u32 i;

	for (i = 0; i < attr->insn_cnt; i++) {
		if (is_helper_call(&insns[i], BPF_FUNC_probe_read_kernel) ||
		    is_helper_call(&insns[i], BPF_FUNC_probe_read_kernel_str) ||
		    is_helper_call(&insns[i], BPF_FUNC_probe_read_user) ||
		    is_helper_call(&insns[i], BPF_FUNC_probe_read_user_str))
			return -EINVAL;	/* unknown func, as before 5.5 */
		if (is_helper_call(&insns[i], BPF_FUNC_probe_read))
			probe_read = true;
	}
	for (i = 0; i < attr->insn_cnt; i++) {
		if (insns[i].code != (BPF_LD | BPF_IMM | BPF_DW) ||
		    (insns[i].src_reg != BPF_PSEUDO_MAP_FD &&
		     insns[i].src_reg != BPF_PSEUDO_MAP_VALUE))
			continue;
		m = map_of_fd(insns[i].imm);
		if (!m)
			return -EBADF;
		if (!m->excl)
			continue;
		digest(insns, attr->insn_cnt, hash);
		memcpy(excl_load.name, attr->prog_name, sizeof(excl_load.name));
		excl_load.probe_read = probe_read;
		excl_load.digest_ok = !memcmp(hash, m->hash, HASH_SIZE);
		if (!excl_load.digest_ok)
			return -EACCES;
	}
	return fake_fd("fake-prog");
}

static int fake_bpf(int cmd, union bpf_attr *attr, unsigned int size)
{
	switch (cmd) {
	case BPF_MAP_CREATE:
		return map_create(attr, size);
	case BPF_PROG_LOAD:
		return prog_load(attr);
	default:
		return -EINVAL;	/* BTF, tokens, ...: not supported */
	}
}

long __wrap_syscall(long nr, ...)
{
	long a[6];
	va_list ap;
	int i, ret;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr != __NR_bpf)
		return __real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	ret = fake_bpf(a[0], (union bpf_attr *)a[1], a[2]);
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return ret;
}

/* Kill the process on any bpf(2) that reaches the kernel */
static int forbid_bpf(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_bpf, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = ARRAY_SIZE(filter), .filter = filter };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return -errno;
	return 0;
}

static char libbpf_log[64 * 1024];

static int capture_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	size_t len = strlen(libbpf_log);

	if (level != LIBBPF_DEBUG && len < sizeof(libbpf_log) - 1)
		vsnprintf(libbpf_log + len, sizeof(libbpf_log) - len, fmt, args);
	return 0;
}

static const char *obj_path;

static struct bpf_object *open_obj(void)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .bpf_token_path = "");
	struct bpf_object *obj;

	obj = bpf_object__open_file(obj_path, &opts);
	if (!obj)
		CHECK("open the object", 0, "%s: errno %d", obj_path, errno);
	libbpf_log[0] = 0;
	memset(&excl_load, 0, sizeof(excl_load));
	nr_maps = 0;
	return obj;
}

#define PROG(obj, name) bpf_object__find_program_by_name(obj, name)
#define MAP(obj) bpf_object__find_map_by_name(obj, "excl_map")

/* The owner's digest is the one of its instructions as loaded */
static void test_sanitized_owner(void)
{
	struct bpf_object *obj = open_obj();
	int err;

	if (!obj)
		return;
	err = bpf_map__set_exclusive_program(MAP(obj), PROG(obj, "owner"));
	CHECK("owner: set exclusive program", err == 0, "err %d", err);
	err = bpf_object__load(obj);
	CHECK("owner: loads against a kernel without bpf_probe_read_kernel()", err == 0,
	      "err %d, log:\n%s", err, libbpf_log);
	CHECK("owner: loaded with bpf_probe_read() (sanitized)",
	      !strcmp(excl_load.name, "owner") && excl_load.probe_read,
	      "prog '%s' probe_read %d", excl_load.name, excl_load.probe_read);
	CHECK("owner: excl_prog_hash is the digest of the instructions as loaded",
	      excl_load.digest_ok, "digest mismatch");
	bpf_object__close(obj);
}

/* A program with autoload off is never loaded: refused as owner */
static void test_autoload_off(void)
{
	struct bpf_object *obj = open_obj();
	int err;

	if (!obj)
		return;
	err = bpf_map__set_exclusive_program(MAP(obj), PROG(obj, "not_loaded"));
	CHECK("autoload off: set exclusive program", err == 0, "err %d", err);
	err = bpf_object__load(obj);
	CHECK("autoload off: load is EINVAL", err == -EINVAL, "err %d", err);
	CHECK("autoload off: message names the map and the program",
	      strstr(libbpf_log, "map 'excl_map': exclusive program 'not_loaded' is not loaded (autoload is off)\n"),
	      "log:\n%s", libbpf_log);
	CHECK("autoload off: no exclusive map was created", nr_maps == 0 || !maps[nr_maps - 1].excl,
	      "%d maps", nr_maps);
	bpf_object__close(obj);
}

/*
 * A subprogram (a .text function) is only loaded as part of the programs
 * that call it. The public API never hands one out; reach it through the
 * programs array, where libbpf sorts programs by section: .text (sub),
 * then owner, then not_loaded.
 */
static void test_subprogram(void)
{
	struct bpf_object *obj = open_obj();
	struct bpf_program *owner, *next, *sub;
	ptrdiff_t stride;
	int err;

	if (!obj)
		return;
	owner = PROG(obj, "owner");
	next = bpf_object__next_program(obj, owner);
	stride = (char *)next - (char *)owner;
	sub = (struct bpf_program *)((char *)owner - stride);
	if (!next || stride <= 0 || stride > 4096 || strcmp(bpf_program__name(sub), "sub")) {
		CHECK("subprogram: found behind the owner", 0, "layout changed");
		bpf_object__close(obj);
		return;
	}
	err = bpf_map__set_exclusive_program(MAP(obj), sub);
	CHECK("subprogram: refused as exclusive program with EINVAL", err == -EINVAL, "err %d", err);
	CHECK("subprogram: message names the map and the program",
	      strstr(libbpf_log, "map 'excl_map': exclusive program 'sub' is a subprogram\n"),
	      "log:\n%s", libbpf_log);
	bpf_object__close(obj);
}

/* A light skeleton's loader cannot carry exclusivity: generation fails */
static void test_light_skeleton(void)
{
	LIBBPF_OPTS(gen_loader_opts, gen);
	struct bpf_object *obj;
	int err;

	obj = open_obj();
	if (!obj)
		return;
	err = bpf_object__gen_loader(obj, &gen);
	err = err ?: bpf_object__load(obj);
	CHECK("light skeleton: generated without exclusive maps", err == 0 && gen.insns_sz,
	      "err %d, log:\n%s", err, libbpf_log);
	bpf_object__close(obj);

	memset(&gen, 0, sizeof(gen));
	gen.sz = sizeof(gen);
	obj = open_obj();
	if (!obj)
		return;
	err = bpf_object__gen_loader(obj, &gen);
	err = err ?: bpf_map__set_exclusive_program(MAP(obj), PROG(obj, "owner"));
	err = err ?: bpf_object__load(obj);
	CHECK("light skeleton: exclusive map is EOPNOTSUPP", err == -EOPNOTSUPP, "err %d", err);
	CHECK("light skeleton: message names the map",
	      strstr(libbpf_log,
		     "gen: map_create: excl_map: exclusive maps are not supported in light skeletons\n"),
	      "log:\n%s", libbpf_log);
	bpf_object__close(obj);
}

int main(int argc, char **argv)
{
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: %s excl_owner.bpf.o\n", argv[0]);
		return 2;
	}
	obj_path = argv[1];
	err = forbid_bpf();
	if (err) {
		CHECK("seccomp filter against bpf(2)", 0, "err %d", err);
		return 1;
	}
	libbpf_set_print(capture_print);
	test_sanitized_owner();
	test_autoload_off();
	test_subprogram();
	test_light_skeleton();
	return test_failures ? 1 : 0;
}
