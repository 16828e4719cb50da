// SPDX-License-Identifier: GPL-2.0
/*
 * Which maps a signed loader's children may use, checked in the guest: a
 * program loaded through bpf_sys_bpf() by a loader whose signature was
 * verified may use only maps created (bpf_sys_bpf(BPF_MAP_CREATE)) by that
 * same loader program; any other map makes its BPF_PROG_LOAD fail with
 * EACCES. Otherwise a thread of the loading process could dup2() a map of
 * its own over the fd of a map the loader created and filled, between the
 * loader's freeze and its program load. Unsigned loaders are not
 * restricted.
 *
 * The loader is tests/progs/loader_maps.bpf.c: its instructions are taken
 * from the object as they are (opened, never loaded, by libbpf) and loaded
 * here as a sleepable BPF_PROG_TYPE_SYSCALL program, signed or not.
 *
 *   loader_maps dump FILE   write the loader's instructions to FILE, the
 *                           bytes to sign
 *   loader_maps run SIG     the checks: SIG is a signature over those
 *                           instructions by a key in the session keyring
 *   loader_maps policy SIG  under the signed_only policy: the loader loads,
 *                           the program it loads is refused
 *   loader_maps pin-child SIG PATH
 *                           pin at PATH a program the signed loader loads
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <linux/keyctl.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "testlib.h"
#include "loader_maps.skel.h"

/* ctx->mode, as in the loader */
#define LM_OWN_MAP	0
#define LM_CTX_MAP	1
#define LM_CREATE_ONLY	2
#define LM_CREATE_RDONLY 3
#define LM_UPDATE	4

/* The same layout as struct loader_maps_ctx in the loader */
struct loader_maps_ctx {
	__u32 mode;
	__s32 map_fd;
	__s32 own_map_fd;
	__s32 prog_fd;
	__u64 log_buf;
	__u32 log_size;
	__u32 log_level;
};

#define REFUSAL "map was not created by the verified loader of this program"

static struct bpf_insn *insns;
static unsigned int insn_cnt;
static char log_buf[65536];

/* The loader's instructions, as the object has them */
static int get_insns(void)
{
	struct loader_maps *skel = loader_maps__open();
	const struct bpf_insn *p;

	if (!skel) {
		fprintf(stderr, "loader_maps: open: errno %d\n", errno);
		return -1;
	}
	p = bpf_program__insns(skel->progs.loader);
	insn_cnt = bpf_program__insn_cnt(skel->progs.loader);
	insns = malloc(insn_cnt * sizeof(*insns));
	if (!p || !insn_cnt || !insns) {
		loader_maps__destroy(skel);
		return -1;
	}
	memcpy(insns, p, insn_cnt * sizeof(*insns));
	loader_maps__destroy(skel);
	return 0;
}

/* Run iter_write over MAP (run_map_iter()): 0, or -errno */
static int iterate(int map)
{
	struct loader_maps *skel = loader_maps__open();
	int err;

	if (!skel)
		return -errno;
	bpf_program__set_autoload(skel->progs.iter_write, true);
	bpf_program__set_autoload(skel->progs.loader, false);
	if (loader_maps__load(skel)) {
		loader_maps__destroy(skel);
		return -ENOEXEC;
	}
	err = run_map_iter(bpf_program__fd(skel->progs.iter_write), map);
	loader_maps__destroy(skel);
	return err;
}

/* The loader as a sleepable syscall program, signed if SIG is given */
static int load_loader(const void *sig, size_t sig_len)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SYSCALL;
	attr.prog_flags = BPF_F_SLEEPABLE;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = insn_cnt;
	attr.license = (unsigned long)"GPL";
	if (sig) {
		attr.signature = (unsigned long)sig;
		attr.signature_size = sig_len;
		attr.keyring_id = KEY_SPEC_SESSION_KEYRING;
	}
	attr.log_buf = (unsigned long)log_buf;
	attr.log_size = sizeof(log_buf);
	attr.log_level = 1;
	log_buf[0] = 0;
	fd = sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
	if (fd < 0)
		fprintf(stderr, "loader_maps: loader load: errno %d\n%s\n", -fd, log_buf);
	return fd;
}

/* Run the loader once with CTX (written back in place); the child's
 * verifier log goes to log_buf. 0, or -errno of BPF_PROG_TEST_RUN.
 */
