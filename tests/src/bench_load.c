// SPDX-License-Identifier: GPL-2.0
/*
 * Load latency benchmarks, in the guest. Prints "NAME median_us p95_us n".
 *
 *   bench_load lskel N KEYRING_ID        N loads of the fentry_count light
 *                                        skeleton (__load() + destroy)
 *   bench_load raw META SIG KEYRING_ID N N loads of the metadata test program
 *                                        with META in an exclusive frozen map,
 *                                        signed with SIG ("-": unsigned)
 *   bench_load big NINSNS N NAME         N loads of an unsigned straight-line
 *                                        program of NINSNS instructions (the
 *                                        cost of hashing every program)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/keyctl.h>

#include "testlib.h"
#include "fentry_count.lskel.h"

#ifdef UNSIGNED_SKEL
#define set_keyring(skel, id) ((void)(id))
#else
#define set_keyring(skel, id) ((skel)->keyring_id = (id))
#endif

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void report(const char *name, double *t, int n)
{
	qsort(t, n, sizeof(*t), cmp);
	printf("%s %.0f %.0f %d\n", name, t[n / 2], t[(n * 95) / 100], n);
}

static int keyring_arg(const char *s)
{
	return strcmp(s, "session") ? atoi(s) : KEY_SPEC_SESSION_KEYRING;
}

static int bench_raw(const char *meta_path, const char *sig_path, int keyring, int n,
		     double *t)
{
	size_t meta_len, sig_len = 0;
	void *meta = read_file(meta_path, &meta_len), *sig = NULL;
	unsigned char excl[32];
	const char *hex = getenv("EXCL");
	union bpf_attr attr;
	int i, map, fd, key = 0;

	if (strcmp(sig_path, "-"))
		sig = read_file(sig_path, &sig_len);
	if (!hex || parse_hex(hex, excl, sizeof(excl)))
		return 2;
	for (i = 0; i < n; i++) {
		int fd_array[1];

		memset(&attr, 0, sizeof(attr));
		attr.map_type = BPF_MAP_TYPE_ARRAY;
		attr.key_size = 4;
		attr.value_size = meta_len;
		attr.max_entries = 1;
		attr.excl_prog_hash = (unsigned long)excl;
		attr.excl_prog_hash_size = 32;
		map = sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = map;
		attr.key = (unsigned long)&key;
		attr.value = (unsigned long)meta;
		sys_bpf(BPF_MAP_UPDATE_ELEM, &attr, sizeof(attr));
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = map;
		sys_bpf(BPF_MAP_FREEZE, &attr, sizeof(attr));

		fd_array[0] = map;
		memset(&attr, 0, sizeof(attr));
		attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
		attr.insns = (unsigned long)metadata_prog(&attr.insn_cnt);
		attr.license = (unsigned long)"GPL";
		attr.fd_array = (unsigned long)fd_array;
		attr.fd_array_cnt = 1;
		attr.signature = (unsigned long)sig;
		attr.signature_size = sig_len;
		attr.keyring_id = keyring;
		t[i] = now_us();
		fd = sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
		t[i] = now_us() - t[i];
		if (fd < 0) {
			fprintf(stderr, "load: %s\n", strerror(-fd));
			return 1;
		}
		close(fd);
		close(map);
	}
	return 0;
}

/* r0 = 0; r0 += 1 (ninsns - 2 times); exit */
static int bench_big(int ninsns, int n, double *t)
{
	struct bpf_insn *insns = calloc(ninsns, sizeof(*insns));
	union bpf_attr attr;
	int i, fd;

	if (!insns || ninsns < 2)
		return 2;
	insns[0].code = BPF_ALU64 | BPF_MOV | BPF_K;
	for (i = 1; i < ninsns - 1; i++) {
		insns[i].code = BPF_ALU64 | BPF_ADD | BPF_K;
		insns[i].imm = 1;
	}
	insns[ninsns - 1].code = BPF_JMP | BPF_EXIT;
	for (i = 0; i < n; i++) {
		memset(&attr, 0, sizeof(attr));
		attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
		attr.insns = (unsigned long)insns;
		attr.insn_cnt = ninsns;
		attr.license = (unsigned long)"GPL";
		t[i] = now_us();
		fd = sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
		t[i] = now_us() - t[i];
		if (fd < 0) {
			fprintf(stderr, "load: %s\n", strerror(-fd));
			return 1;
		}
		close(fd);
	}
	free(insns);
	return 0;
}

int main(int argc, char **argv)
{
	static double t[100000];
	int n, i, err;

	if (argc == 4 && !strcmp(argv[1], "lskel")) {
		n = atoi(argv[2]);
		for (i = 0; i < n; i++) {
			struct fentry_count *skel = fentry_count__open();

			set_keyring(skel, keyring_arg(argv[3]));
			t[i] = now_us();
			err = fentry_count__load(skel);
			t[i] = now_us() - t[i];
			fentry_count__destroy(skel);
			if (err) {
				fprintf(stderr, "load: %s\n", strerror(-err));
				return 1;
			}
		}
#ifdef UNSIGNED_SKEL
		report("lskel-unsigned", t, n);
#else
		report("lskel-signed", t, n);
#endif
		return 0;
	}
	if (argc == 6 && !strcmp(argv[1], "raw")) {
		n = atoi(argv[5]);
		err = bench_raw(argv[2], argv[3], keyring_arg(argv[4]), n, t);
		if (!err)
			report(strcmp(argv[3], "-") ? "raw-signed" : "raw-unsigned", t, n);
		return err;
	}
	if (argc == 5 && !strcmp(argv[1], "big")) {
		n = atoi(argv[3]);
		err = bench_big(atoi(argv[2]), n, t);
		if (!err)
			report(argv[4], t, n);
		return err;
	}
	fprintf(stderr, "usage: bench_load lskel N KEYRING | raw META SIG KEYRING N | big NINSNS N NAME\n");
	return 2;
}
