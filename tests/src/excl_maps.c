// SPDX-License-Identifier: GPL-2.0
/*
 * Exclusive maps and the SHA-256 program digest, checked in the guest.
 *
 *   excl_maps libbpf        libbpf API: owner loads and writes, another
 *                           program is refused with -EACCES
 *   excl_maps attrs         BPF_MAP_CREATE attribute checks, map-in-map
 *   excl_maps tags          map fds do not change a program's tag
 *   excl_maps dump FILE     write the normalised instructions of the test
 *                           program (map fd immediates zeroed) to FILE
 *   excl_maps digest HEX [PIN_DIR]
 *                           HEX is SHA-256(FILE) computed elsewhere: the
 *                           program's tag is its first 8 bytes, and a map
 *                           made exclusive to HEX admits the program and
 *                           refuses a one-instruction variant; the owner
 *                           and the map are pinned in PIN_DIR if given
 */
#include <stdarg.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "testlib.h"
#include "map_excl.skel.h"

#define HASH_SIZE 32

static char libbpf_log[64 * 1024];

static int capture_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	size_t len = strlen(libbpf_log);

	if (len < sizeof(libbpf_log) - 1)
		vsnprintf(libbpf_log + len, sizeof(libbpf_log) - len, fmt, args);
	return 0;
}

static void test_libbpf(void)
{
	struct map_excl *skel;
	__u32 key = 0, value = 0;
	int err;

	/* The owner loads, and its writes land in the map. */
	skel = map_excl__open();
	if (!skel) {
		CHECK("libbpf: open skeleton", 0, "errno %d", errno);
		return;
	}
	err = bpf_map__set_exclusive_program(skel->maps.excl_map,
					     skel->progs.should_have_access);
	CHECK("libbpf: set exclusive program", err == 0, "err %d", err);
	CHECK("libbpf: exclusive program reads back",
	      bpf_map__exclusive_program(skel->maps.excl_map) == skel->progs.should_have_access,
	      "wrong program");
	bpf_program__set_autoload(skel->progs.should_have_access, true);
	err = map_excl__load(skel);
	CHECK("libbpf: owner program loads", err == 0, "err %d", err);
	if (!err) {
		err = bpf_map__set_exclusive_program(skel->maps.excl_map, NULL);
		CHECK("libbpf: exclusivity cannot change after creation", err == -EINVAL,
		      "err %d", err);
		err = map_excl__attach(skel);
		CHECK("libbpf: owner program attaches", err == 0, "err %d", err);
		syscall(SYS_getpgid, 0);
		err = bpf_map_lookup_elem(bpf_map__fd(skel->maps.excl_map), &key, &value);
		CHECK("libbpf: owner program updated the map",
		      err == 0 && value == 0xdeadbeef, "err %d value %#x", err, value);
	}
	map_excl__destroy(skel);

	/* An owner that is not loaded is refused before the map is created. */
	skel = map_excl__open();
	if (!skel)
		return;
	bpf_map__set_exclusive_program(skel->maps.excl_map, skel->progs.should_have_access);
	bpf_program__set_autoload(skel->progs.should_not_have_access, true);
	libbpf_log[0] = 0;
	libbpf_set_print(capture_print);
	err = map_excl__load(skel);
	libbpf_set_print(NULL);
	CHECK("libbpf: owner with autoload off is refused with EINVAL", err == -EINVAL,
	      "err %d", err);
	CHECK("libbpf: ... and the message names the map and the program",
	      strstr(libbpf_log, "map 'excl_map': exclusive program 'should_have_access' is not loaded (autoload is off)\n"),
	      "log:\n%s", libbpf_log);
	map_excl__destroy(skel);

	/* An owner that reads globals: libbpf's digest zeroes the variables'
	 * offsets in the second half of each ld_imm64, as the kernel's does
	 */
	skel = map_excl__open();
	if (!skel)
		return;
	bpf_map__set_exclusive_program(skel->maps.excl_map, skel->progs.owner_globals);
	bpf_program__set_autoload(skel->progs.owner_globals, true);
	err = map_excl__load(skel);
	CHECK("libbpf: an owner reading globals (ld_imm64 of a map value) loads", err == 0,
	      "err %d", err);
	if (!err) {
		const struct bpf_insn *insn = bpf_program__insns(skel->progs.owner_globals);
		size_t i, n = bpf_program__insn_cnt(skel->progs.owner_globals);
		int offset = 0;

		for (i = 0; i + 1 < n; i++)
			if (insn[i].code == (BPF_LD | BPF_IMM | BPF_DW) &&
			    insn[i].src_reg == BPF_PSEUDO_MAP_VALUE && insn[i + 1].imm)
				offset = insn[i + 1].imm;
		CHECK("libbpf: ... and one of the globals is at a non-zero offset", offset != 0,
		      "no ld_imm64 with an offset in %zu instructions", n);
	}
	map_excl__destroy(skel);

	/* Any other program is refused, and the verifier log says why. */
	skel = map_excl__open();
	if (!skel)
		return;
	bpf_map__set_exclusive_program(skel->maps.excl_map, skel->progs.should_have_access);
	bpf_program__set_autoload(skel->progs.should_have_access, true);
	bpf_program__set_autoload(skel->progs.should_not_have_access, true);
	libbpf_log[0] = 0;
	libbpf_set_print(capture_print);
	err = map_excl__load(skel);
	libbpf_set_print(NULL);
	CHECK("libbpf: other program is refused with EACCES", err == -EACCES, "err %d", err);
	CHECK("libbpf: verifier log names the exclusive map",
	      strstr(libbpf_log, "program's hash doesn't match map's excl_prog_hash\n"),
	      "log:\n%s", libbpf_log);
	map_excl__destroy(skel);
}

