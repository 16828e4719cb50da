// SPDX-License-Identifier: GPL-2.0
/*
 * The map swap attack on a signed light skeleton, raced for real in the
 * guest. The skeleton is tests/progs/rodata_const.bpf.c's, signed: its
 * loader creates the .rodata map (BPF_F_RDONLY_PROG, value 1), freezes it,
 * then loads get_value() with fd_array holding that map's fd, resolved in
 * this process's fd table. An attacker thread watches /proc/self/fdinfo for
 * a frozen BPF_F_RDONLY_PROG array with 4-byte values that is not its own
 * and dup2()s its own frozen map (0x1337) over it: if that lands between
 * the freeze and the program load and the kernel let the load through,
 * get_value() would return 0x1337 under the skeleton's signature. The
 * kernel must refuse such a load (EACCES: the map was not created by the
 * verified loader).
 *
 *   loader_race ROUNDS FILE [--no-sleeper]
 *                             ROUNDS loads of the skeleton (keyring: the
 *                             session keyring), the attacker active in every
 *                             other one; with --no-sleeper the sleeper is
 *                             never armed: the window is what two CPUs
 *                             give, and the run reports how often the swap
 *                             hit it instead of requiring that it did
 *
 * In attacked rounds progs/freeze_sleeper.bpf.c holds each program load of
 * the loader (after its freeze) on two uncached pages of FILE, and the
 * attacker watches the fd the .rodata map had in the first round without
 * it (the loader's fds are the lowest free ones), so that it gets the
 * window whatever the guest's speed (a KASAN kernel under load once gave
 * a scanning attacker none in 100 rounds).
 *
 * Checks: the window was held in every attacked round; no load ever
 * returned 0x1337; the race hit at least once (a load
 * refused with EACCES, or one returning 0x1337), otherwise the test proves
 * nothing and fails; every round without the attacker loads and returns
 * 1; an attacked load fails only with EACCES, or with EINVAL when the swap
 * hit the skeleton's own .rodata fd after the load (__load() then finds
 * that map's values not the skeleton's and refuses to map it as .rodata),
 * and only after a swap.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <linux/keyctl.h>


#include "testlib.h"
#include "rodata_const.lskel.h"
#include "freeze_sleeper.skel.h"

#define SIGNED_VALUE	1
#define EVIL		0x1337
#define MAX_FD		256

/* Odd while the attacker may strike; the attacker acknowledges each value
 * it has seen in ack, so that once ack is even again it strikes no more.
 */
static unsigned int seq, ack;
static int stop;
static int own_fd, own_id;
/* The fd of the skeleton's .rodata map in a round without the attacker:
 * the loader's fds are the lowest free ones, the same in every round
 */
static int hint_fd = -1, hint_handle = -1;
static unsigned long swaps, strays;

struct fd_map {
	int map_type, value_size, map_id, frozen;
	unsigned long map_flags;
};

/* Parse a map's fdinfo; -1 if it is not a map's */
static int parse_fdinfo(const char *buf, struct fd_map *m)
{
	const char *p;

	memset(m, 0, sizeof(*m));
	p = strstr(buf, "map_type:\t");
	if (!p)
		return -1;
	m->map_type = atoi(p + 10);
	p = strstr(buf, "value_size:\t");
	m->value_size = p ? atoi(p + 12) : 0;
	p = strstr(buf, "map_flags:\t");
	m->map_flags = p ? strtoul(p + 11, NULL, 0) : 0;
	p = strstr(buf, "map_id:\t");
	m->map_id = p ? atoi(p + 8) : 0;
	p = strstr(buf, "frozen:\t");
	m->frozen = p ? atoi(p + 8) : 0;
	return 0;
}

/* The read-only .rodata map of a light skeleton: an array of 4-byte values
 * the program may not write (frozen or not yet)
 */
static int is_target(const struct fd_map *m)
{
	return m->map_type == BPF_MAP_TYPE_ARRAY && m->value_size == 4 &&
	       (m->map_flags & BPF_F_RDONLY_PROG);
}

/* Read fdinfo through HANDLE, an open /proc/self/fdinfo/N: it shows
 * whatever fd N is at the time of the read
 */
