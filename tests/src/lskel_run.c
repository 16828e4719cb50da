// SPDX-License-Identifier: GPL-2.0
/*
 * Load, attach and exercise the signed light skeletons in the guest.
 *
 *   lskel_run fentry KEYRING_ID   getpgid() hits counted by fentry/fexit
 *   lskel_run core KEYRING_ID     task_struct fields read through CO-RE
 *   lskel_run globals KEYRING_ID  .data/.bss values set before __load():
 *                                 every skeleton takes them (a signed one
 *                                 writes them into its maps after the
 *                                 load, before any attach)
 *   lskel_run settings WHAT KEYRING_ID
 *                                 settings.lskel.h with WHAT set before
 *                                 __load(): none, rodata, rodata-tail (a
 *                                 constant 16 bytes into .rodata), data,
 *                                 bss, max_entries (more), max_entries_smaller
 *                                 or max_entries_same, or
 *                                 rodata-log (the loader's log set); prints
 *                                 "ok VALUE" (what get_settings() returns
 *                                 after the load) or the failed load's
 *                                 error and the loader log's first line
 *   lskel_run load-only KEYRING_ID
 *                                 just load fentry_count; print "ok" or
 *                                 the errno of the failed load
 *   lskel_run pin DIR KEYRING_ID  load fentry_count and pin its programs
 *                                 as DIR/on_entry and DIR/on_exit, which
 *                                 outlive this process and the loader
 *
 * KEYRING_ID is a number; "session" means KEY_SPEC_SESSION_KEYRING.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/keyctl.h>

#include <bpf/bpf.h>

#include "testlib.h"
#include "fentry_count.lskel.h"
#include "core_task.lskel.h"
#include "settings.lskel.h"

static int keyring_arg(const char *s)
{
	return strcmp(s, "session") ? atoi(s) : KEY_SPEC_SESSION_KEYRING;
}

/* Unsigned skeletons (built with -DUNSIGNED_SKEL) have no keyring */
#ifdef UNSIGNED_SKEL
#define set_keyring(skel, id) ((void)(id))
#else
#define set_keyring(skel, id) ((skel)->keyring_id = (id))
#endif

static void test_fentry(int keyring)
{
	struct fentry_count *skel = fentry_count__open();
	int err, i;

	if (!skel) {
		CHECK("lskel fentry: open", 0, "errno %d", errno);
		return;
	}
	set_keyring(skel, keyring);
	err = fentry_count__load(skel);
	CHECK("lskel fentry: signed skeleton loads", err == 0, "err %d", err);
	if (err)
		goto out;
	/* A signed loader ignores values set before load: set them now */
	skel->bss->target_pid = getpid();
	err = fentry_count__attach(skel);
	CHECK("lskel fentry: attaches", err == 0, "err %d", err);
	for (i = 0; i < 3; i++)
		syscall(SYS_getpgid, 0);
	CHECK("lskel fentry: 3 entries counted", skel->bss->entry_hits == 3,
	      "%llu", (unsigned long long)skel->bss->entry_hits);
	CHECK("lskel fentry: 3 exits counted", skel->bss->exit_hits == 3,
	      "%llu", (unsigned long long)skel->bss->exit_hits);
out:
	fentry_count__destroy(skel);
}

static void test_core(int keyring)
{
	struct core_task *skel = core_task__open();
	char comm[16] = {};
	int err;

	if (!skel) {
		CHECK("lskel CO-RE: open", 0, "errno %d", errno);
		return;
	}
	set_keyring(skel, keyring);
	err = core_task__load(skel);
	CHECK("lskel CO-RE: signed skeleton with CO-RE relocations loads", err == 0, "err %d", err);
	if (err)
		goto out;
	skel->bss->target_pid = getpid();
	err = core_task__attach(skel);
	CHECK("lskel CO-RE: attaches", err == 0, "err %d", err);
	getsid(0);
	prctl(PR_GET_NAME, comm);
	CHECK("lskel CO-RE: task->pid", skel->bss->seen_pid == (int)syscall(SYS_gettid),
	      "%d", skel->bss->seen_pid);
	CHECK("lskel CO-RE: task->tgid", skel->bss->seen_tgid == getpid(),
	      "%d", skel->bss->seen_tgid);
	CHECK("lskel CO-RE: task->real_parent->tgid", skel->bss->seen_parent_tgid == getppid(),
	      "%d", skel->bss->seen_parent_tgid);
	CHECK("lskel CO-RE: task->comm", !strcmp(skel->bss->seen_comm, comm),
	      "'%s' vs '%s'", skel->bss->seen_comm, comm);
out:
	core_task__destroy(skel);
}

