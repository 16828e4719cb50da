// SPDX-License-Identifier: GPL-2.0
/*
 * Drive BPF_PROG_LOAD's signature attributes directly, for the guest
 * tests. The shell side builds the signed bytes and signs them with
 * openssl, so nothing here decides whether a signature is right.
 *
 *   sig_load dump FILE            write the test program's instructions
 *   sig_load dump-nomap FILE      the same for the program without a map
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
 *                     "same" repeats the metadata map's fd
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

#include "testlib.h"

#ifndef offsetofend
#define offsetofend(type, member) (offsetof(type, member) + sizeof(((type *)0)->member))
#endif

/* The same program without any map */
static const struct bpf_insn prog_nomap[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
	{ .code = BPF_JMP | BPF_EXIT },
};

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
	const char *insns_path = NULL;
	long long sig_size = -1, fd_array_cnt = -1;
	int map_type = BPF_MAP_TYPE_ARRAY, freeze = 1, log = 0, fdinfo = 0;
	unsigned int entries = 1;
	int nomap = 0, libbpf = 0, old_opts = 0;
	static char log_buf[65536];
	int keyring = 0, fd_array[2] = { -1, -1 }, ifindex = 0, i, fd;
	bool extra_same = false;
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
	} else {
		attr.insns = (unsigned long)prog_nomap;
		attr.insn_cnt = sizeof(prog_nomap) / sizeof(prog_nomap[0]);
	}
	if (nomap) {
		attr.insns = (unsigned long)prog_nomap;
		attr.insn_cnt = sizeof(prog_nomap) / sizeof(prog_nomap[0]);
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

	if (libbpf)
		fd = load_libbpf(&attr, old_opts);
	else
		fd = sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
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