static int read_handle(int handle, struct fd_map *m)
{
	char buf[1024];
	ssize_t n = pread(handle, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return -1;
	buf[n] = 0;
	return parse_fdinfo(buf, m);
}

/* Find a target among the open fds: its number, with an open fdinfo
 * handle in *handle; -1 if none
 */
static int scan(int *handle)
{
	struct fd_map m;
	char path[64];
	int n, h;

	for (n = 3; n < MAX_FD; n++) {
		if (n == own_fd)
			continue;
		snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", n);
		h = open(path, O_RDONLY);
		if (h < 0)
			continue;
		if (!read_handle(h, &m) && is_target(&m) && m.map_id != own_id) {
			*handle = h;
			return n;
		}
		close(h);
	}
	return -1;
}

static void *attacker(void *arg)
{
	unsigned int last = 0;
	int target = -1, handle = -1;
	bool seen = false;
	struct fd_map m;

	while (!__atomic_load_n(&stop, __ATOMIC_SEQ_CST)) {
		unsigned int s = __atomic_load_n(&seq, __ATOMIC_SEQ_CST);
		bool fresh = s != last;

		__atomic_store_n(&ack, s, __ATOMIC_SEQ_CST);
		last = s;
		if (!(s & 1)) {
			sched_yield();
			continue;
		}
		/* A whole round without the target at its fd: look again */
		if (fresh && target >= 0 && !seen && hint_fd < 0) {
			close(handle);
			handle = target = -1;
		}
		if (fresh)
			seen = false;
		if (target < 0 && __atomic_load_n(&hint_fd, __ATOMIC_SEQ_CST) >= 0) {
			handle = hint_handle;
			target = hint_fd;
			seen = true;
			continue;
		}
		if (target < 0) {
			target = scan(&handle);
			seen = target >= 0;
			continue;
		}
		/* target stays the same fd number from round to round (the
		 * loader's fds are the lowest free ones): watch it
		 */
		if (read_handle(handle, &m) || !is_target(&m))
			continue;
		seen = true;
		if (m.map_id == own_id) {
			/* Our map is still there from an earlier round (a dup2
			 * that landed after the loader closed its map on
			 * failure): nobody else has this fd, take it back so
			 * that the loader can have it again
			 */
			if (fresh) {
				close(target);
				strays++;
			}
			continue;
		}
		if (m.frozen && dup2(own_fd, target) == target)
			__atomic_add_fetch(&swaps, 1, __ATOMIC_SEQ_CST);
	}
	if (handle >= 0)
		close(handle);
	return NULL;
}

/* The attacker's map: what the skeleton's .rodata map is, holding EVIL */
static int attacker_map(void)
{
	__u32 key = 0, value = EVIL;
	char path[64];
	union bpf_attr attr;
	struct fd_map m;
	char buf[1024];
	ssize_t n;
	int fd, h;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = 4;
	attr.max_entries = 1;
	attr.map_flags = BPF_F_RDONLY_PROG | BPF_F_MMAPABLE;
	fd = sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
	if (fd < 0)
		return fd;
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (unsigned long)&key;
	attr.value = (unsigned long)&value;
	if (sys_bpf(BPF_MAP_UPDATE_ELEM, &attr, sizeof(attr)))
		return -1;
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	if (sys_bpf(BPF_MAP_FREEZE, &attr, sizeof(attr)))
		return -1;
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	h = open(path, O_RDONLY);
	n = h < 0 ? -1 : read(h, buf, sizeof(buf) - 1);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	close(h);
	if (parse_fdinfo(buf, &m) || !m.map_id)
		return -1;
	own_id = m.map_id;
	return fd;
}

static int run_prog(int prog_fd, __u32 *retval)
{
	union bpf_attr attr;
	int err;

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = prog_fd;
	err = sys_bpf(BPF_PROG_TEST_RUN, &attr, sizeof(attr));
	*retval = attr.test.retval;
	return err;
}

int main(int argc, char **argv)
{
	int rounds, r, calm_bad = 0, attacked = 0, eacces = 0, loaded = 0, evil = 0;
	int other_err = 0, other_ret = 0, hit_rounds = 0, unswapped_eacces = 0;
	int einval = 0;
	bool use_sleeper = argc == 3;
	struct freeze_sleeper *sleeper;
	unsigned long long npages;
	void *pages;
	pthread_t t;

	rounds = argc == 3 || (argc == 4 && !strcmp(argv[3], "--no-sleeper")) ?
		 atoi(argv[1]) : 0;
	if (rounds < 2) {
		fprintf(stderr, "usage: loader_race ROUNDS FILE [--no-sleeper] (at least 2 rounds)\n");
		return 2;
	}
	/* the check on the sleeper's hits says if it was armed */
	pages = uncached_pages(argv[2], &npages);
	if (!pages)
		return 2;
	sleeper = freeze_sleeper__open();
	if (!sleeper) {
		fprintf(stderr, "loader_race: sleeper: errno %d\n", errno);
		return 2;
	}
	sleeper->data->target_cmd = BPF_PROG_LOAD;
	sleeper->data->pages_per_hit = 2;
	sleeper->data->armed = 0;
	if (freeze_sleeper__load(sleeper) || freeze_sleeper__attach(sleeper)) {
		fprintf(stderr, "loader_race: sleeper: errno %d\n", errno);
		return 2;
	}
	sleeper->bss->base = (unsigned long)pages;
	sleeper->bss->npages = npages;
	sleeper->bss->target_tgid = getpid();
	own_fd = attacker_map();
	if (own_fd < 0) {
		fprintf(stderr, "loader_race: attacker's map: %d\n", own_fd);
		return 2;
	}
	pthread_create(&t, NULL, attacker, NULL);

	for (r = 0; r < rounds; r++) {
		struct rodata_const *skel = rodata_const__open();
		bool attack = r & 1;
		unsigned long swaps_before = swaps;
		__u32 retval = 0;
		int err;

		if (!skel) {
			fprintf(stderr, "loader_race: open: errno %d\n", errno);
			return 2;
		}
		skel->keyring_id = KEY_SPEC_SESSION_KEYRING;
		sleeper->data->armed = attack && use_sleeper;
		if (attack)
			__atomic_add_fetch(&seq, 1, __ATOMIC_SEQ_CST);
		err = rodata_const__load(skel);
		sleeper->data->armed = 0;
		if (!err)
			err = run_prog(skel->progs.get_value.prog_fd, &retval);
		if (attack) {
			unsigned int s = __atomic_add_fetch(&seq, 1, __ATOMIC_SEQ_CST);

			while (__atomic_load_n(&ack, __ATOMIC_SEQ_CST) != s)
				sched_yield();
			attacked++;
			if (swaps != swaps_before)
				hit_rounds++;
			if (!err) {
				loaded++;
				if (retval == EVIL)
					evil++;
				else if (retval != SIGNED_VALUE)
					other_ret++;
			} else if (err == -EACCES) {
				eacces++;
				unswapped_eacces += swaps == swaps_before;
			} else if (err == -EINVAL && swaps != swaps_before) {
				einval++;
			} else {
				other_err++;
				fprintf(stderr, "loader_race: round %d: load failed with %d\n", r, err);
			}
		} else if (!err && retval == SIGNED_VALUE && hint_fd < 0) {
			/* an fdinfo handle of that fd number, above the fds
			 * the loader will take
			 */
			char path[64];
			int h;

			snprintf(path, sizeof(path), "/proc/self/fdinfo/%d",
				 skel->maps.rodata.map_fd);
			h = open(path, O_RDONLY);
			hint_handle = h >= 0 ? fcntl(h, F_DUPFD_CLOEXEC, 200) : -1;
			if (h >= 0)
				close(h);
			if (hint_handle >= 0)
				__atomic_store_n(&hint_fd, skel->maps.rodata.map_fd,
						 __ATOMIC_SEQ_CST);
		} else if (err || retval != SIGNED_VALUE) {
			calm_bad++;
			fprintf(stderr, "loader_race: round %d without attacker: err %d, retval %#x\n",
				r, err, retval);
		}
		rodata_const__destroy(skel);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	pthread_join(t, NULL);

	printf("loader race%s: %d rounds, %d attacked: %lu swaps in %d rounds, %d refused with EACCES, %d with EINVAL (.rodata fd swapped), %d other errors, %d loaded (%d returned 0x1337, %d another value), %lu stray fds taken back\n",
	       use_sleeper ? "" : " (no sleeper)", rounds, attacked, swaps, hit_rounds, eacces,
	       einval, other_err, loaded, evil, other_ret, strays);
	if (use_sleeper) {
		CHECK("loader race: the loader's program load was held in every attacked round",
		      sleeper->bss->hits >= (unsigned long long)attacked, "%llu of %d rounds",
		      (unsigned long long)sleeper->bss->hits, attacked);
		CHECK("loader race: the swap landed between the loader's freeze and its program load at least once",
		      eacces + evil > 0, "the race never hit (%lu swaps in %d attacked rounds)", swaps,
		      attacked);
	}
	CHECK(use_sleeper ? "loader race: no signed light skeleton load ever returned the attacker's 0x1337" :
			    "loader race (no sleeper): no signed light skeleton load ever returned the attacker's 0x1337",
	      evil == 0, "%d of %d loads did", evil, loaded);
	CHECK(use_sleeper ? "loader race: every round without the attacker loads and returns the signed 1" :
			    "loader race (no sleeper): every round without the attacker loads and returns the signed 1",
	      calm_bad == 0, "%d of %d rounds did not", calm_bad, rounds - attacked);
	CHECK(use_sleeper ? "loader race: attacked loads end only in EACCES or EINVAL after a swap or in the signed 1 (or 0x1337, above)" :
			    "loader race (no sleeper): attacked loads end only in EACCES or EINVAL after a swap or in the signed 1 (or 0x1337, above)",
	      other_err == 0 && other_ret == 0 && unswapped_eacces == 0,
	      "%d other errors, %d loads returned another value, %d EACCES without a swap",
	      other_err, other_ret, unswapped_eacces);
	freeze_sleeper__destroy(sleeper);
	return test_failures ? 1 : 0;
}
