// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness for the signature check of bpftool prog verify: the
 * static check_signature() of tools/bpf/bpftool/sign_verify.c (included
 * here from the patched tree), with sign.c for loading the certificate and
 * OpenSSL's libcrypto. The input is the DER signature; the signed payload
 * and the signer's certificate (PKCS7_FUZZ_CERT, the tests' signer) are
 * fixed, so seeds signed over PAYLOAD with that key take the success path.
 *
 * On top of the sanitizers, the function's promises are checked: it returns
 * 0, PROG_VERIFY_FAILED or -ENOMEM; every failure printed an error; a
 * success names the signer and both algorithms; nothing is left on
 * OpenSSL's error queue (PKCS7_FUZZ_VERBOSE=1 prints the errors). Everything bpftool's main.c would provide and the
 * checked path never reaches traps.
 */
#include "sign_verify.c"

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

bool is_prefix(const char *pfx, const char *str) { UNREACHED; }
void usage(void) { UNREACHED; }
int get_prog_sig_info(int fd, struct prog_sig_info *si) { UNREACHED; }
int prog_parse_fd(int *argc, char ***argv) { UNREACHED; }

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	CHECK(!sign_load_cert(cert_path, &signer));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sig_facts facts;
	unsigned char *sig;
	int err;

	/* an exactly sized copy, so that ASan sees any read past the end */
	sig = malloc(size ? size : 1);
	CHECK(sig);
	memcpy(sig, data, size);
	errors = 0;
	err = check_signature(sig, size, "opts_sig", signer, payload,
			      sizeof(payload) - 1, &facts);
	free(sig);

	CHECK(!ERR_peek_error());
	if (err) {
		CHECK(err == PROG_VERIFY_FAILED || err == -ENOMEM);
		CHECK(errors > 0);
		return 0;
	}
	CHECK(!errors);
	CHECK(facts.key_id[0] || (facts.issuer[0] && facts.serial[0]));
	CHECK(facts.digest_alg[0] && facts.sig_alg[0] && facts.subject[0]);
	return 0;
}
