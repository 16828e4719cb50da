// SPDX-License-Identifier: GPL-2.0
/*
 * Races around signed loads, in the guest:
 *
 *   races freeze SIG_A SIG_B ROUNDS
 *        a writer thread flips the metadata map between value A and value B
 *        while the main thread freezes it and loads the program with the
 *        signature over insns || A (SIG_A) or insns || B (SIG_B): the load
 *        must succeed exactly when the frozen contents are what was signed;
 *        the writer keeps writing while the kernel reads the map for the
 *        signature check, and none of its writes after the freeze may land
 *   races parallel SIG_A THREADS ROUNDS
 *        THREADS threads load the signed program concurrently: all succeed
 *
 * The program and metadata are those of sig_load (insns from "sig_load
 * dump", metadata A = 64 x 'A', B = 64 x 'B').
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include <linux/keyctl.h>

#include "testlib.h"

#define META_SZ 64

static unsigned char excl[32];
static void *sig[2];
static size_t sig_len[2];
static volatile int stop, frozen_now;
static int writer_fd;
static volatile unsigned long late_tries, late_writes;

static int create_meta(void)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = META_SZ;
	attr.max_entries = 1;
	attr.excl_prog_hash = (unsigned long)excl;
	attr.excl_prog_hash_size = sizeof(excl);
	return sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
}

static int update(int fd, char c)
{
	char value[META_SZ];
	union bpf_attr attr;
	int key = 0;

	memset(value, c, sizeof(value));
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (unsigned long)&key;
	attr.value = (unsigned long)value;
	return sys_bpf(BPF_MAP_UPDATE_ELEM, &attr, sizeof(attr));
}

static char lookup(int fd)
{
	char value[META_SZ];
	union bpf_attr attr;
	int key = 0;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (unsigned long)&key;
	attr.value = (unsigned long)value;
	if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr, sizeof(attr)))
		return 0;
	return value[0];
}

static int load(int map_fd, int which)
{
	union bpf_attr attr;
	int fd_array[1] = { map_fd };

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (unsigned long)metadata_prog(&attr.insn_cnt);
	attr.license = (unsigned long)"GPL";
	attr.fd_array = (unsigned long)fd_array;
	attr.fd_array_cnt = 1;
	attr.signature = (unsigned long)sig[which];
	attr.signature_size = sig_len[which];
	attr.keyring_id = KEY_SPEC_SESSION_KEYRING;
	return sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
}

static void *writer(void *arg)
{
	unsigned long n = 0;

	while (!stop) {
		int after = frozen_now;
		int err = update(writer_fd, n++ & 1 ? 'B' : 'A');

		if (after) {
			late_tries++;
			if (!err)
				late_writes++;
		}
	}
	return NULL;
}

static void race_freeze(int rounds)
{
	int r, wrong = 0, loaded = 0, busy = 0, busy_rounds = 0, unfrozen = 0, tried = 0;

	for (r = 0; r < rounds; r++) {
		union bpf_attr attr;
		pthread_t t;
		char frozen;
		int which = r & 1, fd, err, i;

		writer_fd = create_meta();
		update(writer_fd, 'A');
		stop = 0;
		frozen_now = 0;
		pthread_create(&t, NULL, writer, NULL);
		usleep(50 + r % 200);
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = writer_fd;
		/* an update in flight makes freeze -EBUSY: try again, a
		 * bounded number of times (a round still EBUSY after them
		 * counts as not frozen, which fails below)
		 */
		for (i = 0; (err = sys_bpf(BPF_MAP_FREEZE, &attr, sizeof(attr))) == -EBUSY &&
			    i < 1000000; i++)
			busy++;
		busy_rounds += i > 0;
		if (err)
			unfrozen++;
		else
			frozen_now = 1;
		/* The guest may have one CPU: let the writer run until it has
		 * tried to write the frozen map, so that "no late write
		 * landed" below is never true for want of a try
		 */
		if (!err) {
			unsigned long seen = late_tries;

			for (i = 0; late_tries == seen && i < 1000000; i++)
				sched_yield();
			tried += late_tries != seen;
		}
		fd = load(writer_fd, which);
		stop = 1;
		pthread_join(t, NULL);
		frozen = lookup(writer_fd);
		/* verdict must follow the frozen contents exactly */
		if ((fd >= 0) != (frozen == (which ? 'B' : 'A')))
			wrong++;
		if (fd >= 0) {
			loaded++;
			close(fd);
		}
		close(writer_fd);
	}
	printf("races freeze: %d rounds, %d with a freeze refused EBUSY (an update in flight on the other CPU; %d retries), %d loads, %lu writes tried after a freeze, %lu landed\n",
	       rounds, busy_rounds, busy, loaded, late_tries, late_writes);
	CHECK("races: freeze racing with updates never yields a wrong verdict", wrong == 0,
	      "%d wrong of %d", wrong, rounds);
	CHECK("races: some racing loads succeeded", loaded > 0, "none of %d", rounds);
	CHECK("races: no write after the freeze landed, while the signed loads read the map",
	      late_writes == 0, "%lu of %lu late writes succeeded", late_writes, late_tries);
	CHECK("races: the writer tried to write every frozen map before its signed load",
	      tried == rounds - unfrozen, "%d of %d frozen maps", tried, rounds - unfrozen);
	CHECK("races: every metadata map got frozen", unfrozen == 0,
	      "%d of %d freezes failed (other than -EBUSY, retried %d times)", unfrozen,
	      rounds, busy);
}

static int parallel_rounds, parallel_failures;

static void *parallel_loader(void *arg)
{
	int r, fd, map;

	for (r = 0; r < parallel_rounds; r++) {
		map = create_meta();
		update(map, 'A');
		{
			union bpf_attr attr;

			memset(&attr, 0, sizeof(attr));
			attr.map_fd = map;
			sys_bpf(BPF_MAP_FREEZE, &attr, sizeof(attr));
		}
		fd = load(map, 0);
		if (fd < 0)
			__sync_fetch_and_add(&parallel_failures, 1);
		else
			close(fd);
		close(map);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "freeze")) {
		sig[0] = read_file(argv[2], &sig_len[0]);
		sig[1] = read_file(argv[3], &sig_len[1]);
	} else if (argc == 5 && !strcmp(argv[1], "parallel")) {
		sig[0] = read_file(argv[2], &sig_len[0]);
	} else {
		fprintf(stderr, "usage: races freeze SIG_A SIG_B ROUNDS | parallel SIG_A THREADS ROUNDS\n");
		return 2;
	}
	/* the exclusive hash: SHA-256 of the program, from the environment */
	if (!getenv("EXCL") || parse_hex(getenv("EXCL"), excl, sizeof(excl))) {
		fprintf(stderr, "races: EXCL must hold the program's digest, 64 hex digits\n");
		return 2;
	}
	if (!strcmp(argv[1], "freeze")) {
		race_freeze(atoi(argv[4]));
	} else {
		int n = atoi(argv[3]), i;
		pthread_t t[64];

		parallel_rounds = atoi(argv[4]);
		for (i = 0; i < n && i < 64; i++)
			pthread_create(&t[i], NULL, parallel_loader, NULL);
		for (i = 0; i < n && i < 64; i++)
			pthread_join(t[i], NULL);
		CHECK("races: parallel signed loads all succeed", parallel_failures == 0,
		      "%d of %d failed", parallel_failures, n * parallel_rounds);
	}
	return test_failures ? 1 : 0;
}
