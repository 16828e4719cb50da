// SPDX-License-Identifier: GPL-2.0
/*
 * Extensions and tracing programs against programs a signature vouches
 * for, and against the owner of an exclusive map (the kernel's rule: an
 * extension may replace a function of a verified program only if its own
 * signature is at least as trusted, and of an exclusive map's owner only
 * if it owns the map too; tracing programs only watch).
 *
 *   ext_verified dump TARGET EXT GLOADER
 *                                   write the final instructions of the
 *                                   signed target, of the extension and
 *                                   of progs/ext_gloader.bpf.c
 *   ext_verified run SIG RING EXT_SIG EXT_RING OTHER_SIG OTHER_RING
 *                                   every check: SIG signs the target,
 *                                   verified against keyring RING; EXT_SIG
 *                                   signs the extension against EXT_RING
 *                                   (the same keyring); OTHER_SIG signs it
 *                                   against OTHER_RING (another keyring)
 *   ext_verified loader0 SIG RING GL_SIG
 *                                   the extension loaded, unsigned, by a
 *                                   loader signed over its instructions
 *                                   alone (GL_SIG, against RING): such a
 *                                   loader vouches for nothing it loads
 *   ext_verified vouched RING EXT_SIG BUILTIN_SIG
 *                                   targets that have no signature of
 *                                   their own, loaded by a signed light
 *                                   skeleton of progs/ext_vouched.bpf.c
 *                                   whose loader is verified against the
 *                                   builtin keys or against RING: the
 *                                   extension unsigned, signed with EXT_SIG
 *                                   against RING, or with BUILTIN_SIG
 *                                   against the builtin keys
 *   ext_verified policy SIG RING EXT_SIG OTHER_SIG OTHER_RING PIN
 *                                   under the signed_only policy (pinned at
 *                                   PIN, trusting the session keyring):
 *                                   extensions of the target signed against
 *                                   RING, unsigned, verified against
 *                                   OTHER_RING, or against RING. libbpf
 *                                   loads a trivial unsigned program to
 *                                   probe the kernel before it loads an
 *                                   object, which the policy refuses: so the
 *                                   policy is put in force just before each
 *                                   extension's own BPF_PROG_LOAD, and
 *                                   removed after it
 */
#include <fcntl.h>
#include <libgen.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "testlib.h"
#include "ext_target.skel.h"
#include "ext_replace.skel.h"
#include "ext_gloader.skel.h"
#include "ext_vouched_ring.lskel.h"
#include "ext_vouched_builtin.lskel.h"

#define EVIL	0x41414141u
#define GOOD	0x11111111u

/* What the "signed" and "signed_ext" section handlers do at load */
static const char *dump_path;
static void *sig;
static __u32 sig_size;
static int keyring_id;

static char log_buf[65536];

/* Run just before an extension's BPF_PROG_LOAD, if set */
static const char *enforce_cmd;

/* The generic loader that loads extensions instead of libbpf, if >= 0 */
static int gloader_fd = -1;

#define ATTR_SZ 168

/* The same layout as struct gloader_ctx in progs/ext_gloader.bpf.c */
struct gloader_ctx {
	__u8 attr[ATTR_SZ];
	__s32 fd;
	__u32 pad;
	__u64 insns[128];
	__u8 func_info[64];
	__u8 license[8];
};

/* The program libbpf was about to load, loaded by the generic loader
 * instead: the loader's result (fd or -errno) in *out, the program's
 * verifier log in log_buf
 */
static int load_through_gloader(struct bpf_program *prog, struct bpf_prog_load_opts *o,
				int *out)
{
	static struct gloader_ctx ctx;
	union bpf_attr *a = (void *)ctx.attr;
	size_t n = bpf_program__insn_cnt(prog);
	LIBBPF_OPTS(bpf_test_run_opts, topts, .ctx_in = &ctx, .ctx_size_in = sizeof(ctx));

	if (n > 128 || o->func_info_cnt * o->func_info_rec_size > sizeof(ctx.func_info))
		return -E2BIG;
	memset(&ctx, 0, sizeof(ctx));
	memcpy(ctx.insns, bpf_program__insns(prog), n * sizeof(struct bpf_insn));
	memcpy(ctx.func_info, o->func_info, o->func_info_cnt * o->func_info_rec_size);
	strcpy((char *)ctx.license, "GPL");
	a->prog_type = bpf_program__type(prog);
	a->insn_cnt = n;
	a->prog_btf_fd = o->prog_btf_fd;
	a->func_info_rec_size = o->func_info_rec_size;
	a->func_info_cnt = o->func_info_cnt;
	a->attach_prog_fd = o->attach_prog_fd;
	a->attach_btf_id = o->attach_btf_id;
	a->log_buf = (unsigned long)log_buf;
	a->log_size = sizeof(log_buf);
	a->log_level = 1;
	ctx.fd = -1;
	if (bpf_prog_test_run_opts(gloader_fd, &topts))
		return -errno;
	*out = ctx.fd;
	return 0;
}

