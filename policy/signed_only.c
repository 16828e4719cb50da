// SPDX-License-Identifier: GPL-2.0
/*
 * Loader of the signed_only policy (signed_only.bpf.c), a signed light
 * skeleton itself.
 *
 *   signed_only enforce PIN KEYRING_ID [TRUSTED_SERIAL]
 *
 * Loads the policy, its own signature checked against KEYRING_ID (0
 * builtin, 1 secondary, 2 platform, a keyring serial, or "session"),
 * trusts TRUSTED_SERIAL's keyring besides the builtin and secondary ones
 * (none if not given; "session" is the caller's session keyring, by its
 * serial), attaches it and pins the link at PIN: the policy is in force
 * until PIN is removed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/keyctl.h>
#include <bpf/bpf.h>

#include "signed_only.lskel.h"

/* The serial the kernel records for a keyring: "session" and the other
 * special ids (negative) resolved, as verdicts name the keyring itself
 */
static int keyring_serial(const char *arg)
{
	long id = strcmp(arg, "session") ? atol(arg) : KEY_SPEC_SESSION_KEYRING;

	if (id >= 0)
		return id;
	return syscall(__NR_keyctl, KEYCTL_GET_KEYRING_ID, id, 0);
}

int main(int argc, char **argv)
{
	struct signed_only *skel;
	int err;

	if ((argc != 4 && argc != 5) || strcmp(argv[1], "enforce")) {
		fprintf(stderr, "usage: signed_only enforce PIN KEYRING_ID|session [TRUSTED_SERIAL]\n");
		return 2;
	}
	skel = signed_only__open();
	if (!skel)
		return 1;
	skel->keyring_id = strcmp(argv[3], "session") ? atoi(argv[3]) :
			   KEY_SPEC_SESSION_KEYRING;
	err = signed_only__load(skel);
	if (!err && argc == 5) {
		skel->bss->trusted_serial = keyring_serial(argv[4]);
		if (skel->bss->trusted_serial <= 0) {
			fprintf(stderr, "signed_only: no keyring %s\n", argv[4]);
			err = -ENOKEY;
		}
	}
	if (!err)
		err = signed_only__attach(skel);
	if (!err)
		err = bpf_obj_pin(skel->links.signed_only_fd, argv[2]);
	if (err)
		fprintf(stderr, "signed_only: %s\n", strerror(-err));
	signed_only__destroy(skel);
	return err ? 1 : 0;
}
