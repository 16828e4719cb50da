// SPDX-License-Identifier: GPL-2.0
/*
 * The write-before-freeze attack on a signed light skeleton: its loader
 * creates the .rodata map (BPF_F_RDONLY_PROG), writes the signed value 1
 * into it and then freezes it, with separate bpf_sys_bpf() calls on an fd
 * of this process. A thread of the process writes 0x1337 into that fd in a
 * loop: landing between the loader's update and its freeze, it would make
 * get_value() return 0x1337 as a program loaded by a verified loader. The
 * kernel must refuse every write to a verified loader's read-only map but
 * the loader's own (EPERM).
 *
 * progs/freeze_sleeper.bpf.c makes the loader sleep just before that
 * freeze, so the window is open in every round whatever the CPUs and the
 * preemption model give; FILE is a file whose uncached pages it reads.
 *
 *   rodata_race ROUNDS FILE [--no-sleeper]
 *
 * With --no-sleeper the sleeper stays disarmed: the window is what two
 * CPUs give, and the run reports how often the racing thread's write hit
 * it (a write refused while the map was not yet frozen) instead of
 * requiring that it did.
 *
 * Checks: the sleeper saw the freeze (the window was open), every round
 * loaded or, on a preemptible kernel, failed the loader's freeze with
 * EBUSY (a write of the racing thread, refused but still in flight, counts
 * as an active writer: the loading process can deny itself, no more), most
 * rounds loaded, no attacker write succeeded, no load returned 0x1337.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <sched.h>
#include <linux/keyctl.h>

#include "testlib.h"
#include "rodata_const.lskel.h"
#include "freeze_sleeper.skel.h"

#define EVIL 0x1337

static volatile int target_fd = -1, stop;
static unsigned long writes, in_window;

/* After a refused write: was FD a read-only array not frozen yet, so that
 * the write fell between the loader's map creation and its freeze?
 */
static int refused_in_window(int fd)
{
	char path[64], buf[1024];
	const char *p;
	ssize_t n;
	int h;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	h = open(path, O_RDONLY);
	if (h < 0)
		return 0;
	n = read(h, buf, sizeof(buf) - 1);
	close(h);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	p = strstr(buf, "map_flags:\t");
	return p && (strtoul(p + 11, NULL, 0) & BPF_F_RDONLY_PROG) &&
	       strstr(buf, "frozen:\t0\n");
}

/* Writes EVIL into the fd the loader's .rodata gets, while the loader runs */
static void *attacker(void *arg)
{
	static __u32 value[1024] = { EVIL };
	union bpf_attr attr;
	__u32 key = 0;
	int fd;

	while (!stop) {
		fd = target_fd;
		if (fd < 0) {
			sched_yield();
			continue;
		}
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = fd;
		attr.key = (unsigned long)&key;
		attr.value = (unsigned long)value;
		if (!sys_bpf(BPF_MAP_UPDATE_ELEM, &attr, sizeof(attr)))
			__atomic_add_fetch(&writes, 1, __ATOMIC_RELAXED);
		else if (errno == EPERM && refused_in_window(fd))
			__atomic_add_fetch(&in_window, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static __u32 run_prog(int prog_fd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = prog_fd;
	return sys_bpf(BPF_PROG_TEST_RUN, &attr, sizeof(attr)) ? 0 : attr.test.retval;
}

/* The fd number the loader gives .rodata (the same in every round) */
static int rodata_fd(void)
{
	struct rodata_const *skel = rodata_const__open();
	int fd = -1;

	if (!skel)
		return -1;
	skel->keyring_id = KEY_SPEC_SESSION_KEYRING;
	if (!rodata_const__load(skel))
		fd = skel->maps.rodata.map_fd;
	rodata_const__destroy(skel);
	return fd;
}

int main(int argc, char **argv)
{
	int rounds, r, fd, err, loaded = 0, busy = 0, other = 0, evil = 0;
	bool armed;
	struct freeze_sleeper *sleeper;
	struct rodata_const *skel;
	unsigned long long npages;
	pthread_t t;
	void *pages;

	armed = argc == 3;
	if ((argc != 3 && (argc != 4 || strcmp(argv[3], "--no-sleeper"))) ||
	    (rounds = atoi(argv[1])) <= 0) {
		fprintf(stderr, "usage: rodata_race ROUNDS FILE [--no-sleeper]\n");
		return 2;
	}
	/* the check on the sleeper's hits says if it slept */
	pages = uncached_pages(argv[2], &npages);
	if (!pages)
		return 2;
	/* the fd is measured with the sleeper's own fds open */
	sleeper = freeze_sleeper__open_and_load();
	fd = sleeper && !freeze_sleeper__attach(sleeper) ? rodata_fd() : -1;
	if (fd < 0) {
		fprintf(stderr, "rodata_race: setup failed (rodata fd %d)\n", fd);
		return 2;
	}
	sleeper->bss->base = (unsigned long)pages;
	sleeper->bss->npages = npages;
	sleeper->bss->target_tgid = getpid();
	sleeper->data->armed = armed;

	pthread_create(&t, NULL, attacker, NULL);
	for (r = 0; r < rounds; r++) {
		skel = rodata_const__open();
		if (!skel)
			break;
		skel->keyring_id = KEY_SPEC_SESSION_KEYRING;
		target_fd = fd;
		err = rodata_const__load(skel);
		if (!err) {
			loaded++;
			if (run_prog(skel->progs.get_value.prog_fd) == EVIL)
				evil++;
		} else if (err == -EBUSY) {
			busy++;
		} else {
			other++;
			fprintf(stderr, "rodata_race: round %d: load failed: %s\n", r, strerror(-err));
		}
		target_fd = -1;
		rodata_const__destroy(skel);
	}
	stop = 1;
	pthread_join(t, NULL);
	printf("rodata race%s: %d rounds, %llu freezes slept on, %lu attacker writes refused in the window, %lu succeeded, %d loads, %d freezes EBUSY, %d returned 0x1337\n",
	       armed ? "" : " (no sleeper)", rounds, (unsigned long long)sleeper->bss->hits,
	       in_window, writes, loaded, busy, evil);

	if (armed) {
		CHECK("rodata race: the loader slept before its freeze (the window was open)",
		      sleeper->bss->hits >= (unsigned long long)rounds, "%llu of %d rounds",
		      (unsigned long long)sleeper->bss->hits, rounds);
		CHECK("rodata race: every round loaded the signed skeleton or failed its freeze with EBUSY",
		      loaded + busy == rounds, "%d loaded, %d EBUSY, %d other errors of %d",
		      loaded, busy, other, rounds);
		CHECK("rodata race: most rounds loaded the signed skeleton", loaded * 2 > rounds,
		      "%d of %d", loaded, rounds);
		CHECK("rodata race: no write of the racing thread into the loader's .rodata succeeded",
		      writes == 0, "%lu did", writes);
		CHECK("rodata race: no load returned the racing thread's 0x1337", evil == 0,
		      "%d of %d did", evil, loaded);
	} else {
		CHECK("rodata race (no sleeper): every round loaded the signed skeleton or failed its freeze with EBUSY",
		      loaded + busy == rounds, "%d loaded, %d EBUSY, %d other errors of %d",
		      loaded, busy, other, rounds);
		CHECK("rodata race (no sleeper): no write of the racing thread into the loader's .rodata succeeded",
		      writes == 0, "%lu did", writes);
		CHECK("rodata race (no sleeper): no load returned the racing thread's 0x1337", evil == 0,
		      "%d of %d did", evil, loaded);
	}
	freeze_sleeper__destroy(sleeper);
	return test_failures ? 1 : 0;
}
