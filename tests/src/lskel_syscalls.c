// SPDX-License-Identifier: GPL-2.0
/* What a light skeleton header really loads, without a kernel: compiled
 * with one header (-DSKEL_HEADER='"x.h"' -DSKEL=name), it runs
 * name__open_and_load() with syscall() replaced by a stand-in that answers
 * the bpf() commands of bpf_load_and_run() and prints, for BPF_PROG_LOAD,
 * the loader's instruction count, a digest of its instructions and the
 * signature it would pass. tests/host/header-forgery.sh compares that line
 * for a header and for forgeries of it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>

#include SKEL_HEADER

#define CAT(a, b) a##b
#define XCAT(a, b) CAT(a, b)

/* FNV-1a, 64 bits: enough to tell two byte strings apart here */
static unsigned long long fnv(const void *p, size_t n)
{
	const unsigned char *b = p;
	unsigned long long h = 0xcbf29ce484222325ULL;

	while (n--) {
		h ^= *b++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

long syscall(long nr, ...)
{
	union bpf_attr *attr;
	unsigned int size;
	va_list ap;
	int cmd;

	va_start(ap, nr);
	cmd = va_arg(ap, int);
	attr = va_arg(ap, union bpf_attr *);
	size = va_arg(ap, unsigned int);
	va_end(ap);
	if (nr != __NR_bpf) {
		errno = ENOSYS;
		return -1;
	}
	switch (cmd) {
	case BPF_MAP_CREATE:
		return 100;
	case BPF_MAP_UPDATE_ELEM:
	case BPF_MAP_FREEZE:
		return 0;
	case BPF_PROG_LOAD:
		printf("prog_load insns=%u digest=%016llx signature=",
		       attr->insn_cnt,
		       fnv((void *)(long)attr->insns, attr->insn_cnt * 8ULL));
		if (size >= offsetof(union bpf_attr, keyring_id) + 4 &&
		    attr->signature && attr->signature_size)
			printf("%u bytes\n", attr->signature_size);
		else
			printf("none\n");
		/* nothing more to see: stop the load here */
		errno = EPERM;
		return -1;
	default:
		errno = EINVAL;
		return -1;
	}
}

int main(void)
{
	void *skel = XCAT(SKEL, __open_and_load)();

	return skel ? 1 : 0;
}
