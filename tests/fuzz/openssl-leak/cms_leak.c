// SPDX-License-Identifier: GPL-2.0
/* OpenSSL only, no bpftool: the calls that bpftool's check_signature()
 * (tools/bpf/bpftool/sign_verify.c) makes up to and including CMS_verify(),
 * with the same flags, and everything the caller owns freed. It shows that
 * the leak pkcs7_sig_fuzz finds is libcrypto's: when the SignedData's
 * digestAlgorithms names a digest OpenSSL does not know, CMS_verify() of
 * OpenSSL 3.0 fails in CMS_dataInit() and does not free the memory BIO it
 * made of the content (BIO_new_mem_buf() inside CMS_verify()).
 *
 *   cms_leak SIG.der CERT.pem PAYLOAD [extra-leak]
 *
 * Prints CMS_verify()'s result and OpenSSL's errors, and exits 0 (2 if the
 * files cannot be read), so under ASan any other status is a report. With
 * extra-leak it also leaks a block of its own, allocated in main(), which
 * a suppression of libcrypto's leak must not hide.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

static void *volatile leaked;

static unsigned char *read_file(const char *path, long *len)
{
	unsigned char *buf = NULL;
	FILE *f;

	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (*len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET))
		goto err;
	buf = malloc(*len ? *len : 1);
	if (!buf || fread(buf, 1, *len, f) != (size_t)*len)
		goto err;
	fclose(f);
	return buf;
err:
	perror(path);
	free(buf);
	if (f)
		fclose(f);
	exit(2);
}

int main(int argc, char **argv)
{
	const unsigned int flags = CMS_BINARY | CMS_NOINTERN |
				   CMS_NO_SIGNER_CERT_VERIFY;
	unsigned char *sig, *payload;
	STACK_OF(X509) *certs;
	CMS_ContentInfo *cms;
	const unsigned char *p;
	long sig_sz, payload_sz;
	X509 *cert = NULL;
	BIO *bio;
	int ret;

	if (argc != 4 && !(argc == 5 && !strcmp(argv[4], "extra-leak"))) {
		fprintf(stderr, "usage: %s SIG.der CERT.pem PAYLOAD [extra-leak]\n",
			argv[0]);
		return 2;
	}
	sig = read_file(argv[1], &sig_sz);
	payload = read_file(argv[3], &payload_sz);
	bio = BIO_new_file(argv[2], "r");
	if (bio)
		cert = PEM_read_bio_X509(bio, NULL, NULL, NULL);
	BIO_free(bio);
	p = sig;
	cms = d2i_CMS_ContentInfo(NULL, &p, sig_sz);
	certs = sk_X509_new_null();
	bio = BIO_new_mem_buf(payload, payload_sz);
	if (!cert || !cms || !certs || !bio || !sk_X509_push(certs, cert)) {
		fprintf(stderr, "cannot read %s or %s\n", argv[1], argv[2]);
		ERR_print_errors_fp(stderr);
		return 2;
	}

	ret = CMS_verify(cms, certs, NULL, bio, NULL, flags);
	printf("CMS_verify: %d\n", ret);
	ERR_print_errors_fp(stdout);

	/* everything this program allocated, as check_signature() does */
	sk_X509_free(certs);
	BIO_free(bio);
	CMS_ContentInfo_free(cms);
	X509_free(cert);
	free(payload);
	free(sig);

	if (argc == 5) {
		leaked = malloc(77);
		leaked = NULL;
	}
	return 0;
}
