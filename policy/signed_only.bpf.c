// SPDX-License-Identifier: GPL-2.0
/*
 * signed_only: a BPF-LSM policy that lets BPF_PROG_LOAD through only for
 * programs whose code a trusted signature vouches for. The verdicts are
 * the kernel's, recorded before this hook runs (prog->aux->sig, and
 * prog->aux->loader for a program that a loader program loaded).
 *
 * A program passes if
 * - its own signature was verified against a trusted keyring, or
 * - the loader program that loaded it (a signed light skeleton's) was
 *   verified against a trusted keyring with a signature that covers at
 *   least one map besides its instructions: a loader signed over its
 *   instructions alone loads whatever its caller hands it;
 * and, for an extension or a tracing program attached to another program
 * (attach_prog_fd), if its trust is at least the target's.
 *
 * Trusted keyrings: the builtin trusted keys and the secondary keyring,
 * and one user keyring if the operator names its serial (trusted_serial,
 * set by the loader after the load, before the policy is attached). Not
 * the platform keyring (UEFI db, which holds third-party CAs), and no
 * other user or session keyring: anyone can put any certificate there.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#define EPERM 1

char _license[] SEC("license") = "GPL";

/* Serial of a user keyring to trust as well, 0 for none */
__s32 trusted_serial;

__u64 allowed;
__u64 denied;

/* 0 untrusted, 1 the operator's keyring, 2 secondary, 3 builtin. The
 * kernel's enum values are read with CO-RE, as the running kernel has
 * them.
 */
static int sig_trust(const struct bpf_prog_sig *sig, bool loader)
{
	int keyring = sig->keyring_type;

	if (sig->verdict != bpf_core_enum_value(enum bpf_sig_verdict, BPF_SIG_VERIFIED))
		return 0;
	if (loader && !sig->map_cnt)
		return 0;
	if (keyring == bpf_core_enum_value(enum bpf_sig_keyring, BPF_SIG_KEYRING_BUILTIN))
		return 3;
	if (keyring == bpf_core_enum_value(enum bpf_sig_keyring, BPF_SIG_KEYRING_SECONDARY))
		return 2;
	if (keyring == bpf_core_enum_value(enum bpf_sig_keyring, BPF_SIG_KEYRING_USER))
		return trusted_serial && sig->keyring_serial == trusted_serial;
	return 0;
}

static int prog_trust(const struct bpf_prog_aux *aux)
{
	int own = sig_trust(&aux->sig, false), loader = 0;

	if (aux->loader.present)
		loader = sig_trust(&aux->loader.sig, true);
	return own > loader ? own : loader;
}

/* The hook as upstream declares it (Linux 6.15): kernel is true for a
 * bpf() command from the kernel, such as a loader's bpf_sys_bpf()
 */
SEC("lsm/bpf_prog_load")
int BPF_PROG(signed_only, struct bpf_prog *prog, union bpf_attr *attr,
	     struct bpf_token *token, bool kernel, int ret)
{
	struct bpf_prog_aux *aux = prog->aux;
	struct bpf_prog *dst = aux->dst_prog;
	int trust;

	if (ret)
		return ret;
	trust = prog_trust(aux);
	/* An extension replaces code of its target, a tracing program
	 * watches it: neither from less trusted code than the target's.
	 */
	if (trust && dst && prog_trust(dst->aux) > trust)
		trust = 0;
	if (!trust) {
		__sync_fetch_and_add(&denied, 1);
		return -EPERM;
	}
	__sync_fetch_and_add(&allowed, 1);
	return 0;
}
