// SPDX-License-Identifier: GPL-2.0
/*
 * Loader of the example signed-only policy (progs/signed_only.bpf.c), a
 * signed light skeleton itself.
 *
 *   signed_only enforce PIN KEYRING_ID   load the policy, pin its link at
 *                                        PIN: enforced until PIN is removed
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/keyctl.h>
#include <bpf/bpf.h>

#include "signed_only.lskel.h"

int main(int argc, char **argv)
{
	struct signed_only *skel;
	int err;

	if (argc != 4 || strcmp(argv[1], "enforce")) {
		fprintf(stderr, "usage: signed_only enforce PIN KEYRING_ID|session\n");
		return 2;
	}
	skel = signed_only__open();
	if (!skel)
		return 1;
	skel->keyring_id = strcmp(argv[3], "session") ? atoi(argv[3]) :
			   KEY_SPEC_SESSION_KEYRING;
	err = signed_only__load(skel);
	if (!err)
		err = signed_only__attach(skel);
	if (!err)
		err = bpf_obj_pin(skel->links.signed_only_fd, argv[2]);
	if (err)
		fprintf(stderr, "signed_only: %s\n", strerror(-err));
	signed_only__destroy(skel);
	return err ? 1 : 0;
}
