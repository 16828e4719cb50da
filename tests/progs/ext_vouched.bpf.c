// SPDX-License-Identifier: GPL-2.0
/* A target for extensions whose code a verified loader vouches for: the
 * program has no signature of its own, it is loaded by a signed light
 * skeleton (tests/src/ext_verified.c, "vouched"; the README's central case).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

/* Global, with ext_target's prototype, so ext_replace's new_pick fits */
__noinline int pick(int x)
{
	return x + 1;
}

SEC("syscall")
int target(void *ctx)
{
	return pick(1);
}
