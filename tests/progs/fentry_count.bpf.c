// SPDX-License-Identifier: GPL-2.0
/* Count entries to and exits from getpgid(2), for the signed light
 * skeleton test: the loader must load, attach and run this.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char _license[] SEC("license") = "GPL";

__u64 entry_hits;
__u64 exit_hits;
int target_pid;

SEC("fentry/__x64_sys_getpgid")
int BPF_PROG(on_entry)
{
	if (bpf_get_current_pid_tgid() >> 32 == target_pid)
		__sync_fetch_and_add(&entry_hits, 1);
	return 0;
}

SEC("fexit/__x64_sys_getpgid")
int BPF_PROG(on_exit)
{
	if (bpf_get_current_pid_tgid() >> 32 == target_pid)
		__sync_fetch_and_add(&exit_hits, 1);
	return 0;
}