static int create_map(enum bpf_map_type type, __u64 hash, __u32 hash_size, int inner_fd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = type;
	attr.key_size = 4;
	attr.value_size = 4;
	attr.max_entries = 1;
	attr.inner_map_fd = inner_fd;
	attr.excl_prog_hash = hash;
	attr.excl_prog_hash_size = hash_size;
	return sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
}

/* insn[0..1] = ld_imm64 REG, map FD (insn[1] left zero) */
static void ld_map_fd(struct bpf_insn *insn, int reg, int fd)
{
	insn[0].code = BPF_LD | BPF_DW | BPF_IMM;
	insn[0].dst_reg = reg;
	insn[0].src_reg = BPF_PSEUDO_MAP_FD;
	insn[0].imm = fd;
}

/* A socket filter of CNT instructions; with LOG, the verifier's log */
static int load_insns(const struct bpf_insn *insns, __u32 cnt, char *log, size_t log_sz)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = cnt;
	attr.license = (unsigned long)"GPL";
	if (log) {
		log[0] = 0;
		attr.log_buf = (unsigned long)log;
		attr.log_size = log_sz;
		attr.log_level = 1;
	}
	return sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
}

/* r2 = prog array (ld_imm64, map fd); r3 = 0; tail call; r0 = 0; exit */
static int load_tail_call(int prog_array_fd)
{
	struct bpf_insn insns[6];

	memset(insns, 0, sizeof(insns));
	ld_map_fd(insns, BPF_REG_2, prog_array_fd);
	insns[2].code = BPF_ALU64 | BPF_MOV | BPF_K;
	insns[2].dst_reg = BPF_REG_3;
	insns[3].code = BPF_JMP | BPF_CALL;
	insns[3].imm = BPF_FUNC_tail_call;
	insns[4].code = BPF_ALU64 | BPF_MOV | BPF_K;
	insns[4].dst_reg = BPF_REG_0;
	insns[5].code = BPF_JMP | BPF_EXIT;

	return load_insns(insns, 6, NULL, 0);
}

/* Tail calls: a program array exclusive to another program cannot be
 * jumped through (the verifier checks it as any map the program names).
 */
static void test_tail_call(__u64 hash)
{
	int excl, plain, prog;

	plain = create_map(BPF_MAP_TYPE_PROG_ARRAY, 0, 0, 0);
	prog = plain >= 0 ? load_tail_call(plain) : -1;
	CHECK("tail call: through an ordinary prog array, the program loads", prog >= 0,
	      "map %d prog %d", plain, prog);
	if (prog >= 0)
		close(prog);
	if (plain >= 0)
		close(plain);

	excl = create_map(BPF_MAP_TYPE_PROG_ARRAY, hash, HASH_SIZE, 0);
	CHECK("tail call: exclusive prog array is created", excl >= 0, "got %d", excl);
	if (excl < 0)
		return;
	prog = load_tail_call(excl);
	CHECK("tail call: through a prog array exclusive to another program is EACCES",
	      prog == -EACCES, "got %d", prog);
	if (prog >= 0)
		close(prog);
	close(excl);
}

