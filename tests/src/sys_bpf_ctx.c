// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_sys_bpf() in every context a syscall program's code can run in,
 * checked in the guest with the programs of tests/progs/sys_bpf_ctx.bpf.c:
 *
 *  - in the main body, a static subprogram, a global function and a
 *    bpf_loop() callback it works (BPF_MAP_CREATE gives an fd,
 *    bpf_sys_close() closes it);
 *  - in a bpf_wq callback and a bpf_timer callback the program loads, as
 *    upstream's does, and the call fails at run time with EPERM;
 *  - an extension program is refused by the verifier, as upstream's: it
 *    is not sleepable (the load is EINVAL, the log gives that reason and
 *    only that one, in one line);
 *  - a program loaded through bpf_sys_bpf() names the syscall program that
 *    loaded it in its fdinfo (prog_loader_digest);
 *  - no tail call reaches bpf_sys_bpf(): it needs a sleepable program,
 *    sleepable programs cannot use a prog array, and a sleepable program
 *    cannot be put into one (EINVAL). The caller tried here is an
 *    extension program that replaces a global function of a syscall
 *    program, which a bpf_timer callback could call in softirq.
 *
 *   sys_bpf_ctx     run every check (exit 1 if one failed)
 *
 *   sys_bpf_ctx signed SIG KEYRING [PIN]
 *                   run signed_loader, which loads its two instructions
 *                   through bpf_sys_bpf() with the signature in file SIG
 *                   (passed in its context, so a kernel address) and
 *                   keyring_id KEYRING; print "ok", the loaded program's
 *                   fdinfo and "loader_digest:\t" the loader's
 *                   prog_digest, and pin the program at PIN if given; or
 *                   print the errno name of the refusal. SIG "bad-ptr"
 *                   passes the signature pointer 8 instead (signature_size
 *                   256). Exit 0 loaded, 1 refused, 2 setup error.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "testlib.h"
#include "sys_bpf_ctx.skel.h"

/* What the verifier says, one line each */
#define MSG_SLEEPABLE	"Sleepable programs can only use array, hash, ringbuf and local storage maps"
/* not expected: bpf_sys_bpf() might sleep, and only syscall programs and
 * their callbacks run sleepable here
 */
#define MSG_MIGHT_SLEEP	"helper call might sleep in a non-sleepable prog"

static const char *const reasons[] = {
	MSG_SLEEPABLE, MSG_MIGHT_SLEEP
};

/* A value no bpf_sys_bpf() returns: the program did not write there */
#define UNSET		0x7eadbeef

/* The programs' context (struct result of the BPF side) */
struct result {
	int fd;
	int closed;
};

static char log_buf[1 << 20];

/* How many lines of LOG are exactly LINE */
static int count_line(const char *log, const char *line)
{
	size_t len = strlen(line);
	const char *p = log, *end;
	int n = 0;

	while (*p) {
		end = strchr(p, '\n');
		if (!end)
			end = p + strlen(p);
		if ((size_t)(end - p) == len && !strncmp(p, line, len))
			n++;
		p = *end ? end + 1 : end;
	}
	return n;
}

/* The last N lines of LOG, for a failure message */
static const char *last_lines(const char *log, int n)
{
	const char *p = log + strlen(log);

	if (p > log && p[-1] == '\n')
		p--;
	while (p > log) {
		if (p[-1] == '\n' && --n == 0)
			break;
		p--;
	}
	return p;
}

static int quiet(enum libbpf_print_level level, const char *fmt, va_list args)
{
	return 0;
}

/* BPF_PROG_TEST_RUN with RES as the context (written back) */
static int run(int prog_fd, struct result *res, int *retval)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts, .ctx_in = res, .ctx_size_in = sizeof(*res));
	int err;

	err = bpf_prog_test_run_opts(prog_fd, &topts);
	*retval = topts.retval;
	return err;
}

/* Open the object again with only program NAME to load (with its
 * verifier log in log_buf), an extension of TARGET_FD's replaced() if
 * TARGET_FD >= 0
 */
