// SPDX-License-Identifier: GPL-2.0
/*
 * Drive BPF_PROG_LOAD's signature attributes directly, for the guest
 * tests. The shell side builds the signed bytes and signs them with
 * openssl, so nothing here decides whether a signature is right.
 *
 *   sig_load dump FILE            write the test program's instructions
 *   sig_load dump-nomap FILE      the same for the program without a map
 *   sig_load dump-prog NAME FILE  write the instructions of program NAME
 *                                 (see --prog) as load will pass them
 *   sig_load bound                load the program without a map, with one
 *                                 array map in fd_array and fd_array_cnt 1;
 *                                 print how many maps the program holds
 *   sig_load load [options]       load it, print "ok" or the errno name
 *   sig_load fdinfo PATH          print the fdinfo of the object pinned at
 *                                 PATH, as the kernel writes it
 *
 * load options:
 *   --meta FILE       metadata map: ARRAY, value = FILE, one entry,
 *                     passed as fd_array[0] with fd_array_cnt = 1
 *   --excl HEX        make the metadata map exclusive to this digest
 *   --entries N       N entries, each holding FILE (default 1)
 *   --nomap           load the program of dump-nomap even with --meta: the
 *                     map is only bound through fd_array_cnt (a program
 *                     reading the value directly needs max_entries 1)
 *   --insns FILE      load FILE's instructions as a sleepable
 *                     BPF_PROG_TYPE_SYSCALL program, as a light
 *                     skeleton's loader is loaded (with --meta: a loader
 *                     and its metadata taken from a generated header)
 *   --no-freeze       do not freeze the metadata map
 *   --map-type hash   create a HASH map instead of an ARRAY
 *   --ifindex N       create the metadata map offloaded to netdev N
 *   --fd-array-cnt N  override fd_array_cnt (0 keeps the map in fd_array,
 *                     referenced by the program but not counted)
 *   --extra-fd FD     fd_array[1] (default -1), for fd_array_cnt 2;
 *                     "same" repeats the metadata map's fd; "btf" puts
 *                     a BTF object there (one int type), and passes
 *                     fd_array even without --meta
 *   --maps N          N distinct metadata maps (up to 8), each as --meta
 *                     makes it, in fd_array[0..N) with fd_array_cnt N
 *   --prog NAME       load another program instead (a socket filter):
 *                     kfunc  calls kfunc 1 of the BTF at fd_array[1]
 *                     mapfd  loads a plain array map by fd (BPF_PSEUDO_MAP_FD,
 *                            the map at fd 100), the fd in the instructions
 *                     ksym   loads the address of vmlinux's schedule()
 *                            (BPF_PSEUDO_BTF_ID)
 *   --map-idx N       the program reaches fd_array[N] instead of [0]
 *                     (an index at or past fd_array_cnt)
 *   --sig FILE        signature; --sig-size N overrides its size;
 *   --sig-ptr bad     pass an unmapped signature pointer
 *   --keyring ID      keyring_id (default 0)
 *   --log             print the verifier log and log_true_size on failure
 *   --pin PATH        pin the loaded program at PATH
 *   --fdinfo          after a successful load, print the fdinfo of the
 *                     program (and of the metadata map, after a "--" line,
 *                     followed by "map_hash:\t<hex>", the map's hash)
 *   --lsm             with a BPF LSM program on bpf_prog_load declared as
 *                     upstream declares the hook (bool kernel last)
 *                     attached, print after the result the line
 *                     "lsm: seen N verdict V keyring_type T serial S kernel K"
 *                     of what it saw of this load
 *   --libbpf          load through libbpf's bpf_prog_load() and its
 *                     bpf_prog_load_opts (fd_array_cnt, signature,
 *                     signature_sz, keyring_id) instead of the syscall
 *   --old-opts        with --libbpf: opts.sz of a binary built before
 *                     fd_array_cnt (the fields after token_fd unread)
 *
 * Exit status: 0 loaded, 1 refused (errno printed), 2 usage or setup error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "testlib.h"
#include "sig_verdict_lsm.skel.h"

#ifndef offsetofend
#define offsetofend(type, member) (offsetof(type, member) + sizeof(((type *)0)->member))
#endif

/* The same program without any map */
static const struct bpf_insn prog_nomap[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
	{ .code = BPF_JMP | BPF_EXIT },
};

