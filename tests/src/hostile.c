// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile bpf(2) calls on the new attributes, seeded and reproducible:
 *
 *   hostile dump FILE            write the test program's instructions
 *   hostile SEED ITERATIONS [GOOD STRANGER OTHER KEYRING]
 *
 * Each iteration builds a BPF_PROG_LOAD with random and boundary values of
 * signature, signature_size, keyring_id, fd_array and fd_array_cnt; a
 * BPF_MAP_CREATE with random exclusive-hash sizes and pointers; and a map
 * hash request on a map of a random type. Only documented results are
 * accepted; anything else is reported with the seed and iteration so the
 * same call can be replayed. The kernel log is checked by the harness.
 *
 * Random bytes never get past the PKCS#7 parser, so with the four optional
 * arguments half of the loads are well-formed enough to reach the keyring
 * and the verification: GOOD is a signature of the instructions (dump) by a
 * key in keyring KEYRING, STRANGER the same by a key in no keyring, OTHER
 * one by the right key over other data. These calls carry GOOD intact with
 * KEYRING (must load), STRANGER (must fail with ENOKEY), OTHER (must fail
 * with EKEYREJECTED), GOOD truncated, or GOOD with a hostile keyring_id,
 * fd_array or fd_array_cnt (documented errnos). The results are counted per
 * command, and a run in which BPF_PROG_LOAD never reached a layer (loaded,
 * EBADMSG, ENOKEY, EKEYREJECTED) fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/bpf.h>

static uint64_t rng;

static uint64_t next(void)
{
	/* xorshift64* */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1DULL;
}

#define PICK(arr) ((arr)[next() % (sizeof(arr) / sizeof((arr)[0]))])

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	int ret = syscall(__NR_bpf, cmd, attr, sizeof(*attr));

	return ret < 0 ? -errno : ret;
}

static const struct bpf_insn prog[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
	{ .code = BPF_JMP | BPF_EXIT },
};

static unsigned char sigbuf[16384];
static void *unmapped;
static long failures;

enum { CMD_PROG_LOAD, CMD_MAP_CREATE, CMD_MAP_HASH, NR_CMDS };
static const char *const cmd_names[NR_CMDS] = {
	"BPF_PROG_LOAD", "BPF_MAP_CREATE", "map hash",
};
static long counts[NR_CMDS][256];

/* Well-formed signatures (see the top of the file) */
struct sig {
	unsigned char *data;
	__u32 size;
};
static struct sig good, stranger, other;
static __s32 keyring;

static void check(int cmd, long iter, int ret, const int *ok, int n_ok)
{
	int i;

	if (ret >= 0) {
		close(ret);
		ret = 0;
	}
	for (i = 0; i < n_ok; i++) {
		if (ret == ok[i]) {
			counts[cmd][-ret & 0xff]++;
			return;
		}
	}
	failures++;
	printf("FAIL: hostile: %s at iteration %ld: undocumented result %d (%s)\n",
	       cmd_names[cmd], iter, ret, strerror(-ret));
}

/* A result the call must have: anything else fails the run */
static void expect(long iter, const char *what, int ret, int want)
{
	if (ret >= 0) {
		close(ret);
		ret = 0;
	}
	if (ret == want) {
		counts[CMD_PROG_LOAD][-ret & 0xff]++;
		return;
	}
	failures++;
	printf("FAIL: hostile: BPF_PROG_LOAD at iteration %ld: %s: result %d (%s), expected %d (%s)\n",
	       iter, what, ret, strerror(-ret), want, strerror(-want));
}

static int read_sig(const char *path, struct sig *sig)
{
	FILE *f = fopen(path, "rb");
	long size;

	if (!f) {
		perror(path);
		return -1;
	}
	sig->data = malloc(sizeof(sigbuf));
	size = sig->data ? (long)fread(sig->data, 1, sizeof(sigbuf), f) : 0;
	fclose(f);
	if (size <= 1) {
		fprintf(stderr, "%s: empty or unreadable signature\n", path);
		return -1;
	}
	sig->size = size;
	return 0;
}

static __u64 pick_ptr(void *valid)
{
	switch (next() % 5) {
	case 0: return 0;
	case 1: return (unsigned long)unmapped;
	case 2: return 1;
	case 3: return 0xffff888000000000ULL;	/* a kernel address */
	default: return (unsigned long)valid;
	}
}

/* The kernel's ENOTSUPP, which user space headers lack: a signed
 * program's metadata array of more than one element, as upstream
 */
#define KERNEL_ENOTSUPP 524

