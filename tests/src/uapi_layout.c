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
	return 0;
}
