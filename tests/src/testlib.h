/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal test reporting for the C test tools: every check prints one
 * "PASS: name" or "FAIL: name: why" line, which tests/run counts.
 */
#ifndef TESTLIB_H
#define TESTLIB_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

static int test_failures __attribute__((unused));

/* $CHECK_PREFIX, if set, goes before every name: the same checks run
 * twice (other key, other skeleton) keep distinct names.
 */
static inline const char *check_prefix(void)
{
	const char *p = getenv("CHECK_PREFIX");

	return p ? p : "";
}

#define CHECK(name, cond, fmt, ...)					\
	do {								\
		if (cond) {						\
			printf("PASS: %s%s\n", check_prefix(), name);	\
		} else {						\
			printf("FAIL: %s%s: " fmt "\n", check_prefix(), name, \
			       ##__VA_ARGS__);				\
			test_failures++;				\
		}							\
		fflush(stdout);						\
	} while (0)

/* bpf(2) returning -errno, so that checks can compare errors directly */
static inline int sys_bpf(int cmd, union bpf_attr *attr, unsigned int size)
{
	int ret = syscall(__NR_bpf, cmd, attr, size);

	return ret < 0 ? -errno : ret;
}

/* 64 hex digits (or 2 * len) into bytes; -1 if HEX is not that */
static inline int parse_hex(const char *hex, unsigned char *out, size_t len)
{
	size_t i;

	if (strlen(hex) != 2 * len)
		return -1;
	for (i = 0; i < len; i++)
		if (sscanf(hex + 2 * i, "%2hhx", &out[i]) != 1)
			return -1;
	return 0;
}

/* The program of the signature tests: it reaches the metadata map as
 * fd_array[0] (r1 = &map value; r0 = 0; exit), like a light skeleton's
 * loader reaches its metadata.
 */
static inline const struct bpf_insn *metadata_prog(unsigned int *cnt)
{
	static const struct bpf_insn insns[] = {
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_PSEUDO_MAP_IDX_VALUE, .imm = 0 },
		{ .imm = 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	*cnt = sizeof(insns) / sizeof(insns[0]);
	return insns;
}

/* The name of a positive errno the tests meet, for their output */
static inline const char *errno_name(int err)
{
	static char buf[32];

	switch (err) {
	case EINVAL: return "EINVAL";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case EFAULT: return "EFAULT";
	case E2BIG: return "E2BIG";
	case EBADF: return "EBADF";
	case EBADMSG: return "EBADMSG";
	case ENOKEY: return "ENOKEY";
	case EKEYREJECTED: return "EKEYREJECTED";
	case ENOMEM: return "ENOMEM";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENOPKG: return "ENOPKG";
	case ENOTDIR: return "ENOTDIR";
	default:
		snprintf(buf, sizeof(buf), "errno %d", err);
		return buf;
	}
}

/* The whole of PATH in a malloc()ed buffer (one byte more, so that an
 * empty file gives a buffer too), its size in *len; exit 2 after an
 * error message if it cannot be read.
 */
static inline void *read_file(const char *path, size_t *len)
{
	struct stat st;
	void *buf = NULL;
	int fd = open(path, O_RDONLY);

	if (fd >= 0 && !fstat(fd, &st))
		buf = malloc(st.st_size + 1);
	if (!buf || read(fd, buf, st.st_size) != st.st_size) {
		perror(path);
		exit(2);
	}
	close(fd);
	*len = st.st_size;
	return buf;
}

/* The value of FD's fdinfo line "KEY:\t<value>" into OUT: 0, -ENOENT if
 * there is no such line, or -errno
 */
static inline int fdinfo_field(int fd, const char *key, char *out, size_t size)
{
	char path[64], line[256];
	size_t len = strlen(key);
	int err = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, len) || strncmp(line + len, ":\t", 2))
			continue;
		line[strcspn(line, "\n")] = 0;
		snprintf(out, size, "%s", line + len + 2);
		err = 0;
		break;
	}
	fclose(f);
	return err;
}

/* The same as a string, "" if there is none (valid until the next call) */
static inline const char *fdinfo_value(int fd, const char *key)
{
	static char value[256];

	if (fdinfo_field(fd, key, value, sizeof(value)))
		value[0] = 0;
	return value;
}

/* Attach a map element iterator program to MAP_FD; if that works, run it
 * once (its writes land). 0, or -errno of the attach or of the iterator.
 */
static inline int run_map_iter(int prog_fd, int map_fd)
{
	union bpf_iter_link_info linfo = { .map.map_fd = map_fd };
	LIBBPF_OPTS(bpf_link_create_opts, opts, .iter_info = &linfo,
		    .iter_info_len = sizeof(linfo));
	int link, iter;
	char buf[64];

	link = bpf_link_create(prog_fd, 0, BPF_TRACE_ITER, &opts);
	if (link < 0)
		return link;
	iter = bpf_iter_create(link);
	if (iter >= 0) {
		while (read(iter, buf, sizeof(buf)) > 0)
			;
		close(iter);
	}
	close(link);
	return iter < 0 ? iter : 0;
}

/* fd's fdinfo, as the kernel writes it, on stdout */
static inline void print_fdinfo(int fd)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		fputs(line, stdout);
	fclose(f);
}

/* PATH mapped read-only, its page cache dropped (best effort), for
 * progs/freeze_sleeper.bpf.c to sleep on: NULL after an error message.
 * *npages is its number of whole pages.
 */
static inline void *uncached_pages(const char *path, unsigned long long *npages)
{
	struct stat st;
	void *pages;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		perror(path);
		return NULL;
	}
	pages = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (pages == MAP_FAILED) {
		perror("mmap");
		return NULL;
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	*npages = st.st_size / 4096;
	return pages;
}

#endif
