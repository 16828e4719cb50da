// SPDX-License-Identifier: GPL-2.0
/* Read task_struct fields through CO-RE relocations, which a light
 * skeleton's loader has the kernel resolve (in-kernel CO-RE).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

char _license[] SEC("license") = "GPL";

int target_pid;
/* .data: a signed skeleton takes its initial value from the signed data */
int data_marker = 42;
int seen_pid;
int seen_tgid;
int seen_parent_tgid;
char seen_comm[16];

SEC("fentry/__x64_sys_getsid")
int BPF_PROG(read_task)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();

	if (BPF_CORE_READ(task, tgid) != target_pid)
		return 0;
	seen_pid = BPF_CORE_READ(task, pid);
	seen_tgid = BPF_CORE_READ(task, tgid);
	seen_parent_tgid = BPF_CORE_READ(task, real_parent, tgid);
	BPF_CORE_READ_STR_INTO(&seen_comm, task, comm);
	return 0;
}
