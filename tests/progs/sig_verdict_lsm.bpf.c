// SPDX-License-Identifier: GPL-2.0
/* What a BPF LSM program written for upstream sees at BPF_PROG_LOAD:
 * the hook declared as upstream declares it (Linux 6.15: a last argument
 * bool kernel), the verdict the kernel recorded before the hook ran. For
 * sig_load --lsm, as the lsm_signature_verdict case of upstream's
 * signed_loader selftest records it; only loads of the thread named in
 * monitored_tid count.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char _license[] SEC("license") = "GPL";

__u32 monitored_tid;
__u32 seen;
__u32 verdict;
__u32 keyring_type;
__s32 keyring_serial;
__u32 from_kernel;

SEC("lsm/bpf_prog_load")
int BPF_PROG(inspect_prog_load, struct bpf_prog *prog, union bpf_attr *attr,
	     struct bpf_token *token, bool kernel)
{
	if ((__u32)bpf_get_current_pid_tgid() != monitored_tid)
		return 0;
	verdict = prog->aux->sig.verdict;
	keyring_type = prog->aux->sig.keyring_type;
	keyring_serial = prog->aux->sig.keyring_serial;
	from_kernel = kernel;
	seen++;
	return 0;
}
