// SPDX-License-Identifier: GPL-2.0
/*
 * Example policy: refuse BPF_PROG_LOAD of programs the kernel did not
 * verify. A program passes if its own signature was verified, or if a
 * loader program whose signature was verified loaded it (the programs of
 * a signed light skeleton). The verdicts are the kernel's, recorded
 * before this hook runs.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define EPERM 1

char _license[] SEC("license") = "GPL";

__u64 allowed;
__u64 denied;

SEC("lsm/bpf_prog_load")
int BPF_PROG(signed_only, struct bpf_prog *prog, union bpf_attr *attr,
	     struct bpf_token *token, int ret)
{
	struct bpf_prog_aux *aux = prog->aux;

	if (ret)
		return ret;
	if (aux->sig.verdict == BPF_SIG_VERIFIED ||
	    (aux->loader.present && aux->loader.sig.verdict == BPF_SIG_VERIFIED)) {
		__sync_fetch_and_add(&allowed, 1);
		return 0;
	}
	__sync_fetch_and_add(&denied, 1);
	return -EPERM;
}