static int run_loader(int prog_fd, struct loader_maps_ctx *ctx)
{
	union bpf_attr attr;

	log_buf[0] = 0;
	ctx->own_map_fd = -1;
	ctx->prog_fd = -1;
	ctx->log_buf = (unsigned long)log_buf;
	ctx->log_size = sizeof(log_buf);
	ctx->log_level = 1;
	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = prog_fd;
	attr.test.ctx_in = (unsigned long)ctx;
	attr.test.ctx_size_in = sizeof(*ctx);
	return sys_bpf(BPF_PROG_TEST_RUN, &attr, sizeof(attr));
}

/* Run the loader in MODE (with MAP_FD for LM_CTX_MAP): the child's fd or
 * -errno; the map this run created in *own_map (-1 if none)
 */
static int child(int loader_fd, __u32 mode, int map_fd, int *own_map)
{
	struct loader_maps_ctx ctx = { .mode = mode, .map_fd = map_fd };
	int err = run_loader(loader_fd, &ctx);

	if (err) {
		fprintf(stderr, "loader_maps: BPF_PROG_TEST_RUN: errno %d\n", -err);
		*own_map = -1;
		return err;
	}
	*own_map = ctx.own_map_fd;
	return ctx.prog_fd;
}

static int user_map(void)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = 4;
	attr.max_entries = 1;
	return sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
}

/* Element 0 of MAP set from user space: 0 or -errno */
static int update(int map)
{
	__u32 key = 0, value = 0x1337;

	return bpf_map_update_elem(map, &key, &value, 0) ? -errno : 0;
}

static int update_batch(int map)
{
	__u32 key = 0, value = 0x1337, count = 1;

	return bpf_map_update_batch(map, &key, &value, &count, NULL) ? -errno : 0;
}

static void close_fd(int fd)
{
	if (fd >= 0)
		close(fd);
}