static void test_attrs(void)
{
	static const __u8 hash[HASH_SIZE] = { 1, 2, 3 };
	__u64 h = (unsigned long)hash, unmapped;
	int fd, excl, inner, outer, err;
	void *page;

	fd = create_map(BPF_MAP_TYPE_ARRAY, h, 31, 0);
	CHECK("attr: excl_prog_hash_size 31 is EINVAL", fd == -EINVAL, "got %d", fd);
	fd = create_map(BPF_MAP_TYPE_ARRAY, h, 33, 0);
	CHECK("attr: excl_prog_hash_size 33 is EINVAL", fd == -EINVAL, "got %d", fd);
	fd = create_map(BPF_MAP_TYPE_ARRAY, h, 0xffffffff, 0);
	CHECK("attr: excl_prog_hash_size UINT32_MAX is EINVAL", fd == -EINVAL, "got %d", fd);
	fd = create_map(BPF_MAP_TYPE_ARRAY, h, 0, 0);
	CHECK("attr: hash without size is EINVAL", fd == -EINVAL, "got %d", fd);
	fd = create_map(BPF_MAP_TYPE_ARRAY, 0, HASH_SIZE, 0);
	CHECK("attr: size without hash is EINVAL", fd == -EINVAL, "got %d", fd);
	fd = create_map(BPF_MAP_TYPE_ARRAY, 8, HASH_SIZE, 0);
	CHECK("attr: hash pointer 0x8 is EFAULT", fd == -EFAULT, "got %d", fd);
	page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(page, 4096);
	unmapped = (unsigned long)page;
	fd = create_map(BPF_MAP_TYPE_ARRAY, unmapped, HASH_SIZE, 0);
	CHECK("attr: unmapped hash pointer is EFAULT", fd == -EFAULT, "got %d", fd);

	excl = create_map(BPF_MAP_TYPE_ARRAY, h, HASH_SIZE, 0);
	CHECK("attr: valid hash creates the map", excl >= 0, "got %d", excl);
	if (excl < 0)
		return;

	/* Map-in-map: an exclusive map is neither a template nor an element. */
	fd = create_map(BPF_MAP_TYPE_ARRAY_OF_MAPS, 0, 0, excl);
	CHECK("map-in-map: exclusive inner template is EINVAL", fd == -EINVAL, "got %d", fd);
	inner = create_map(BPF_MAP_TYPE_ARRAY, 0, 0, 0);
	outer = create_map(BPF_MAP_TYPE_ARRAY_OF_MAPS, 0, 0, inner);
	CHECK("map-in-map: ordinary outer map is created", outer >= 0, "got %d", outer);
	if (outer >= 0) {
		__u32 key = 0;

		err = bpf_map_update_elem(outer, &key, &inner, 0);
		CHECK("map-in-map: ordinary inner map is inserted", err == 0, "err %d", err);
		err = bpf_map_update_elem(outer, &key, &excl, 0);
		CHECK("map-in-map: exclusive inner map is EINVAL", err == -EINVAL, "err %d", err);
		close(outer);
	}
	close(inner);
	close(excl);
	test_tail_call(h);
}

/* r1 = map (ld_imm64, map fd); r0 = ret; exit */
static void build_prog(struct bpf_insn insns[4], int map_fd, int ret)
{
	memset(insns, 0, 4 * sizeof(*insns));
	ld_map_fd(insns, BPF_REG_1, map_fd);
	insns[2].code = BPF_ALU64 | BPF_MOV | BPF_K;
	insns[2].dst_reg = BPF_REG_0;
	insns[2].imm = ret;
	insns[3].code = BPF_JMP | BPF_EXIT;
}

static int load_prog(int map_fd, int ret, char *log, size_t log_sz)
{
	struct bpf_insn insns[4];

	build_prog(insns, map_fd, ret);
	return load_insns(insns, 4, log, log_sz);
}

static int prog_tag(int prog_fd, __u8 tag[BPF_TAG_SIZE])
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int err;

	err = bpf_prog_get_info_by_fd(prog_fd, &info, &len);
	memcpy(tag, info.tag, BPF_TAG_SIZE);
	return err;
}

static void test_tags(void)
{
	__u8 tag_a[BPF_TAG_SIZE], tag_b[BPF_TAG_SIZE], tag_c[BPF_TAG_SIZE];
	int map_a, map_b, pa, pb, pc;

	map_a = create_map(BPF_MAP_TYPE_ARRAY, 0, 0, 0);
	map_b = create_map(BPF_MAP_TYPE_ARRAY, 0, 0, 0);
	pa = load_prog(map_a, 0, NULL, 0);
	pb = load_prog(map_b, 0, NULL, 0);
	pc = load_prog(map_a, 1, NULL, 0);
	CHECK("tag: test programs load", pa >= 0 && pb >= 0 && pc >= 0,
	      "%d %d %d", pa, pb, pc);
	if (pa < 0 || pb < 0 || pc < 0)
		return;
	prog_tag(pa, tag_a);
	prog_tag(pb, tag_b);
	prog_tag(pc, tag_c);
	CHECK("tag: two maps, one program, one tag", !memcmp(tag_a, tag_b, BPF_TAG_SIZE),
	      "tags differ");
	CHECK("tag: another instruction, another tag", memcmp(tag_a, tag_c, BPF_TAG_SIZE),
	      "tags equal");
}