/* sig_load --lsm: what the LSM program saw, after the result */
static struct sig_verdict_lsm *atexit_lsm;

static void print_lsm(void)
{
	struct sig_verdict_lsm__bss *b = atexit_lsm->bss;

	printf("lsm: seen %u verdict %u keyring_type %u serial %d kernel %u\n", b->seen,
	       b->verdict, b->keyring_type, b->keyring_serial, b->from_kernel);
}

/* The fd the map of --prog mapfd is moved to, so that the signed
 * instructions can name it
 */
#define MAPFD_PROG_FD 100

/* The instructions of --prog NAME, in buf (8 slots); their number */
static unsigned int named_prog(const char *name, struct bpf_insn *buf)
{
	struct bpf_insn ld = { .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1 };
	struct bpf_insn mov = { .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 };
	struct bpf_insn exit_insn = { .code = BPF_JMP | BPF_EXIT };

	memset(buf, 0, 8 * sizeof(*buf));
	if (!strcmp(name, "kfunc")) {
		buf[0] = (struct bpf_insn){ .code = BPF_JMP | BPF_CALL,
					    .src_reg = BPF_PSEUDO_KFUNC_CALL, .off = 1, .imm = 1 };
		buf[1] = mov;
		buf[2] = exit_insn;
		return 3;
	}
	if (!strcmp(name, "mapfd")) {
		ld.src_reg = BPF_PSEUDO_MAP_FD;
		ld.imm = MAPFD_PROG_FD;
	} else if (!strcmp(name, "ksym")) {
		struct btf *vmlinux = btf__load_vmlinux_btf();
		int id = vmlinux ? btf__find_by_name_kind(vmlinux, "schedule",
							  BTF_KIND_FUNC) : -1;

		if (id <= 0) {
			fprintf(stderr, "sig_load: no BTF for schedule()\n");
			exit(2);
		}
		btf__free(vmlinux);
		ld.src_reg = BPF_PSEUDO_BTF_ID;
		ld.imm = id;
	} else {
		fprintf(stderr, "sig_load: unknown program %s\n", name);
		exit(2);
	}
	buf[0] = ld;
	buf[2] = mov;
	buf[3] = exit_insn;
	return 4;
}

/* A BTF object with one int type: an fd_array entry that is not a map */
static int create_btf(void)
{
	struct btf *btf = btf__new_empty();

	if (!btf || btf__add_int(btf, "int", 4, BTF_INT_SIGNED) < 0 ||
	    btf__load_into_kernel(btf)) {
		fprintf(stderr, "sig_load: cannot load a BTF object\n");
		exit(2);
	}
	return btf__fd(btf);
}

/* BPF_PROG_LOAD of attr through bpf_prog_load(): -errno or the fd */
static int load_libbpf(union bpf_attr *attr, bool old_opts)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		.prog_flags = attr->prog_flags,
		.fd_array = (const int *)(unsigned long)attr->fd_array,
		.fd_array_cnt = attr->fd_array_cnt,
		.signature = (const void *)(unsigned long)attr->signature,
		.signature_sz = attr->signature_size,
		.keyring_id = attr->keyring_id,
		.log_buf = (char *)(unsigned long)attr->log_buf,
		.log_size = attr->log_size,
		.log_level = attr->log_level,
	);
	int fd;

	if (old_opts)
		opts.sz = offsetofend(struct bpf_prog_load_opts, token_fd);
	fd = bpf_prog_load(attr->prog_type, "sig_load", "GPL",
			   (const struct bpf_insn *)(unsigned long)attr->insns,
			   attr->insn_cnt, &opts);
	attr->log_true_size = opts.log_true_size;
	return fd < 0 ? -errno : fd;
}