static int run(const char *sig_path)
{
	int signed_fd, signed2_fd, unsigned_fd, umap, map, other, fd, err;
	size_t sig_len;
	void *sig = read_file(sig_path, &sig_len);

	signed_fd = load_loader(sig, sig_len);
	CHECK("loader maps: the signed loader loads (sleepable syscall program, instructions-only signature)",
	      signed_fd >= 0, "errno %d", -signed_fd);
	CHECK("loader maps: the signed loader's fdinfo says prog_sig: verified",
	      signed_fd >= 0 && !strcmp(fdinfo_value(signed_fd, "prog_sig"), "verified"),
	      "'%s'", signed_fd >= 0 ? fdinfo_value(signed_fd, "prog_sig") : "");
	signed2_fd = load_loader(sig, sig_len);
	CHECK("loader maps: a second copy of the signed loader loads", signed2_fd >= 0,
	      "errno %d", -signed2_fd);
	unsigned_fd = load_loader(NULL, 0);
	CHECK("loader maps: the same loader loads unsigned", unsigned_fd >= 0,
	      "errno %d", -unsigned_fd);
	umap = user_map();
	CHECK("loader maps: user space creates an array map", umap >= 0, "errno %d", -umap);
	if (signed_fd < 0 || signed2_fd < 0 || unsigned_fd < 0 || umap < 0)
		return 1;

	/* The map the loader created itself: the light skeleton's case */
	fd = child(signed_fd, LM_OWN_MAP, -1, &map);
	CHECK("loader maps: signed loader, child using the map the loader created: loads",
	      map >= 0 && fd >= 0, "map %d, child %d", map, fd);
	CHECK("loader maps: signed loader, child using the loader's map: fdinfo says prog_loader_sig: verified",
	      fd >= 0 && !strcmp(fdinfo_value(fd, "prog_loader_sig"), "verified"),
	      "'%s'", fd >= 0 ? fdinfo_value(fd, "prog_loader_sig") : "");
	close_fd(fd);
	close_fd(map);

	/* A map of user space's, as a dup2() over the loader's map fd would
	 * put in its place
	 */
	fd = child(signed_fd, LM_CTX_MAP, umap, &map);
	CHECK("loader maps: signed loader, child using a map created by user space: EACCES",
	      fd == -EACCES, "got %d", fd);
	CHECK("loader maps: signed loader, child using a map created by user space: the verifier log says why",
	      strstr(log_buf, REFUSAL) != NULL, "log: '%.300s'", log_buf);
	close_fd(fd);
	close_fd(map);

	fd = child(unsigned_fd, LM_CTX_MAP, umap, &map);
	CHECK("loader maps: unsigned loader, child using a map created by user space: loads (unsigned loaders are not restricted)",
	      fd >= 0, "got %d: '%.300s'", fd, log_buf);
	CHECK("loader maps: unsigned loader's child: fdinfo says prog_loader_sig: unsigned",
	      fd >= 0 && !strcmp(fdinfo_value(fd, "prog_loader_sig"), "unsigned"),
	      "'%s'", fd >= 0 ? fdinfo_value(fd, "prog_loader_sig") : "");
	close_fd(fd);
	close_fd(map);

	/* Maps created by other loader programs: the ownership is the loader
	 * program's, not its digest's or its signer's
	 */
	fd = child(signed2_fd, LM_CREATE_ONLY, -1, &other);
	CHECK("loader maps: a second copy of the signed loader creates a map", other >= 0 && fd == 0,
	      "map %d, child %d", other, fd);
	fd = child(signed_fd, LM_CTX_MAP, other, &map);
	CHECK("loader maps: signed loader, child using a map created by another copy of the same signed loader: EACCES",
	      fd == -EACCES, "got %d", fd);
	close_fd(fd);
	close_fd(map);
	close_fd(other);

	fd = child(unsigned_fd, LM_CREATE_ONLY, -1, &other);
	fd = child(signed_fd, LM_CTX_MAP, other, &map);
	CHECK("loader maps: signed loader, child using a map created by an unsigned loader program: EACCES",
	      other >= 0 && fd == -EACCES, "map %d, got %d", other, fd);
	close_fd(fd);
	close_fd(map);
	close_fd(other);

	/* The loader program is the owner, whichever of its runs created it */
	fd = child(signed_fd, LM_CREATE_ONLY, -1, &other);
	fd = child(signed_fd, LM_CTX_MAP, other, &map);
	CHECK("loader maps: signed loader, child using a map from an earlier run of the same loader program: loads",
	      other >= 0 && fd >= 0, "map %d, got %d: '%.300s'", other, fd, log_buf);
	close_fd(fd);
	close_fd(map);
	close_fd(other);

	/* A verified loader's read-only maps (.rodata) are written by that
	 * loader only, until it freezes them: a thread of its process must
	 * not slip its own value in between the loader's update and freeze
	 */
	fd = child(signed_fd, LM_CREATE_RDONLY, -1, &other);
	err = update(other);
	CHECK("loader maps: a signed loader's read-only map: user-space update is EPERM",
	      other >= 0 && err == -EPERM, "map %d, got %d", other, err);
	err = update_batch(other);
	CHECK("loader maps: a signed loader's read-only map: user-space batch update is EPERM",
	      other >= 0 && err == -EPERM, "map %d, got %d", other, err);
	close_fd(other);
	/* Nor by another loader program: the same signed instructions loaded
	 * again, or an unsigned loader. Its creator writes it.
	 */
	fd = child(signed_fd, LM_CREATE_RDONLY, -1, &other);
	err = child(signed2_fd, LM_UPDATE, other, &map);
	CHECK("loader maps: a signed loader's read-only map: an update by a second copy of the signed loader is EPERM",
	      other >= 0 && err == -EPERM, "map %d, got %d", other, err);
	err = child(unsigned_fd, LM_UPDATE, other, &map);
	CHECK("loader maps: a signed loader's read-only map: an update by an unsigned loader program is EPERM",
	      other >= 0 && err == -EPERM, "map %d, got %d", other, err);
	err = child(signed_fd, LM_UPDATE, other, &map);
	CHECK("loader maps: a signed loader's read-only map: an update by the loader that created it works",
	      other >= 0 && err == 0, "map %d, got %d", other, err);
	close_fd(other);
	fd = child(signed_fd, LM_CREATE_ONLY, -1, &other);
	err = update(other);
	CHECK("loader maps: a signed loader's writable map (like .data): user-space update works",
	      other >= 0 && !err, "map %d, got %d", other, err);
	close_fd(other);
	fd = child(unsigned_fd, LM_CREATE_RDONLY, -1, &other);
	err = update(other);
	CHECK("loader maps: an unsigned loader's read-only map: user-space update works",
	      other >= 0 && !err, "map %d, got %d", other, err);
	close_fd(other);

	/* Nor may a map element iterator, which gets each value writable,
	 * touch a verified loader's read-only map; any other map it may, as
	 * upstream's
	 */
	fd = child(signed_fd, LM_CREATE_RDONLY, -1, &other);
	err = iterate(other);
	CHECK("loader maps: a signed loader's read-only map: a map element iterator is EACCES",
	      other >= 0 && err == -EACCES, "map %d, got %d", other, err);
	close_fd(other);
	fd = child(unsigned_fd, LM_CREATE_RDONLY, -1, &other);
	err = iterate(other);
	CHECK("loader maps: an unsigned loader's read-only map: a map element iterator runs",
	      other >= 0 && !err, "map %d, got %d", other, err);
	close_fd(other);
	other = bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, 4, 1,
			       &(struct bpf_map_create_opts){ .sz = sizeof(struct bpf_map_create_opts),
							      .map_flags = BPF_F_RDONLY_PROG });
	err = iterate(other);
	CHECK("loader maps: user space's read-only-for-programs map: a map element iterator runs",
	      other >= 0 && !err, "map %d, got %d", other, err);
	close_fd(other);

	close(umap);
	close(unsigned_fd);
	close(signed2_fd);
	close(signed_fd);
	return test_failures ? 1 : 0;
}

