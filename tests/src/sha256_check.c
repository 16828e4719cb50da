// SPDX-License-Identifier: GPL-2.0
/* Hash standard input with libbpf's internal SHA-256 and print the digest
 * in hex, for comparison with openssl.
 */
#include <stdio.h>
#include <stdlib.h>
#include <linux/types.h>

#define SHA256_DIGEST_LENGTH 32
void libbpf_sha256(const void *data, size_t len, __u8 out[SHA256_DIGEST_LENGTH]);

int main(void)
{
	size_t cap = 1 << 16, len = 0, n;
	__u8 digest[SHA256_DIGEST_LENGTH];
	char *buf = malloc(cap);
	int i;

	while (buf && (n = fread(buf + len, 1, cap - len, stdin)) > 0) {
		len += n;
		if (len == cap)
			buf = realloc(buf, cap *= 2);
	}
	if (!buf)
		return 2;
	libbpf_sha256(buf, len, digest);
	for (i = 0; i < SHA256_DIGEST_LENGTH; i++)
		printf("%02x", digest[i]);
	printf("\n");
	free(buf);
	return 0;
}