/* "map_hash:\t<hex>": BPF_OBJ_GET_INFO_BY_FD's hash of a frozen array */
static void print_map_hash(int fd)
{
	unsigned char hash[32];
	struct bpf_map_info info;
	union bpf_attr attr;
	size_t i;

	memset(&info, 0, sizeof(info));
	info.hash = (unsigned long)hash;
	info.hash_size = sizeof(hash);
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	attr.info.info = (unsigned long)&info;
	attr.info.info_len = sizeof(info);
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr)))
		return;
	printf("map_hash:\t");
	for (i = 0; i < sizeof(hash); i++)
		printf("%02x", hash[i]);
	printf("\n");
}

static int create_meta(const char *path, const char *excl_hex, int map_type, int freeze,
		       int ifindex, unsigned int entries)
{
	static unsigned char excl[32];
	union bpf_attr attr;
	size_t len;
	void *value = read_file(path, &len);
	unsigned int key;
	int fd, err = 0;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = map_type;
	attr.key_size = 4;
	attr.value_size = len;
	attr.max_entries = entries;
	attr.map_ifindex = ifindex;
	if (excl_hex) {
		if (parse_hex(excl_hex, excl, sizeof(excl))) {
			fprintf(stderr, "--excl needs 64 hex digits\n");
			exit(2);
		}
		attr.excl_prog_hash = (unsigned long)excl;
		attr.excl_prog_hash_size = sizeof(excl);
	}
	fd = sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
	if (fd < 0) {
		fprintf(stderr, "map create: %s\n", errno_name(-fd));
		exit(2);
	}
	for (key = 0; key < entries && !err; key++) {
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = fd;
		attr.key = (unsigned long)&key;
		attr.value = (unsigned long)value;
		err = sys_bpf(BPF_MAP_UPDATE_ELEM, &attr, sizeof(attr));
	}
	if (!err && freeze) {
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = fd;
		err = sys_bpf(BPF_MAP_FREEZE, &attr, sizeof(attr));
	}
	if (err) {
		fprintf(stderr, "map setup: %s\n", errno_name(-err));
		exit(2);
	}
	return fd;
}