static int gloader_child = -1;

static int prepare_load(struct bpf_program *prog, struct bpf_prog_load_opts *opts,
			long cookie)
{
	const struct bpf_insn *insns = bpf_program__insns(prog);
	size_t len = bpf_program__insn_cnt(prog) * sizeof(*insns);
	int fd;

	if (dump_path) {
		fd = open(dump_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || write(fd, insns, len) != (ssize_t)len)
			return -EIO;
		close(fd);
		return -ECANCELED;
	}
	/* syscall programs are sleepable, as libbpf's "syscall" loads them */
	if (bpf_program__type(prog) == BPF_PROG_TYPE_SYSCALL)
		opts->prog_flags |= BPF_F_SLEEPABLE;
	if (gloader_fd >= 0 && bpf_program__type(prog) == BPF_PROG_TYPE_EXT) {
		int err = load_through_gloader(prog, opts, &gloader_child);

		return err ?: -ECANCELED;
	}
	if (enforce_cmd && bpf_program__type(prog) == BPF_PROG_TYPE_EXT &&
	    system(enforce_cmd)) {
		fprintf(stderr, "ext_verified: '%s' failed\n", enforce_cmd);
		return -EIO;
	}
	if (sig) {
		opts->signature = sig;
		opts->signature_sz = sig_size;
		opts->keyring_id = keyring_id;
	}
	return 0;
}

static void use_sig(const char *path, int ring)
{
	size_t len = 0;

	free(sig);
	sig = path ? read_file(path, &len) : NULL;
	sig_size = len;
	keyring_id = ring;
}

static int run(int prog_fd)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	int err = bpf_prog_test_run_opts(prog_fd, &topts);

	return err ? err : (int)topts.retval;
}

/* The target: signed with SIG against RING, or unsigned (NULL) */
static struct ext_target *load_target(const char *sigfile, int ring)
{
	struct ext_target *skel;

	use_sig(sigfile, ring);
	skel = ext_target__open();
	if (!skel)
		return NULL;
	bpf_program__set_autoload(skel->progs.owner, false);
	if (ext_target__load(skel)) {
		ext_target__destroy(skel);
		skel = NULL;
	}
	use_sig(NULL, 0);
	return skel;
}

/* Load the extension/tracing program PROG of ext_replace against
 * TARGET_FD's function FUNC, signed with SIGFILE against RING (or not):
 * 0, or the load's error with the verifier log in log_buf.
 */
static int load_ext(struct ext_replace **out, const char *name, int target_fd,
		    const char *func, const char *sigfile, int ring)
{
	struct ext_replace *skel;
	struct bpf_program *prog;
	int err;

	*out = NULL;
	skel = ext_replace__open();
	if (!skel)
		return -ENOMEM;
	prog = bpf_object__find_program_by_name(skel->obj, name);
	bpf_program__set_autoload(prog, true);
	bpf_program__set_attach_target(prog, target_fd, func);
	log_buf[0] = 0;
	bpf_program__set_log_buf(prog, log_buf, sizeof(log_buf));
	bpf_program__set_log_level(prog, 1);
	use_sig(sigfile, ring);
	err = ext_replace__load(skel);
	use_sig(NULL, 0);
	if (err) {
		ext_replace__destroy(skel);
		return err;
	}
	*out = skel;
	return 0;
}

static int logged(const char *line)
{
	return strstr(log_buf, line) != NULL;
}

#define VERIFIED_MSG \
	"Cannot replace a function of a verified program without a signature as trusted"
#define EXCL_MSG "Cannot replace a function of a program that uses an exclusive map"

