/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal test reporting for the C test tools: every check prints one
 * "PASS: name" or "FAIL: name: why" line, which tests/run counts.
 */
#ifndef TESTLIB_H
#define TESTLIB_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/bpf.h>

static int test_failures;

#define CHECK(name, cond, fmt, ...)					\
	do {								\
		if (cond) {						\
			printf("PASS: %s\n", name);			\
		} else {						\
			printf("FAIL: %s: " fmt "\n", name, ##__VA_ARGS__); \
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

#endif
