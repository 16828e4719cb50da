// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness for the signature check of bpftool prog verify file:
 * check_signature() of tools/bpf/bpftool/verify_header.c (included here
 * from the patched tree), with sign.c for loading the certificate and
 * hashing its key, lskel_header.c and OpenSSL's libcrypto. The input is the
 * DER signature; the signed payload (PAYLOAD, which begins with PAYLOAD_INSN,
 * standing for the loader's instructions) and the signer's certificate
 * (PKCS7_FUZZ_CERT, the tests' signer) are fixed, so seeds signed over
 * PAYLOAD with that key take the success path, and seeds signed over the
 * instructions alone the path of 6.18-protocol signatures.
 *
 * On top of the sanitizers, the function's promises are checked: it returns
 * 0 or PROG_VERIFY_FAILED (or -EINVAL/-ENOMEM when libcrypto fails); every
 * failure printed an error; a success names the signer, its key digest and
 * both algorithms, and covers one map; nothing is left on OpenSSL's error
 * queue (PKCS7_FUZZ_VERBOSE=1 prints the errors). Everything bpftool's
 * main.c would provide and the checked path never reaches traps.
 */
#include "verify_header.c"

#include <stdarg.h>
#include <stdint.h>

#define CHECK(cond)	do { if (!(cond)) __builtin_trap(); } while (0)
#define UNREACHED	__builtin_trap()

static const char payload[] = PAYLOAD;
static X509 *signer;
static int errors;

/* What main.c and the other bpftool objects provide */
json_writer_t *json_wtr;
bool json_output;
const char *private_key_path;
const char *cert_path = PKCS7_FUZZ_CERT;

void p_err(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	CHECK(vsnprintf(msg, sizeof(msg), fmt, ap) > 0);
	va_end(ap);
	/* to see why a seed takes the path it takes */
	if (getenv("PKCS7_FUZZ_VERBOSE"))
		fprintf(stderr, "p_err: %s\n", msg);
	errors++;
}

void p_info(const char *fmt, ...)
{
}

/* as common.c's */
void bin2hex(char *dst, const void *src, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = src;
	size_t i;

	for (i = 0; i < n; i++) {
		dst[2 * i] = hex[p[i] >> 4];
		dst[2 * i + 1] = hex[p[i] & 0xf];
	}
	dst[2 * n] = '\0';
}

bool is_prefix(const char *pfx, const char *str) { UNREACHED; }
void usage(void) { UNREACHED; }
void print_sig_verdict_json(const char *name, const struct sig_verdict *v) { UNREACHED; }

/* The "header": its payload, and its loader's instructions (a prefix) */
static struct header_file header = {
	.path		= "fuzz.lskel.h",
	.payload	= (unsigned char *)payload,
	.payload_sz	= sizeof(payload) - 1,
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	CHECK(!sign_load_cert(cert_path, &signer));
	header.h.blob[LSKEL_INSN].present = true;
	header.h.blob[LSKEL_INSN].data = (__u8 *)payload;
	header.h.blob[LSKEL_INSN].size = sizeof(PAYLOAD_INSN) - 1;
	CHECK(!strncmp(payload, PAYLOAD_INSN, sizeof(PAYLOAD_INSN) - 1));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sig_verdict v;
	struct sig_algs algs;
	unsigned char *sig;
	int err;

	/* an exactly sized copy, so that ASan sees any read past the end */
	sig = malloc(size ? size : 1);
	CHECK(sig);
	memcpy(sig, data, size);
	errors = 0;
	err = check_signature(sig, size, "opts_sig", signer, &header, &v, &algs);
	free(sig);

	CHECK(!ERR_peek_error());
	if (err) {
		CHECK(err == PROG_VERIFY_FAILED || err == -EINVAL || err == -ENOMEM);
		CHECK(errors > 0 || err == -EINVAL);
		CHECK(!v.verified);
		return 0;
	}
	CHECK(!errors);
	CHECK(v.verified && v.covers_maps == 1);
	CHECK(v.key_id[0] || (v.issuer[0] && v.serial[0]));
	CHECK(strlen(v.key) == SHA256_HEX_LEN);
	CHECK(algs.digest[0] && algs.signature[0] && v.subject[0]);
	return 0;
}
