// SPDX-License-Identifier: GPL-2.0
/* bpf_verify_pkcs7_signature() given a dynptr without directly readable
 * data (a null dynptr: bpf_dynptr_from_mem() with bad flags) as the data
 * or as the signature: kernel patch 0001 makes both -EINVAL.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char _license[] SEC("license") = "GPL";

extern struct bpf_key *bpf_lookup_system_key(__u64 id) __ksym;
extern void bpf_key_put(struct bpf_key *key) __ksym;
extern int bpf_verify_pkcs7_signature(struct bpf_dynptr *data_ptr,
				      struct bpf_dynptr *sig_ptr,
				      struct bpf_key *trusted_keyring) __ksym;

int target_pid;
int ran;
int null_data_err;
int null_sig_err;
int garbage_sig_err;
char buf[64];

SEC("fentry.s/__x64_sys_getpgid")
int BPF_PROG(null_dynptrs)
{
	struct bpf_dynptr data, null;
	struct bpf_key *key;

	if (bpf_get_current_pid_tgid() >> 32 != target_pid)
		return 0;
	bpf_dynptr_from_mem(buf, sizeof(buf), 0, &data);
	/* non-zero flags: -EINVAL, and the dynptr is set to null */
	bpf_dynptr_from_mem(buf, sizeof(buf), 1, &null);
	key = bpf_lookup_system_key(0);
	if (!key)
		return 0;
	null_data_err = bpf_verify_pkcs7_signature(&null, &data, key);
	null_sig_err = bpf_verify_pkcs7_signature(&data, &null, key);
	/* the control: readable data, 64 zero bytes as a signature */
	garbage_sig_err = bpf_verify_pkcs7_signature(&data, &data, key);
	bpf_key_put(key);
	ran = 1;
	return 0;
}