static int dump_insns(const char *path)
{
	struct bpf_insn insns[4];
	FILE *f = fopen(path, "w");

	if (!f)
		return 1;
	build_prog(insns, 0, 0);	/* the kernel zeroes the map fd */
	fwrite(insns, sizeof(insns), 1, f);
	return fclose(f) ? 1 : 0;
}

static void test_digest(const char *hex, const char *pin_dir)
{
	__u8 hash[HASH_SIZE], tag[BPF_TAG_SIZE];
	static char log[4096];
	int map, owner, other, plain;

	if (parse_hex(hex, hash, HASH_SIZE)) {
		CHECK("digest: argument is 64 hex digits", 0, "'%s'", hex);
		return;
	}
	plain = create_map(BPF_MAP_TYPE_ARRAY, 0, 0, 0);
	owner = load_prog(plain, 0, NULL, 0);
	CHECK("digest: program loads", owner >= 0, "got %d", owner);
	if (owner < 0)
		return;
	prog_tag(owner, tag);
	CHECK("digest: tag is the first 8 bytes of openssl's SHA-256",
	      !memcmp(tag, hash, BPF_TAG_SIZE), "tag %02x%02x%02x%02x...", tag[0], tag[1],
	      tag[2], tag[3]);
	close(owner);

	map = create_map(BPF_MAP_TYPE_ARRAY, (unsigned long)hash, HASH_SIZE, 0);
	CHECK("digest: map exclusive to openssl's digest is created", map >= 0, "got %d", map);
	owner = load_prog(map, 0, log, sizeof(log));
	CHECK("digest: program with that digest uses the map", owner >= 0,
	      "got %d, log: %s", owner, log);
	other = load_prog(map, 1, log, sizeof(log));
	CHECK("digest: one instruction changed is EACCES", other == -EACCES, "got %d", other);
	CHECK("digest: verifier log says why",
	      strstr(log, "program's hash doesn't match map's excl_prog_hash"), "log: %s", log);

	if (pin_dir && owner >= 0 && map >= 0) {
		char path[256];

		snprintf(path, sizeof(path), "%s/owner", pin_dir);
		CHECK("digest: owner program pinned", !bpf_obj_pin(owner, path), "errno %d", errno);
		snprintf(path, sizeof(path), "%s/excl_map", pin_dir);
		CHECK("digest: exclusive map pinned", !bpf_obj_pin(map, path), "errno %d", errno);
	}
}

/* Near misses of the owner's digest: a map exclusive to the digest with
 * its last byte changed, or with only its first 8 bytes (the tag) right,
 * admits no program, the owner included
 */
static void test_digest_near(const char *hex)
{
	static const int at[] = { HASH_SIZE - 1, BPF_TAG_SIZE };
	__u8 hash[HASH_SIZE], near[HASH_SIZE];
	static char log[4096];
	int i, map, prog;

	if (parse_hex(hex, hash, HASH_SIZE)) {
		CHECK("near: argument is 64 hex digits", 0, "'%s'", hex);
		return;
	}
	for (i = 0; i < 2; i++) {
		memcpy(near, hash, HASH_SIZE);
		near[at[i]] ^= 1;
		map = create_map(BPF_MAP_TYPE_ARRAY, (unsigned long)near, HASH_SIZE, 0);
		prog = map < 0 ? map : load_prog(map, 0, log, sizeof(log));
		CHECK(i ? "near: a map exclusive to the owner's digest with byte 8 changed: EACCES" :
			  "near: a map exclusive to the owner's digest with byte 31 changed: EACCES",
		      prog == -EACCES, "got %d", prog);
		if (prog >= 0)
			close(prog);
		if (map >= 0)
			close(map);
	}
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	if (!strcmp(cmd, "libbpf"))
		test_libbpf();
	else if (!strcmp(cmd, "attrs"))
		test_attrs();
	else if (!strcmp(cmd, "tags"))
		test_tags();
	else if (!strcmp(cmd, "dump") && argc == 3)
		return dump_insns(argv[2]);
	else if (!strcmp(cmd, "digest") && (argc == 3 || argc == 4))
		test_digest(argv[2], argc == 4 ? argv[3] : NULL);
	else if (!strcmp(cmd, "near") && argc == 3)
		test_digest_near(argv[2]);
	else {
		fprintf(stderr, "usage: %s libbpf|attrs|tags|dump FILE|digest HEX [PIN_DIR]|near HEX\n",
			argv[0]);
		return 2;
	}
	return test_failures ? 1 : 0;
}