static void test_globals(int keyring)
{
	struct core_task *skel = core_task__open();
	int err;

	if (!skel) {
		CHECK("lskel globals: open", 0, "errno %d", errno);
		return;
	}
	CHECK("lskel globals: .data holds its compiled value after open",
	      skel->data->data_marker == 42, "%d", skel->data->data_marker);
	skel->data->data_marker = 7;
	skel->bss->target_pid = 12345;
	set_keyring(skel, keyring);
	err = core_task__load(skel);
	CHECK("lskel globals: loads", err == 0, "err %d", err);
	if (err)
		goto out;
	CHECK("lskel globals: the skeleton takes the .data value set before load",
	      skel->data->data_marker == 7, "%d", skel->data->data_marker);
	CHECK("lskel globals: the skeleton takes the .bss value set before load",
	      skel->bss->target_pid == 12345, "%d", skel->bss->target_pid);
out:
	core_task__destroy(skel);
}

/* rodata-tail changes a constant past the first 8 bytes of .rodata */
_Static_assert(offsetof(struct settings__rodata, setting_ro_tail) >= 8,
	       "setting_ro_tail must lie past the first 8 bytes of .rodata");

/* settings WHAT: set WHAT before __load(), then print what the program
 * sees, or why the load failed
 */
static int test_settings(const char *what, int keyring)
{
	LIBBPF_OPTS(bpf_test_run_opts, run);
	struct settings *skel = settings__open();
	static char log[1 << 20];
	int err;

	if (!skel) {
		printf("open: %s\n", strerror(errno));
		return 1;
	}
	/* rodata-log: the message in the loader's log, not on stderr */
	if (!strcmp(what, "rodata-log")) {
		skel->ctx.log_level = 1;
		skel->ctx.log_buf = (long)log;
		skel->ctx.log_size = sizeof(log);
		what = "rodata";
	}
	if (!strcmp(what, "rodata"))
		skel->rodata->setting_ro = 5;
	else if (!strcmp(what, "rodata-tail"))
		skel->rodata->setting_ro_tail = 4;
	else if (!strcmp(what, "data"))
		skel->data->setting_data = 6;
	else if (!strcmp(what, "bss"))
		skel->bss->setting_bss = 7;
	else if (!strcmp(what, "max_entries"))
		skel->maps.setting_map.max_entries = 16;
	else if (!strcmp(what, "max_entries_same"))
		skel->maps.setting_map.max_entries = 8;
	else if (!strcmp(what, "max_entries_smaller"))
		skel->maps.setting_map.max_entries = 4;
	else if (strcmp(what, "none"))
		return 2;
	set_keyring(skel, keyring);
	err = settings__load(skel);
	if (err) {
		fflush(stderr);
		printf("load: %s%s%s\n", strerror(-err), *log ? ": log: " : "",
		       strtok(log, "\n") ?: "");
		settings__destroy(skel);
		return 1;
	}
	err = bpf_prog_test_run_opts(skel->progs.get_settings.prog_fd, &run);
	if (err)
		printf("run: %s\n", strerror(errno));
	else
		printf("ok %#x\n", run.retval);
	settings__destroy(skel);
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "fentry"))
		test_fentry(keyring_arg(argv[2]));
	else if (argc == 3 && !strcmp(argv[1], "core"))
		test_core(keyring_arg(argv[2]));
	else if (argc == 3 && !strcmp(argv[1], "globals"))
		test_globals(keyring_arg(argv[2]));
	else if (argc == 4 && !strcmp(argv[1], "settings"))
		return test_settings(argv[2], keyring_arg(argv[3]));
	else if (argc == 3 && !strcmp(argv[1], "load-only")) {
		struct fentry_count *skel = fentry_count__open();
		int err;

		set_keyring(skel, keyring_arg(argv[2]));
		err = fentry_count__load(skel);
		printf("%s\n", err ? strerror(-err) : "ok");
		fentry_count__destroy(skel);
		return err ? 1 : 0;
	} else if (argc == 4 && !strcmp(argv[1], "pin")) {
		struct fentry_count *skel = fentry_count__open();
		char path[256];
		int err;

		set_keyring(skel, keyring_arg(argv[3]));
		err = fentry_count__load(skel);
		if (!err) {
			snprintf(path, sizeof(path), "%s/on_entry", argv[2]);
			err = bpf_obj_pin(skel->progs.on_entry.prog_fd, path);
		}
		if (!err) {
			snprintf(path, sizeof(path), "%s/on_exit", argv[2]);
			err = bpf_obj_pin(skel->progs.on_exit.prog_fd, path);
		}
		if (err)
			fprintf(stderr, "lskel_run pin: %s\n", strerror(err < 0 ? -err : errno));
		fentry_count__destroy(skel);
		return err ? 1 : 0;
	} else {
		fprintf(stderr, "usage: lskel_run fentry|core|globals|load-only KEYRING_ID | pin DIR KEYRING_ID | settings WHAT KEYRING_ID\n");
		return 2;
	}
	return test_failures ? 1 : 0;
}