static struct sys_bpf_ctx *open_one(const char *name, int target_fd,
				    struct bpf_program **progp)
{
	struct bpf_program *prog, *p;
	struct sys_bpf_ctx *skel;

	skel = sys_bpf_ctx__open();
	if (!skel)
		return NULL;
	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, false);
	prog = bpf_object__find_program_by_name(skel->obj, name);
	if (!prog) {
		sys_bpf_ctx__destroy(skel);
		errno = ENOENT;
		return NULL;
	}
	bpf_program__set_autoload(prog, true);
	log_buf[0] = 0;
	bpf_program__set_log_buf(prog, log_buf, sizeof(log_buf));
	bpf_program__set_log_level(prog, 1);
	if (target_fd >= 0 && bpf_program__set_attach_target(prog, target_fd, "replaced")) {
		sys_bpf_ctx__destroy(skel);
		return NULL;
	}
	*progp = prog;
	return skel;
}

/* Allowed: the program creates a map and closes it again */
static void test_allowed(struct bpf_program *prog, const char *where, int want_retval)
{
	struct result res = { .fd = UNSET, .closed = UNSET };
	int err, retval, closed;
	char name[160];

	err = run(bpf_program__fd(prog), &res, &retval);
	/* the fd is gone from this process once bpf_sys_close() closed it */
	closed = res.fd >= 0 && fcntl(res.fd, F_GETFD) < 0 && errno == EBADF;
	snprintf(name, sizeof(name),
		 "sys_bpf ctx: %s: BPF_MAP_CREATE gives an fd, bpf_sys_close() closes it", where);
	CHECK(name, !err && retval == want_retval && res.fd >= 0 && res.closed == 0 && closed,
	      "run %d retval %d fd %d bpf_sys_close %d closed %d", err, retval, res.fd,
	      res.closed, closed);
}

struct refused {
	const char *prog;	/* program name */
	const char *where;	/* in the check names */
	const char *msg;	/* the verifier's reason */
	bool ext;		/* an extension of freplace_target's replaced() */
};

static const struct refused refused[] = {
	{ "ext_sys_bpf", "extension program", MSG_MIGHT_SLEEP, .ext = true },
	{ "tail_caller", "syscall program with a prog array", MSG_SLEEPABLE },
};

static void test_refused(const struct refused *c, int target_fd)
{
	libbpf_print_fn_t old_print;
	struct bpf_program *prog;
	struct sys_bpf_ctx *skel;
	int err, i, n = 0;
	char name[160];

	skel = open_one(c->prog, c->ext ? target_fd : -1, &prog);
	if (!skel) {
		snprintf(name, sizeof(name), "sys_bpf ctx: %s: object opened", c->where);
		CHECK(name, 0, "errno %d", errno);
		return;
	}
	old_print = libbpf_set_print(quiet);
	err = sys_bpf_ctx__load(skel);
	libbpf_set_print(old_print);
	snprintf(name, sizeof(name), "sys_bpf ctx: %s: the load is EINVAL", c->where);
	CHECK(name, err == -EINVAL, "got %d", err);

	for (i = 0; i < (int)(sizeof(reasons) / sizeof(reasons[0])); i++)
		n += count_line(log_buf, reasons[i]);
	snprintf(name, sizeof(name), "sys_bpf ctx: %s: the verifier's one reason is \"%s\"",
		 c->where, c->msg);
	CHECK(name, count_line(log_buf, c->msg) == 1 && n == 1,
	      "%d such lines; the log ends:\n%s", n, last_lines(log_buf, 4));

	sys_bpf_ctx__destroy(skel);
}

/* An async callback's bpf_sys_bpf(): the program loads and arms it, and the
 * call fails with -EPERM when the callback runs (a kworker, softirq)
 */