/* Under the signed_only policy (trusting the session keyring): the
 * loader, verified over its instructions alone, loads; the program it
 * loads does not, since a loader whose signature covers no map loads
 * whatever its caller hands it.
 */
static int policy(const char *sig_path)
{
	int loader_fd, own_map, fd;
	size_t sig_len;
	void *sig;

	sig = read_file(sig_path, &sig_len);
	loader_fd = load_loader(sig, sig_len);
	CHECK("policy: a loader verified over its instructions alone loads itself",
	      loader_fd >= 0, "errno %d", -loader_fd);
	if (loader_fd < 0)
		return 1;
	CHECK("policy: its verdict covers 0 maps",
	      !strcmp(fdinfo_value(loader_fd, "prog_sig_maps"), "0"), "prog_sig_maps '%s'",
	      fdinfo_value(loader_fd, "prog_sig_maps"));
	fd = child(loader_fd, LM_OWN_MAP, -1, &own_map);
	CHECK("policy: the program it loads is refused (EPERM)", fd == -EPERM,
	      "got %d", fd);
	close_fd(fd);
	close_fd(own_map);
	close(loader_fd);
	return test_failures ? 1 : 0;
}

/* Pin at PATH the program that the loader, signed with SIG, loads */
static int pin_child(const char *sig_path, const char *path)
{
	int loader_fd, own_map, fd;
	size_t sig_len;
	void *sig;

	sig = read_file(sig_path, &sig_len);
	loader_fd = load_loader(sig, sig_len);
	if (loader_fd < 0)
		return 2;
	fd = child(loader_fd, LM_OWN_MAP, -1, &own_map);
	if (fd < 0 || bpf_obj_pin(fd, path)) {
		fprintf(stderr, "loader_maps: child %d, pin %s: errno %d\n", fd, path, errno);
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "pin-child")) {
		if (get_insns())
			return 2;
		return pin_child(argv[2], argv[3]);
	}
	if (argc != 3 || (strcmp(argv[1], "dump") && strcmp(argv[1], "run") &&
			  strcmp(argv[1], "policy"))) {
		fprintf(stderr, "usage: loader_maps dump FILE | loader_maps run|policy SIG | loader_maps pin-child SIG PATH\n");
		return 2;
	}
	if (get_insns())
		return 2;
	if (!strcmp(argv[1], "dump")) {
		FILE *f = fopen(argv[2], "w");

		if (!f || fwrite(insns, sizeof(*insns), insn_cnt, f) != insn_cnt || fclose(f)) {
			perror(argv[2]);
			return 2;
		}
		return 0;
	}
	if (!strcmp(argv[1], "policy"))
		return policy(argv[2]);
	return run(argv[2]);
}