static void test_verified(const char *sigfile, int ring, const char *ext_sig,
			  int ext_ring, const char *other_sig, int other_ring)
{
	struct ext_target *plain, *signed_t;
	struct ext_replace *ext;
	struct bpf_link *link;
	int err, fd;

	plain = load_target(NULL, 0);
	signed_t = load_target(sigfile, ring);
	CHECK("ext: the unsigned and the signed target load", plain && signed_t,
	      "unsigned %p signed %p", plain, signed_t);
	if (!plain || !signed_t)
		goto out;
	fd = bpf_program__fd(signed_t->progs.target);
	CHECK("ext: the signed target is recorded verified",
	      !strcmp(fdinfo_value(fd, "prog_sig"), "verified"), "prog_sig '%s'",
	      fdinfo_value(fd, "prog_sig"));
	CHECK("ext: the signed target returns pick(1) = 2", run(fd) == 2, "got %d", run(fd));

	/* The baseline: extensions of an unsigned program work */
	err = load_ext(&ext, "new_pick", bpf_program__fd(plain->progs.target), "pick",
		       NULL, 0);
	link = err ? NULL : bpf_program__attach_trace(ext->progs.new_pick);
	CHECK("ext: an unsigned extension replaces pick() of an unsigned program",
	      link && run(bpf_program__fd(plain->progs.target)) == 0x1337,
	      "load %d, link %p, ret %d: %s", err, link,
	      run(bpf_program__fd(plain->progs.target)), log_buf);
	bpf_link__destroy(link);

	/* The same extension, already loaded, linked to the signed target
	 * with BPF_LINK_CREATE's target_fd
	 */
	if (ext) {
		link = bpf_program__attach_freplace(ext->progs.new_pick, fd, "pick");
		err = link ? 0 : -errno;
		CHECK("ext: BPF_LINK_CREATE of an unsigned extension to the verified target: EPERM",
		      err == -EPERM, "got %d", err);
		bpf_link__destroy(link);
		ext_replace__destroy(ext);
	}

	err = load_ext(&ext, "new_pick", fd, "pick", NULL, 0);
	CHECK("ext: an unsigned extension of the verified target: EPERM", err == -EPERM,
	      "got %d", err);
	CHECK("ext: the verifier log says why (unsigned)", logged(VERIFIED_MSG),
	      "log: %s", log_buf);
	ext_replace__destroy(ext);

	err = load_ext(&ext, "new_pick", fd, "pick", other_sig, other_ring);
	CHECK("ext: an extension verified against another keyring: EPERM", err == -EPERM,
	      "got %d", err);
	CHECK("ext: the verifier log says why (other keyring)", logged(VERIFIED_MSG),
	      "log: %s", log_buf);
	ext_replace__destroy(ext);

	err = load_ext(&ext, "new_pick", fd, "pick", ext_sig, ext_ring);
	link = err ? NULL : bpf_program__attach_trace(ext->progs.new_pick);
	CHECK("ext: an extension verified against the target's keyring replaces pick()",
	      link && run(fd) == 0x1337, "load %d, link %p, ret %d: %s", err, link,
	      run(fd), log_buf);
	bpf_link__destroy(link);
	ext_replace__destroy(ext);
	CHECK("ext: with the extension gone, the verified target returns 2 again",
	      run(fd) == 2, "got %d", run(fd));

	/* Tracing watches the verified program: allowed, changes nothing */
	err = load_ext(&ext, "watch_pick", fd, "pick", NULL, 0);
	link = err ? NULL : bpf_program__attach_trace(ext->progs.watch_pick);
	CHECK("ext: fentry on a function of the verified target attaches", link != NULL,
	      "load %d: %s", err, log_buf);
	if (link) {
		CHECK("ext: under fentry the verified target still returns 2", run(fd) == 2,
		      "got %d", run(fd));
		CHECK("ext: fentry saw pick(1)", ext->bss->seen == 1, "seen %llu",
		      (unsigned long long)ext->bss->seen);
	}
	bpf_link__destroy(link);
	ext_replace__destroy(ext);
out:
	ext_target__destroy(plain);
	ext_target__destroy(signed_t);
}