static const int prog_load_ok[] = {
	0, -EINVAL, -EFAULT, -E2BIG, -EBADF, -EPERM, -EACCES, -EBADMSG, -ENOKEY,
	-EKEYREJECTED, -ENOPKG, -ENOMEM, -EBUSY, -KERNEL_ENOTSUPP,
};

static void prog_load_attr(union bpf_attr *attr, const struct sig *sig)
{
	memset(attr, 0, sizeof(*attr));
	attr->prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr->insns = (unsigned long)prog;
	attr->insn_cnt = 2;
	attr->license = (unsigned long)"GPL";
	attr->signature = (unsigned long)sig->data;
	attr->signature_size = sig->size;
	attr->keyring_id = keyring;
}

/* A load that reaches the keyring and the signature check */
static void prog_load_signed(long iter, int *maps, int n_maps)
{
	static const __s32 keyrings[] = { 0, 1, 2, 3, -1, -2, -3, -4, -5, -6, -7, -8 };
	static const __u32 cnts[] = { 1, 2, 64, 65, UINT32_MAX };
	union bpf_attr attr;
	int fd_array[70], i;

	for (i = 0; i < 70; i++)
		fd_array[i] = next() % 4 ? maps[next() % n_maps] : (int)(next() % 1024) - 1;
	prog_load_attr(&attr, &good);
	switch (next() % 6) {
	case 0:
		expect(iter, "the right signature", sys_bpf(BPF_PROG_LOAD, &attr), 0);
		return;
	case 1:
		prog_load_attr(&attr, &stranger);
		expect(iter, "a key in no keyring", sys_bpf(BPF_PROG_LOAD, &attr), -ENOKEY);
		return;
	case 2:
		prog_load_attr(&attr, &other);
		expect(iter, "the right key over other data", sys_bpf(BPF_PROG_LOAD, &attr),
		       -EKEYREJECTED);
		return;
	case 3:
		attr.signature_size = 1 + next() % (good.size - 1);
		break;
	case 4:
		attr.keyring_id = next() % 4 ? PICK(keyrings) : (__s32)next();
		break;
	default:
		attr.fd_array = pick_ptr(fd_array);
		attr.fd_array_cnt = next() % 2 ? PICK(cnts) : next() % 70;
		break;
	}
	check(CMD_PROG_LOAD, iter, sys_bpf(BPF_PROG_LOAD, &attr), prog_load_ok,
	      sizeof(prog_load_ok) / sizeof(prog_load_ok[0]));
}

static void prog_load(long iter, int *maps, int n_maps)
{
	static const __u32 sizes[] = { 0, 1, 4096, 8192, 8193, 64 << 20, UINT32_MAX, 300 };
	static const __s32 keyrings[] = { 0, 1, 2, 3, -1, -2, -3, -4, -5, -6, -7, -8, -9,
					  INT_MAX, INT_MIN };
	static const __u32 cnts[] = { 0, 1, 2, 64, 65, UINT32_MAX };
	int fd_array[70], i, ret;
	union bpf_attr attr;

	if (good.size && next() % 2) {
		prog_load_signed(iter, maps, n_maps);
		return;
	}
	for (i = 0; i < 70; i++)
		fd_array[i] = next() % 4 ? maps[next() % n_maps] : (int)(next() % 1024) - 1;
	for (i = 0; i < (int)sizeof(sigbuf); i++)
		sigbuf[i] = next();
	if (next() % 2) {	/* a plausible DER SEQUENCE header */
		sigbuf[0] = 0x30;
		sigbuf[1] = 0x82;
	}

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (unsigned long)prog;
	attr.insn_cnt = 2;
	attr.license = (unsigned long)"GPL";
	attr.signature = pick_ptr(sigbuf);
	attr.signature_size = next() % 2 ? PICK(sizes) : next() % sizeof(sigbuf);
	attr.keyring_id = next() % 4 ? PICK(keyrings) : (__s32)next();
	attr.fd_array = pick_ptr(fd_array);
	attr.fd_array_cnt = next() % 2 ? PICK(cnts) : next() % 70;
	ret = sys_bpf(BPF_PROG_LOAD, &attr);
	/* random bytes are never a valid signature: success is a failure */
	if (attr.signature && ret >= 0) {
		failures++;
		printf("FAIL: hostile: BPF_PROG_LOAD at iteration %ld: a random signature was accepted\n",
		       iter);
	}
	check(CMD_PROG_LOAD, iter, ret, prog_load_ok,
	      sizeof(prog_load_ok) / sizeof(prog_load_ok[0]));
}