static void test_async(struct sys_bpf_ctx *skel, struct bpf_program *prog, const char *where)
{
	struct result res = { .fd = UNSET, .closed = UNSET };
	int err, retval, i;
	char name[160];

	skel->data->async_fd = UNSET;
	err = run(bpf_program__fd(prog), &res, &retval);
	snprintf(name, sizeof(name), "sys_bpf ctx: %s: the program arms it", where);
	CHECK(name, !err && retval == 0, "run %d retval %d", err, retval);
	for (i = 0; i < 100 && skel->data->async_fd == UNSET; i++)
		usleep(10000);
	snprintf(name, sizeof(name), "sys_bpf ctx: %s: bpf_sys_bpf() there is EPERM", where);
	CHECK(name, skel->data->async_fd == -EPERM, "got %d", skel->data->async_fd);
}

/* The loader names itself in what it loads; it cannot be reached by a
 * tail call from an extension of freplace_target
 */
static void test_loader(struct sys_bpf_ctx *skel)
{
	int loader = bpf_program__fd(skel->progs.loader);
	int target = bpf_program__fd(skel->progs.freplace_target);
	char loader_digest[128], target_digest[128], got[128] = "";
	struct result res = { .fd = UNSET, .closed = UNSET };
	struct bpf_program *prog = NULL;
	struct sys_bpf_ctx *ext;
	struct bpf_link *link;
	int err, retval, key = 0;

	err = fdinfo_field(loader, "prog_digest", loader_digest, sizeof(loader_digest));
	err = err ?: fdinfo_field(target, "prog_digest", target_digest, sizeof(target_digest));
	CHECK("sys_bpf ctx: digests of the loader and the freplace target from fdinfo",
	      !err && strlen(loader_digest) == 64 && strlen(target_digest) == 64 &&
	      strcmp(loader_digest, target_digest), "err %d: '%s' '%s'", err,
	      loader_digest, target_digest);
	if (err)
		return;

	err = run(loader, &res, &retval);
	CHECK("sys_bpf ctx: loader: BPF_PROG_LOAD through bpf_sys_bpf() gives an fd",
	      !err && res.fd >= 0, "run %d fd %d", err, res.fd);
	if (!err && res.fd >= 0) {
		err = fdinfo_field(res.fd, "prog_loader_digest", got, sizeof(got));
		CHECK("sys_bpf ctx: loader: the program it loaded has the loader's prog_loader_digest",
		      !err && !strcmp(got, loader_digest), "err %d: '%s', loader %s", err, got,
		      loader_digest);
		close(res.fd);
	}

	/* The control: replaced() as it is loads nothing */
	res.fd = UNSET;
	err = run(target, &res, &retval);
	CHECK("sys_bpf ctx: tail call: freplace_target without its extension loads nothing",
	      !err && res.fd == UNSET && skel->bss->target_calls == 1,
	      "run %d fd %d calls %d", err, res.fd, skel->bss->target_calls);

	ext = open_one("ext_tail_call", target, &prog);
	err = ext ? sys_bpf_ctx__load(ext) : -errno;
	CHECK("sys_bpf ctx: tail call: an extension of replaced() with a prog array loads",
	      err == 0, "err %d; the log ends:\n%s", err, last_lines(log_buf, 4));
	if (err)
		goto out;
	err = bpf_map_update_elem(bpf_map__fd(ext->maps.jmp_table), &key, &loader, 0) ?
	      -errno : 0;
	CHECK("sys_bpf ctx: tail call: the sleepable loader cannot go into the prog array (EINVAL)",
	      err == -EINVAL, "err %d", err);
	link = bpf_program__attach_freplace(prog, target, "replaced");
	err = link ? 0 : -errno;
	CHECK("sys_bpf ctx: tail call: the extension is attached in place of replaced()",
	      err == 0, "err %d", err);
	if (err)
		goto out;

	/* The tail call finds an empty slot: replaced() loads nothing */
	res.fd = UNSET;
	err = run(target, &res, &retval);
	CHECK("sys_bpf ctx: tail call: through the extension, nothing is loaded",
	      !err && res.fd == UNSET, "run %d fd %d", err, res.fd);
	bpf_link__destroy(link);
out:
	sys_bpf_ctx__destroy(ext);
}