static void test_exclusive(void)
{
	__u32 key = 0, value = GOOD;
	struct ext_target *skel;
	struct ext_replace *ext;
	struct bpf_link *link;
	int err, fd, map;

	skel = ext_target__open();
	if (!skel) {
		CHECK("ext: the exclusive map's owner opens", 0, "errno %d", errno);
		return;
	}
	bpf_program__set_autoload(skel->progs.target, false);
	bpf_map__set_exclusive_program(skel->maps.excl_map, skel->progs.owner);
	err = ext_target__load(skel);
	CHECK("ext: the exclusive map's owner loads", !err, "err %d", err);
	if (err)
		goto out;
	fd = bpf_program__fd(skel->progs.owner);
	map = bpf_map__fd(skel->maps.excl_map);
	bpf_map_update_elem(map, &key, &value, 0);
	err = bpf_map_freeze(map);
	CHECK("ext: the owner reads its frozen map", !err && run(fd) == (int)GOOD,
	      "freeze %d, ret %#x", err, run(fd));

	err = load_ext(&ext, "new_use", fd, "use", NULL, 0);
	link = err ? NULL : bpf_program__attach_trace(ext->progs.new_use);
	if (link)
		run(fd);
	CHECK("ext: an extension of the exclusive map's owner: EPERM", err == -EPERM,
	      "got %d, link %p", err, link);
	CHECK("ext: the verifier log says why (exclusive map)", logged(EXCL_MSG),
	      "log: %s", log_buf);
	bpf_link__destroy(link);
	ext_replace__destroy(ext);

	err = load_ext(&ext, "write_use", fd, "use", NULL, 0);
	link = err ? NULL : bpf_program__attach_trace(ext->progs.write_use);
	if (link)
		run(fd);
	CHECK("ext: fexit writing through the owner's pointer argument: EACCES",
	      err == -EACCES, "got %d, link %p", err, link);
	bpf_link__destroy(link);
	ext_replace__destroy(ext);

	value = 0;
	bpf_map_lookup_elem(map, &key, &value);
	CHECK("ext: the frozen exclusive map still holds its value", value == GOOD,
	      "value %#x", value);
out:
	ext_target__destroy(skel);
}

/* Replace pick() of TARGET_FD with new_pick, signed with SIGFILE against
 * RING (or unsigned): EXPECT is the load's result, 0 meaning that the
 * extension must also attach and take over pick()
 */
static void try_vouched(const char *name, int target_fd, const char *sigfile, int ring,
			int expect)
{
	struct ext_replace *ext;
	struct bpf_link *link;
	int err, ret;

	err = load_ext(&ext, "new_pick", target_fd, "pick", sigfile, ring);
	if (expect) {
		CHECK(name, err == expect && logged(VERIFIED_MSG), "got %d, log: %s", err,
		      log_buf);
	} else {
		link = err ? NULL : bpf_program__attach_trace(ext->progs.new_pick);
		ret = run(target_fd);
		CHECK(name, link && ret == 0x1337, "load %d, link %p, ret %#x: %s", err, link,
		      ret, log_buf);
		bpf_link__destroy(link);
	}
	ext_replace__destroy(ext);
}

static int loader_verdict(int fd, const char *keyring)
{
	return !strcmp(fdinfo_value(fd, "prog_sig"), "unsigned") &&
	       !strcmp(fdinfo_value(fd, "prog_loader_sig"), "verified") &&
	       !strcmp(fdinfo_value(fd, "prog_loader_sig_keyring"), keyring);
}

/* The README's central case: a program with no signature of its own that
 * a verified light skeleton loaded. Its loader's signature vouches for it,
 * so an extension must be at least as trusted as that signature: the
 * builtin keys are trusted for every target, RING only for a target
 * vouched for through RING.
 */
static void test_vouched(int ring, const char *ext_sig, const char *builtin_sig)
{
	struct ext_vouched_builtin *b = ext_vouched_builtin__open_and_load();
	struct ext_vouched_ring *r = ext_vouched_ring__open();
	int err = -1, fb, fr;

	if (r) {
		r->keyring_id = ring;
		err = ext_vouched_ring__load(r);
	}
	CHECK("ext: vouched: light skeletons verified against the builtin keys and RING load",
	      b && r && !err, "builtin %p, ring %p, err %d", b, r, err);
	if (!b || !r || err)
		goto out;
	fb = b->progs.target.prog_fd;
	fr = r->progs.target.prog_fd;
	CHECK("ext: vouched: the targets are unsigned, their loaders verified (builtin, user)",
	      loader_verdict(fb, "builtin") && loader_verdict(fr, "user"),
	      "builtin target: %s/%s/%s", fdinfo_value(fb, "prog_sig"),
	      fdinfo_value(fb, "prog_loader_sig"), fdinfo_value(fb, "prog_loader_sig_keyring"));
	CHECK("ext: vouched: both targets return pick(1) = 2", run(fb) == 2 && run(fr) == 2,
	      "builtin %d, ring %d", run(fb), run(fr));

	try_vouched("ext: vouched (builtin): an unsigned extension: EPERM", fb, NULL, 0,
		    -EPERM);
	try_vouched("ext: vouched (builtin): an extension verified against a user keyring: EPERM",
		    fb, ext_sig, ring, -EPERM);
	try_vouched("ext: vouched (builtin): an extension verified against the builtin keys replaces pick()",
		    fb, builtin_sig, 0, 0);
	try_vouched("ext: vouched (RING): an unsigned extension: EPERM", fr, NULL, 0, -EPERM);
	try_vouched("ext: vouched (RING): an extension verified against RING replaces pick()",
		    fr, ext_sig, ring, 0);
	try_vouched("ext: vouched (RING): an extension verified against the builtin keys replaces pick()",
		    fr, builtin_sig, 0, 0);
	CHECK("ext: vouched: with the extensions gone, both targets return 2 again",
	      run(fb) == 2 && run(fr) == 2, "builtin %d, ring %d", run(fb), run(fr));
out:
	ext_vouched_builtin__destroy(b);
	ext_vouched_ring__destroy(r);
}

