/* SPDX-License-Identifier: GPL-2.0 */
/* What the tree's tools/testing/selftests/bpf/test_tag.c uses of the
 * selftests' testing_helpers.h, so that it builds without the rest of the
 * selftests (test_progs and its dependencies). Passed with -include: its
 * guard is the real header's, which then reads as empty.
 */
#ifndef __TESTING_HELPERS_H
#define __TESTING_HELPERS_H

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

static inline int bpf_test_load_program(enum bpf_prog_type type,
					const struct bpf_insn *insns,
					size_t insns_cnt, const char *license,
					__u32 kern_version, char *log_buf,
					size_t log_buf_sz)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .kern_version = kern_version,
		    .log_buf = log_buf, .log_size = log_buf_sz);

	return bpf_prog_load(type, NULL, license, insns, insns_cnt, &opts);
}

#endif