/* The context of signed_loader (struct signed_load of the BPF side) */
struct signed_load {
	int fd;
	__u32 sig_size;
	__s32 keyring_id;
	__u32 bad_ptr;
	__u8 sig[8192];
};

static int signed_load(const char *sig_path, int keyring, const char *pin)
{
	static struct signed_load ctx;
	LIBBPF_OPTS(bpf_test_run_opts, topts, .ctx_in = &ctx, .ctx_size_in = sizeof(ctx));
	char loader_digest[128];
	struct bpf_program *prog;
	struct sys_bpf_ctx *skel;
	int err, loader;

	if (!strcmp(sig_path, "bad-ptr")) {
		ctx.bad_ptr = 1;
		ctx.sig_size = 256;
	} else {
		FILE *f = fopen(sig_path, "r");

		if (!f) {
			perror(sig_path);
			return 2;
		}
		ctx.sig_size = fread(ctx.sig, 1, sizeof(ctx.sig), f);
		if (!ctx.sig_size || !feof(f)) {
			fprintf(stderr, "%s: empty or over %zu bytes\n", sig_path, sizeof(ctx.sig));
			return 2;
		}
		fclose(f);
	}
	ctx.keyring_id = keyring;
	ctx.fd = UNSET;

	skel = open_one("signed_loader", -1, &prog);
	err = skel ? sys_bpf_ctx__load(skel) : -errno;
	if (err) {
		fprintf(stderr, "signed_loader: load: %d\n%s", err, last_lines(log_buf, 4));
		return 2;
	}
	loader = bpf_program__fd(prog);
	if (fdinfo_field(loader, "prog_digest", loader_digest, sizeof(loader_digest))) {
		fprintf(stderr, "signed_loader: no prog_digest in its fdinfo\n");
		return 2;
	}
	err = bpf_prog_test_run_opts(loader, &topts);
	if (err || topts.retval || ctx.fd == UNSET) {
		fprintf(stderr, "signed_loader: run %d retval %u fd %d\n", err, topts.retval,
			ctx.fd);
		return 2;
	}
	if (ctx.fd < 0) {
		printf("%s\n", errno_name(-ctx.fd));
		return 1;
	}
	if (pin && bpf_obj_pin(ctx.fd, pin)) {
		perror(pin);
		return 2;
	}
	printf("ok\n");
	print_fdinfo(ctx.fd);
	printf("loader_digest:\t%s\n", loader_digest);
	sys_bpf_ctx__destroy(skel);
	return 0;
}

int main(int argc, char **argv)
{
	struct sys_bpf_ctx *skel;
	size_t i;
	int err;

	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "signed"))
		return signed_load(argv[2], atoi(argv[3]), argc == 5 ? argv[4] : NULL);
	if (argc != 1) {
		fprintf(stderr, "usage: %s | %s signed SIG KEYRING [PIN]\n", argv[0], argv[0]);
		return 2;
	}
	skel = sys_bpf_ctx__open_and_load();
	err = skel ? 0 : -errno;
	CHECK("sys_bpf ctx: the allowed programs load", err == 0, "err %d", err);
	if (err)
		return 1;
	test_allowed(skel->progs.in_main, "main body", 0);
	test_allowed(skel->progs.in_static, "static subprogram", 0);
	test_allowed(skel->progs.in_loop, "bpf_loop() callback", 1);
	test_allowed(skel->progs.in_global, "global function", 0);
	test_async(skel, skel->progs.in_timer, "bpf_timer callback");
	test_async(skel, skel->progs.in_wq, "bpf_wq callback");
	test_loader(skel);
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		test_refused(&refused[i], bpf_program__fd(skel->progs.freplace_target));
	sys_bpf_ctx__destroy(skel);
	return test_failures ? 1 : 0;
}