/* Under the policy, which refuses at BPF_PROG_LOAD's LSM hook, before the
 * verifier runs: EPERM and an empty verifier log, whatever the kernel's own
 * rules for extensions would say.
 */
/* The generic loader as a sleepable syscall program, signed with SIGFILE
 * against RING over its instructions alone
 */
static int load_gloader(const char *sigfile, int ring)
{
	struct ext_gloader *skel = ext_gloader__open();
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .prog_flags = BPF_F_SLEEPABLE,
		    .keyring_id = ring);
	int fd;

	if (!skel)
		return -errno;
	use_sig(sigfile, ring);
	opts.signature = sig;
	opts.signature_sz = sig_size;
	fd = bpf_prog_load(BPF_PROG_TYPE_SYSCALL, "gloader", "GPL",
			   bpf_program__insns(skel->progs.gloader),
			   bpf_program__insn_cnt(skel->progs.gloader), &opts);
	use_sig(NULL, 0);
	ext_gloader__destroy(skel);
	return fd < 0 ? -errno : fd;
}

static void test_loader0(const char *sigfile, int ring, const char *gl_sig)
{
	struct ext_target *signed_t;
	struct ext_replace *ext;
	int err, fd;

	signed_t = load_target(sigfile, ring);
	gloader_fd = load_gloader(gl_sig, ring);
	CHECK("ext: loader0: the signed target and the generic loader load",
	      signed_t && gloader_fd >= 0, "target %p, loader %d", signed_t, gloader_fd);
	if (!signed_t || gloader_fd < 0)
		goto out;
	CHECK("ext: loader0: the generic loader's verdict covers 0 maps",
	      !strcmp(fdinfo_value(gloader_fd, "prog_sig_maps"), "0"), "prog_sig_maps '%s'",
	      fdinfo_value(gloader_fd, "prog_sig_maps"));
	fd = bpf_program__fd(signed_t->progs.target);
	err = load_ext(&ext, "new_pick", fd, "pick", NULL, 0);
	CHECK("ext: loader0: the unsigned extension it loads for the verified target: EPERM",
	      err == -ECANCELED && gloader_child == -EPERM, "load %d, child %d", err,
	      gloader_child);
	CHECK("ext: loader0: the verifier log says why", logged(VERIFIED_MSG), "log: %s",
	      log_buf);
	if (gloader_child >= 0)
		close(gloader_child);
	ext_replace__destroy(ext);
	CHECK("ext: loader0: the verified target still returns 2", run(fd) == 2, "got %d",
	      run(fd));
	close(gloader_fd);
out:
	gloader_fd = -1;
	ext_target__destroy(signed_t);
}

/* Remove the policy's pin and wait until it is no longer in force: the
 * link is released by a deferred work item, so the first loads after the
 * unlink may still meet it. At most 5 s.
 */
static void policy_off(const char *pin)
{
	struct bpf_insn ret0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int i, fd = -1;

	unlink(pin);
	for (i = 0; i < 500 && fd < 0; i++) {
		fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, NULL, "GPL", ret0, 2, NULL);
		if (fd < 0)
			usleep(10000);
	}
	if (fd < 0)
		fprintf(stderr, "ext_verified: the policy is still in force after 5 s\n");
	else
		close(fd);
}