int main(int argc, char **argv)
{
	const char *meta = NULL, *excl = NULL, *sig_path = NULL, *sig_ptr = NULL, *pin = NULL;
	const char *insns_path = NULL, *prog_name = NULL;
	long long sig_size = -1, fd_array_cnt = -1;
	int map_type = BPF_MAP_TYPE_ARRAY, freeze = 1, log = 0, fdinfo = 0;
	unsigned int entries = 1;
	int nomap = 0, libbpf = 0, old_opts = 0, lsm = 0;
	struct sig_verdict_lsm *lsm_skel = NULL;
	static char log_buf[65536];
	int keyring = 0, fd_array[8] = { -1, -1 }, ifindex = 0, i, fd, maps = 1;
	bool extra_same = false, extra_btf = false;
	struct bpf_insn idx_prog[8];
	int map_idx = 0;
	union bpf_attr attr;
	void *sig = NULL;
	size_t sig_len = 0;

	if (argc == 3 && (!strcmp(argv[1], "dump") || !strcmp(argv[1], "dump-nomap"))) {
		bool nomap = !strcmp(argv[1], "dump-nomap");
		FILE *f = fopen(argv[2], "w");

		unsigned int cnt;
		const struct bpf_insn *prog = metadata_prog(&cnt);

		if (!f || !fwrite(nomap ? (void *)prog_nomap : (void *)prog,
				  nomap ? sizeof(prog_nomap) : cnt * sizeof(*prog), 1, f) ||
		    fclose(f))
			return 2;
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "dump-prog")) {
		unsigned int cnt = named_prog(argv[2], idx_prog);
		FILE *f = fopen(argv[3], "w");

		if (!f || !fwrite(idx_prog, cnt * sizeof(idx_prog[0]), 1, f) || fclose(f))
			return 2;
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "bound")) {
		struct bpf_prog_info info;

		memset(&attr, 0, sizeof(attr));
		attr.map_type = BPF_MAP_TYPE_ARRAY;
		attr.key_size = 4;
		attr.value_size = 4;
		attr.max_entries = 1;
		fd_array[0] = sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
		memset(&attr, 0, sizeof(attr));
		attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
		attr.license = (unsigned long)"GPL";
		attr.insns = (unsigned long)prog_nomap;
		attr.insn_cnt = sizeof(prog_nomap) / sizeof(prog_nomap[0]);
		attr.fd_array = (unsigned long)fd_array;
		attr.fd_array_cnt = 1;
		fd = sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
		if (fd < 0) {
			printf("%s\n", errno_name(-fd));
			return 1;
		}
		memset(&info, 0, sizeof(info));
		memset(&attr, 0, sizeof(attr));
		attr.info.bpf_fd = fd;
		attr.info.info = (unsigned long)&info;
		attr.info.info_len = sizeof(info);
		if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr)))
			return 2;
		printf("%u\n", info.nr_map_ids);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "fdinfo")) {
		memset(&attr, 0, sizeof(attr));
		attr.pathname = (unsigned long)argv[2];
		fd = sys_bpf(BPF_OBJ_GET, &attr, sizeof(attr));
		if (fd < 0) {
			fprintf(stderr, "sig_load: %s: %s\n", argv[2], errno_name(-fd));
			return 2;
		}
		print_fdinfo(fd);
		return 0;
	}
	if (argc < 2 || strcmp(argv[1], "load"))
		goto usage;
	for (i = 2; i < argc; i++) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(opt, "--no-freeze")) {
			freeze = 0;
			continue;
		}
		if (!strcmp(opt, "--log")) {
			log = 1;
			continue;
		}
		if (!strcmp(opt, "--fdinfo")) {
			fdinfo = 1;
			continue;
		}
		if (!strcmp(opt, "--nomap")) {
			nomap = 1;
			continue;
		}
		if (!strcmp(opt, "--lsm")) {
			lsm = 1;
			continue;
		}
		if (!strcmp(opt, "--libbpf")) {
			libbpf = 1;
			continue;
		}
		if (!strcmp(opt, "--old-opts")) {
			old_opts = 1;
			continue;
		}
		if (!val)
			goto usage;
		i++;
		if (!strcmp(opt, "--meta"))
			meta = val;
		else if (!strcmp(opt, "--excl"))
			excl = val;
		else if (!strcmp(opt, "--entries"))
			entries = strtoul(val, NULL, 0);
		else if (!strcmp(opt, "--insns"))
			insns_path = val;
		else if (!strcmp(opt, "--map-type") && !strcmp(val, "hash"))
			map_type = BPF_MAP_TYPE_HASH;
		else if (!strcmp(opt, "--ifindex"))
			ifindex = strtol(val, NULL, 0);
		else if (!strcmp(opt, "--fd-array-cnt"))
			fd_array_cnt = strtoll(val, NULL, 0);
		else if (!strcmp(opt, "--map-idx"))
			map_idx = strtol(val, NULL, 0);
		else if (!strcmp(opt, "--pin"))
			pin = val;
		else if (!strcmp(opt, "--extra-fd") && !strcmp(val, "same"))
			extra_same = true;
		else if (!strcmp(opt, "--extra-fd") && !strcmp(val, "btf"))
			extra_btf = true;
		else if (!strcmp(opt, "--maps"))
			maps = strtol(val, NULL, 0);
		else if (!strcmp(opt, "--prog"))
			prog_name = val;
		else if (!strcmp(opt, "--extra-fd"))
			fd_array[1] = strtol(val, NULL, 0);
		else if (!strcmp(opt, "--sig"))
			sig_path = val;
		else if (!strcmp(opt, "--sig-size"))
			sig_size = strtoll(val, NULL, 0);
		else if (!strcmp(opt, "--sig-ptr"))
			sig_ptr = val;
		else if (!strcmp(opt, "--keyring"))
			keyring = strtol(val, NULL, 0);
		else
			goto usage;
	}

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.license = (unsigned long)"GPL";
	if (meta) {
		fd_array[0] = create_meta(meta, excl, map_type, freeze, ifindex, entries);
		if (extra_same)
			fd_array[1] = fd_array[0];
		attr.insns = (unsigned long)metadata_prog(&attr.insn_cnt);
		if (map_idx) {
			memcpy(idx_prog, (void *)(unsigned long)attr.insns,
			       attr.insn_cnt * sizeof(idx_prog[0]));
			idx_prog[0].imm = map_idx;
			attr.insns = (unsigned long)idx_prog;
		}
		attr.fd_array = (unsigned long)fd_array;
		attr.fd_array_cnt = 1;
		if (maps > 1 && maps <= 8) {
			for (i = 1; i < maps; i++)
				fd_array[i] = create_meta(meta, excl, map_type, freeze, ifindex,
							  entries);
			attr.fd_array_cnt = maps;
		}
	} else {
		attr.insns = (unsigned long)prog_nomap;
		attr.insn_cnt = sizeof(prog_nomap) / sizeof(prog_nomap[0]);
	}
	if (nomap) {
		attr.insns = (unsigned long)prog_nomap;
		attr.insn_cnt = sizeof(prog_nomap) / sizeof(prog_nomap[0]);
	}
	if (extra_btf) {
		fd_array[1] = create_btf();
		attr.fd_array = (unsigned long)fd_array;
	}
	if (prog_name) {
		attr.insn_cnt = named_prog(prog_name, idx_prog);
		attr.insns = (unsigned long)idx_prog;
		if (!strcmp(prog_name, "mapfd")) {
			static const char one[8];
			FILE *f = fopen("/tmp/sig_load.value", "w");

			if (!f || !fwrite(one, sizeof(one), 1, f) || fclose(f))
				return 2;
			fd = create_meta("/tmp/sig_load.value", NULL, BPF_MAP_TYPE_ARRAY, 0, 0, 1);
			if (dup2(fd, MAPFD_PROG_FD) != MAPFD_PROG_FD)
				return 2;
		}
	}
	if (insns_path) {
		size_t insns_len;

		attr.insns = (unsigned long)read_file(insns_path, &insns_len);
		attr.insn_cnt = insns_len / sizeof(struct bpf_insn);
		attr.prog_type = BPF_PROG_TYPE_SYSCALL;
		attr.prog_flags = BPF_F_SLEEPABLE;
	}
	if (fd_array_cnt >= 0)
		attr.fd_array_cnt = fd_array_cnt;
	if (sig_path) {
		sig = read_file(sig_path, &sig_len);
		attr.signature = (unsigned long)sig;
		attr.signature_size = sig_len;
	}
	if (sig_ptr && !strcmp(sig_ptr, "bad")) {
		void *page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		munmap(page, 4096);
		attr.signature = (unsigned long)page;
		if (!attr.signature_size)
			attr.signature_size = 256;
	}
	if (sig_size >= 0)
		attr.signature_size = sig_size;
	attr.keyring_id = keyring;
	attr.log_buf = (unsigned long)log_buf;
	attr.log_size = sizeof(log_buf);
	attr.log_level = 1;

	if (lsm) {
		lsm_skel = sig_verdict_lsm__open_and_load();
		if (!lsm_skel || sig_verdict_lsm__attach(lsm_skel)) {
			fprintf(stderr, "sig_load: cannot attach the LSM program\n");
			return 2;
		}
		lsm_skel->bss->monitored_tid = syscall(SYS_gettid);
	}
	if (libbpf)
		fd = load_libbpf(&attr, old_opts);
	else
		fd = sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
	if (lsm_skel) {
		lsm_skel->bss->monitored_tid = 0;
		atexit_lsm = lsm_skel;
		atexit(print_lsm);
	}
	if (fd >= 0) {
		if (pin) {
			memset(&attr, 0, sizeof(attr));
			attr.pathname = (unsigned long)pin;
			attr.bpf_fd = fd;
			if (sys_bpf(BPF_OBJ_PIN, &attr, sizeof(attr))) {
				perror(pin);
				return 2;
			}
		}
		printf("ok\n");
		if (fdinfo) {
			print_fdinfo(fd);
			if (meta) {
				printf("--\n");
				print_fdinfo(fd_array[0]);
				print_map_hash(fd_array[0]);
			}
		}
		return 0;
	}
	printf("%s\n", errno_name(-fd));
	if (log)
		fprintf(stderr, "%slog_true_size %u\n", log_buf, attr.log_true_size);
	return 1;
usage:
	fprintf(stderr, "usage: sig_load dump FILE | sig_load load [options] (see source)\n");
	return 2;
}