static void map_create(long iter)
{
	static const __u32 sizes[] = { 0, 31, 32, 33, UINT32_MAX };
	static const int ok[] = { 0, -EINVAL, -EFAULT };
	static unsigned char hash[32];
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = 8;
	attr.max_entries = 1;
	attr.excl_prog_hash = next() % 3 ? pick_ptr(hash) : 0;
	attr.excl_prog_hash_size = PICK(sizes);
	check(CMD_MAP_CREATE, iter, sys_bpf(BPF_MAP_CREATE, &attr), ok, sizeof(ok) / sizeof(ok[0]));
}

static void map_hash(long iter)
{
	static const __u32 sizes[] = { 0, 31, 32, 33, UINT32_MAX };
	static const int ok[] = { 0, -EINVAL, -EFAULT, -EPERM };
	struct bpf_map_info info;
	unsigned char hash[32];
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = 1 + next() % (__MAX_BPF_MAP_TYPE - 1);
	attr.key_size = 4;
	attr.value_size = 8;
	attr.max_entries = 4;
	fd = sys_bpf(BPF_MAP_CREATE, &attr);
	if (fd < 0)
		return;		/* types that need more attributes */
	if (next() % 2) {
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = fd;
		sys_bpf(BPF_MAP_FREEZE, &attr);
	}
	memset(&info, 0, sizeof(info));
	info.hash = pick_ptr(hash);
	info.hash_size = PICK(sizes);
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	attr.info.info = (unsigned long)&info;
	attr.info.info_len = sizeof(info);
	check(CMD_MAP_HASH, iter, sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr), ok,
	      sizeof(ok) / sizeof(ok[0]));
	close(fd);
}

static int dump(const char *path)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(prog, sizeof(prog), 1, f) != 1 || fclose(f)) {
		perror(path);
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const int layers[] = { 0, EBADMSG, ENOKEY, EKEYREJECTED };
	long i, iterations;
	int maps[4], j, c;
	union bpf_attr attr;

	if (argc == 3 && !strcmp(argv[1], "dump"))
		return dump(argv[2]);
	if (argc != 3 && argc != 7) {
		fprintf(stderr,
			"usage: hostile dump FILE\n"
			"       hostile SEED ITERATIONS [GOOD STRANGER OTHER KEYRING]\n");
		return 2;
	}
	if (argc == 7) {
		if (read_sig(argv[3], &good) || read_sig(argv[4], &stranger) ||
		    read_sig(argv[5], &other))
			return 2;
		keyring = strtol(argv[6], NULL, 0);
	}
	rng = strtoull(argv[1], NULL, 0) | 1;
	iterations = strtol(argv[2], NULL, 0);
	unmapped = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(unmapped, 4096);

	/* maps for fd_array: plain, exclusive+frozen, hash, frozen plain */
	for (j = 0; j < 4; j++) {
		static unsigned char h[32];

		memset(&attr, 0, sizeof(attr));
		attr.map_type = j == 2 ? BPF_MAP_TYPE_HASH : BPF_MAP_TYPE_ARRAY;
		attr.key_size = 4;
		attr.value_size = 8;
		attr.max_entries = 1;
		if (j == 1) {
			attr.excl_prog_hash = (unsigned long)h;
			attr.excl_prog_hash_size = 32;
		}
		maps[j] = sys_bpf(BPF_MAP_CREATE, &attr);
		if (j == 1 || j == 3) {
			memset(&attr, 0, sizeof(attr));
			attr.map_fd = maps[j];
			sys_bpf(BPF_MAP_FREEZE, &attr);
		}
	}

	for (i = 0; i < iterations; i++) {
		prog_load(i, maps, 4);
		map_create(i);
		map_hash(i);
	}
	for (c = 0; c < NR_CMDS; c++) {
		printf("hostile: %s:", cmd_names[c]);
		for (j = 0; j < 256; j++)
			if (counts[c][j])
				printf(" %s=%ld", j ? strerrorname_np(j) : "ok", counts[c][j]);
		printf("\n");
	}
	/* the signature check's layers, each reached at least once */
	for (j = 0; good.size && j < (int)(sizeof(layers) / sizeof(layers[0])); j++) {
		if (counts[CMD_PROG_LOAD][layers[j]])
			continue;
		failures++;
		printf("FAIL: hostile: BPF_PROG_LOAD never gave %s\n",
		       layers[j] ? strerrorname_np(layers[j]) : "a loaded program");
	}
	printf("%s: hostile: %ld iterations (seed %s%s), %ld undocumented results\n",
	       failures ? "FAIL" : "PASS", iterations, argv[1],
	       good.size ? ", half of the loads well-formed" : "", failures);
	return failures ? 1 : 0;
}