static void test_policy(const char *sigfile, int ring, const char *ext_sig,
			const char *other_sig, int other_ring, const char *pin)
{
	struct ext_target *signed_t;
	struct ext_replace *ext;
	struct bpf_link *link;
	int err, fd;

	signed_t = load_target(sigfile, ring);
	CHECK("policy: ext: a target signed against the trusted keyring loads",
	      signed_t != NULL, "errno %d", errno);
	if (!signed_t)
		return;
	fd = bpf_program__fd(signed_t->progs.target);

	err = load_ext(&ext, "new_pick", fd, "pick", NULL, 0);
	policy_off(pin);
	CHECK("policy: ext: an unsigned extension of it is refused by the policy (EPERM, before the verifier)",
	      err == -EPERM && !log_buf[0], "got %d, log: %s", err, log_buf);
	ext_replace__destroy(ext);

	err = load_ext(&ext, "new_pick", fd, "pick", other_sig, other_ring);
	policy_off(pin);
	CHECK("policy: ext: an extension verified against an untrusted keyring is refused by the policy",
	      err == -EPERM && !log_buf[0], "got %d, log: %s", err, log_buf);
	ext_replace__destroy(ext);

	err = load_ext(&ext, "new_pick", fd, "pick", ext_sig, ring);
	policy_off(pin);
	link = err ? NULL : bpf_program__attach_trace(ext->progs.new_pick);
	CHECK("policy: ext: an extension verified against the trusted keyring replaces pick()",
	      link && run(fd) == 0x1337, "load %d, link %p, ret %d: %s", err, link,
	      run(fd), log_buf);
	bpf_link__destroy(link);
	ext_replace__destroy(ext);
	ext_target__destroy(signed_t);
}

int main(int argc, char **argv)
{
	LIBBPF_OPTS(libbpf_prog_handler_opts, handler, .prog_prepare_load_fn = prepare_load);
	struct ext_replace *ext;
	struct ext_target *t;

	if (libbpf_register_prog_handler("signed", BPF_PROG_TYPE_SYSCALL, 0, &handler) < 0 ||
	    libbpf_register_prog_handler("freplace+", BPF_PROG_TYPE_EXT, 0, &handler) < 0) {
		fprintf(stderr, "ext_verified: cannot register the section handlers\n");
		return 2;
	}
	if (argc == 5 && !strcmp(argv[1], "dump")) {
		struct ext_gloader *gl = ext_gloader__open();
		FILE *f = fopen(argv[4], "w");
		size_t n = gl ? bpf_program__insn_cnt(gl->progs.gloader) : 0;

		if (!f || !n || fwrite(bpf_program__insns(gl->progs.gloader),
				       sizeof(struct bpf_insn), n, f) != n || fclose(f))
			return 2;
		ext_gloader__destroy(gl);
		dump_path = argv[2];
		load_target(NULL, 0);
		dump_path = NULL;
		t = load_target(NULL, 0);
		if (!t)
			return 2;
		dump_path = argv[3];
		load_ext(&ext, "new_pick", bpf_program__fd(t->progs.target), "pick", NULL, 0);
		ext_target__destroy(t);
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "loader0")) {
		test_loader0(argv[2], atoi(argv[3]), argv[4]);
		return test_failures ? 1 : 0;
	}
	if (argc == 5 && !strcmp(argv[1], "vouched")) {
		test_vouched(atoi(argv[2]), argv[3], argv[4]);
		return test_failures ? 1 : 0;
	}
	if (argc == 8 && !strcmp(argv[1], "policy")) {
		char cmd[512], *dir = strdup(argv[0]);

		snprintf(cmd, sizeof(cmd), "%s/signed_only enforce %s session session",
			 dirname(dir), argv[7]);
		enforce_cmd = cmd;
		test_policy(argv[2], atoi(argv[3]), argv[4], argv[5], atoi(argv[6]), argv[7]);
		return test_failures ? 1 : 0;
	}
	if (argc != 8 || strcmp(argv[1], "run")) {
		fprintf(stderr, "usage: ext_verified dump TARGET EXT GLOADER | loader0 SIG RING GL_SIG | vouched RING EXT_SIG BUILTIN_SIG | run SIG RING EXT_SIG EXT_RING OTHER_SIG OTHER_RING | policy SIG RING EXT_SIG OTHER_SIG OTHER_RING PIN\n");
		return 2;
	}
	test_verified(argv[2], atoi(argv[3]), argv[4], atoi(argv[5]), argv[6],
		      atoi(argv[7]));
	test_exclusive();
	return test_failures ? 1 : 0;
}
