// SPDX-License-Identifier: GPL-2.0
/* Print the offsets of the UAPI fields this project adds, from whichever
 * copy of linux/bpf.h the include path selects.
 */
#include <stddef.h>
#include <stdio.h>
#include <linux/bpf.h>

#define FIELD(type, f) \
	printf("%s.%s %zu %zu\n", #type, #f, offsetof(type, f), sizeof(((type *)0)->f))

int main(void)
{
	FIELD(union bpf_attr, map_token_fd);
	FIELD(union bpf_attr, excl_prog_hash);
	FIELD(union bpf_attr, excl_prog_hash_size);
	FIELD(union bpf_attr, prog_token_fd);
	FIELD(union bpf_attr, fd_array_cnt);
	FIELD(union bpf_attr, signature);
	FIELD(union bpf_attr, signature_size);
	FIELD(union bpf_attr, keyring_id);
	FIELD(struct bpf_map_info, map_extra);
	FIELD(struct bpf_map_info, hash);
	FIELD(struct bpf_map_info, hash_size);
	printf("sizeof(struct bpf_map_info) %zu\n", sizeof(struct bpf_map_info));
	return 0;
}
