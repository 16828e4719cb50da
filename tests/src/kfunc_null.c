// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_verify_pkcs7_signature() with a null dynptr as data or signature
 * (tests/progs/kfunc_null.bpf.c): -EINVAL for both, and the kfunc still
 * answers for readable data (a garbage signature: -EBADMSG).
 */
#include <bpf/libbpf.h>

#include "testlib.h"
#include "kfunc_null.skel.h"

int main(void)
{
	struct kfunc_null *skel = kfunc_null__open_and_load();
	int err;

	if (!skel) {
		CHECK("kfunc_null: load the sleepable fentry program", 0, "errno %d", errno);
		return 1;
	}
	CHECK("kfunc_null: load the sleepable fentry program", 1, "");
	skel->bss->target_pid = getpid();
	err = kfunc_null__attach(skel);
	CHECK("kfunc_null: attach", !err, "err %d", err);
	if (!err)
		syscall(SYS_getpgid, 0);
	CHECK("kfunc_null: the program ran and found the builtin keyring", skel->bss->ran == 1,
	      "ran %d", skel->bss->ran);
	CHECK("bpf_verify_pkcs7_signature: null data dynptr: -EINVAL",
	      skel->bss->null_data_err == -EINVAL, "got %d", skel->bss->null_data_err);
	CHECK("bpf_verify_pkcs7_signature: null signature dynptr: -EINVAL",
	      skel->bss->null_sig_err == -EINVAL, "got %d", skel->bss->null_sig_err);
	CHECK("bpf_verify_pkcs7_signature: garbage signature over readable data: -EBADMSG",
	      skel->bss->garbage_sig_err == -EBADMSG, "got %d", skel->bss->garbage_sig_err);
	kfunc_null__destroy(skel);
	return test_failures ? 1 : 0;
}
