// SPDX-License-Identifier: GPL-2.0
/*
 * The SHA-256 of a map's contents through BPF_OBJ_GET_INFO_BY_FD.
 *
 *   map_hash errors                 the refusals, as PASS/FAIL lines
 *   map_hash hash VSIZE ENTRIES     create an ARRAY whose element i holds
 *                                   bytes (i * VSIZE + j) & 0xff, freeze it,
 *                                   print the kernel's hash in hex
 */
#include <stddef.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <bpf/bpf.h>

#include "testlib.h"

static int create(enum bpf_map_type type, __u32 value_size, __u32 max_entries)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = type;
	attr.key_size = 4;
	attr.value_size = value_size;
	attr.max_entries = max_entries;
	return sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
}

static int freeze(int fd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	return sys_bpf(BPF_MAP_FREEZE, &attr, sizeof(attr));
}

static int get_hash(int fd, __u64 hash_ptr, __u32 hash_size, __u32 info_len)
{
	struct bpf_map_info info;
	union bpf_attr attr;

	memset(&info, 0, sizeof(info));
	info.hash = hash_ptr;
	info.hash_size = hash_size;
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	attr.info.info = (unsigned long)&info;
	attr.info.info_len = info_len;
	return sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr));
}

static void fill(int fd, __u32 value_size, __u32 max_entries)
{
	unsigned char *value = malloc(value_size);
	__u32 i, j;

	for (i = 0; i < max_entries; i++) {
		for (j = 0; j < value_size; j++)
			value[j] = (i * value_size + j) & 0xff;
		if (bpf_map_update_elem(fd, &i, value, 0))
			exit(2);
	}
	free(value);
}

static void test_errors(void)
{
	__u8 hash[32];
	__u64 h = (unsigned long)hash;
	int arr, err, fd;
	void *page;

	arr = create(BPF_MAP_TYPE_ARRAY, 8, 4);
	err = get_hash(arr, h, 32, sizeof(struct bpf_map_info));
	CHECK("map hash: array not frozen is EPERM", err == -EPERM, "got %d", err);
	err = get_hash(arr, 0, 0, sizeof(struct bpf_map_info));
	CHECK("map hash: no hash requested still works unfrozen", err == 0, "got %d", err);
	CHECK("map hash: freeze", freeze(arr) == 0, "freeze failed");
	err = get_hash(arr, h, 32, sizeof(struct bpf_map_info));
	CHECK("map hash: frozen array gives its hash", err == 0, "got %d", err);
	err = get_hash(arr, h, 31, sizeof(struct bpf_map_info));
	CHECK("map hash: hash_size 31 is EINVAL", err == -EINVAL, "got %d", err);
	err = get_hash(arr, h, 33, sizeof(struct bpf_map_info));
	CHECK("map hash: hash_size 33 is EINVAL", err == -EINVAL, "got %d", err);
	err = get_hash(arr, h, 0, sizeof(struct bpf_map_info));
	CHECK("map hash: hash without size is EINVAL", err == -EINVAL, "got %d", err);
	err = get_hash(arr, 0, 32, sizeof(struct bpf_map_info));
	CHECK("map hash: size without hash is EINVAL", err == -EINVAL, "got %d", err);
	page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(page, 4096);
	err = get_hash(arr, (unsigned long)page, 32, sizeof(struct bpf_map_info));
	CHECK("map hash: unmapped hash buffer is EFAULT", err == -EFAULT, "got %d", err);
	/* The explicit padding after hash_size must be zero */
	{
		struct bpf_map_info info;
		union bpf_attr attr;
		size_t pad = offsetof(struct bpf_map_info, hash_size) + sizeof(info.hash_size);

		memset(&info, 0, sizeof(info));
		memset((char *)&info + pad, 0x5a, sizeof(info) - pad);
		memset(&attr, 0, sizeof(attr));
		attr.info.bpf_fd = arr;
		attr.info.info = (unsigned long)&info;
		attr.info.info_len = sizeof(info);
		err = sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr));
		CHECK("map hash: non-zero padding after hash_size is EINVAL",
		      sizeof(info) > pad && err == -EINVAL, "got %d (padding %zu bytes)", err,
		      sizeof(info) - pad);
	}
	/* An old caller's shorter struct never reaches the hash fields */
	err = get_hash(arr, h, 32, offsetof(struct bpf_map_info, hash));
	CHECK("map hash: old struct size ignores the hash fields", err == 0, "got %d", err);
	{
		__u32 key = 0;
		__u64 v = 1;

		err = bpf_map_update_elem(arr, &key, &v, 0);
		CHECK("map hash: update after freeze is EPERM", err == -EPERM, "got %d", err);
	}
	close(arr);

	fd = create(BPF_MAP_TYPE_HASH, 8, 4);
	freeze(fd);
	err = get_hash(fd, h, 32, sizeof(struct bpf_map_info));
	CHECK("map hash: frozen HASH map is EINVAL", err == -EINVAL, "got %d", err);
	close(fd);
	fd = create(BPF_MAP_TYPE_PERCPU_ARRAY, 8, 4);
	freeze(fd);
	err = get_hash(fd, h, 32, sizeof(struct bpf_map_info));
	CHECK("map hash: frozen PERCPU_ARRAY is EINVAL", err == -EINVAL, "got %d", err);
	close(fd);
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "errors")) {
		test_errors();
		return test_failures ? 1 : 0;
	}
	if (argc == 4 && !strcmp(argv[1], "hash")) {
		__u32 vsize = strtoul(argv[2], NULL, 0), n = strtoul(argv[3], NULL, 0);
		__u8 hash[32];
		int fd, err, i;

		fd = create(BPF_MAP_TYPE_ARRAY, vsize, n);
		if (fd < 0)
			return 2;
		fill(fd, vsize, n);
		if (freeze(fd))
			return 2;
		err = get_hash(fd, (unsigned long)hash, 32, sizeof(struct bpf_map_info));
		if (err) {
			fprintf(stderr, "get_info: %d\n", err);
			return 1;
		}
		for (i = 0; i < 32; i++)
			printf("%02x", hash[i]);
		printf("\n");
		return 0;
	}
	fprintf(stderr, "usage: map_hash errors | map_hash hash VALUE_SIZE MAX_ENTRIES\n");
	return 2;
}
