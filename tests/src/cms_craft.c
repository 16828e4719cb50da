// SPDX-License-Identifier: GPL-2.0
/*
 * Craft detached CMS signatures that "openssl cms -sign" cannot make, for
 * the guest's kernel-versus-prog-verify differential test
 * (tests/guest/differential.sh). Nothing here decides whether a
 * signature is acceptable: the kernel and bpftool are asked.
 *
 *   cms_craft sign [OPTIONS] DATA CERT KEY OUT
 *       a detached DER SignedData over DATA by KEY (CERT its certificate,
 *       PEM): no signed attributes, no certificates, the signer named by
 *       subject key identifier, SHA-256, unless told otherwise:
 *     --md NAME             digest algorithm NAME
 *     --issuer-serial       name the signer by issuer and serial number
 *     --cert                carry the signer's certificate
 *     --attrs               signed attributes (contentType, messageDigest,
 *                           signingTime)
 *     --signing-time TIME   signed attributes, signingTime TIME
 *                           (YYYYMMDDHHMMSSZ; UTCTime up to 2049)
 *     --content-type OID    signed attributes, the contentType attribute
 *                           replaced by OID after signing and re-signed
 *     --message-digest HEX  signed attributes, the messageDigest attribute
 *                           replaced by HEX after signing and re-signed
 *     --sigalg OID          set the SignerInfo's signatureAlgorithm to OID
 *                           (no parameters) after signing: the signature
 *                           does not cover it
 *     --pss                 RSA-PSS padding (what openssl's
 *                           -keyopt rsa_padding_mode:pss does); not with
 *                           --content-type or --message-digest
 *     --twice               a second SignerInfo by the same key
 *     --extra-certs K       carry K more certificates: distinct ones,
 *                           self-signed by KEY, without key identifiers
 *
 *   cms_craft append N IN OUT
 *       IN followed by N random bytes
 *
 * Exit status: 0 done, 1 an OpenSSL or I/O failure, 2 bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

static void usage(void)
{
	fprintf(stderr,
		"usage: cms_craft sign [--md NAME] [--issuer-serial] [--cert] [--attrs]\n"
		"                      [--signing-time TIME] [--content-type OID]\n"
		"                      [--message-digest HEX] [--sigalg OID] [--pss] [--twice]\n"
		"                      [--extra-certs K] DATA CERT KEY OUT\n"
		"       cms_craft append N IN OUT\n");
	exit(2);
}

static void die(const char *what)
{
	fprintf(stderr, "cms_craft: %s failed\n", what);
	ERR_print_errors_fp(stderr);
	exit(1);
}

static unsigned char *read_all(const char *path, long *len)
{
	unsigned char *buf;
	FILE *f = fopen(path, "rb");

	if (!f || fseek(f, 0, SEEK_END) || (*len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		perror(path);
		exit(1);
	}
	buf = malloc(*len ? *len : 1);
	if (!buf || fread(buf, 1, *len, f) != (size_t)*len) {
		perror(path);
		exit(1);
	}
	fclose(f);
	return buf;
}

static void write_all(const char *path, const unsigned char *buf, long len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(buf, 1, len, f) != (size_t)len || fclose(f)) {
		perror(path);
		exit(1);
	}
}

static ASN1_OBJECT *oid(const char *text)
{
	ASN1_OBJECT *o = OBJ_txt2obj(text, 1);

	if (!o) {
		fprintf(stderr, "cms_craft: not an OID: %s\n", text);
		exit(2);
	}
	return o;
}

/* A certificate for KEY's public key, self-signed by KEY, unlike any other */
static X509 *extra_cert(EVP_PKEY *key, int n)
{
	X509 *x = X509_new();
	X509_NAME *name = X509_NAME_new();
	char cn[64];

	snprintf(cn, sizeof(cn), "cms_craft extra certificate %d", n);
	if (!x || !name || !X509_set_version(x, X509_VERSION_3) ||
	    !ASN1_INTEGER_set(X509_get_serialNumber(x), 1000 + n) ||
	    !X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (unsigned char *)cn, -1, -1, 0) ||
	    !X509_set_subject_name(x, name) || !X509_set_issuer_name(x, name) ||
	    !X509_gmtime_adj(X509_getm_notBefore(x), 0) ||
	    !X509_gmtime_adj(X509_getm_notAfter(x), 86400) ||
	    !X509_set_pubkey(x, key) || !X509_sign(x, key, EVP_sha256()))
		die("making an extra certificate");
	X509_NAME_free(name);
	return x;
}

/* Replace SI's signed attribute NID by one of TYPE and VALUE */
static void replace_attr(CMS_SignerInfo *si, int nid, int type, const void *value, int len)
{
	int i = CMS_signed_get_attr_by_NID(si, nid, -1);

	if (i >= 0)
		X509_ATTRIBUTE_free(CMS_signed_delete_attr(si, i));
	if (!CMS_signed_add1_attr_by_NID(si, nid, type, value, len))
		die("adding a signed attribute");
}

static int cmd_append(int argc, char **argv)
{
	long len, n;
	unsigned char *buf;
	char *end;

	if (argc != 5)
		usage();
	n = strtol(argv[2], &end, 0);
	if (*end || n < 0 || n > 1 << 20)
		usage();
	buf = read_all(argv[3], &len);
	buf = realloc(buf, len + n + 1);
	if (!buf || RAND_bytes(buf + len, n) != 1)
		die("append");
	write_all(argv[4], buf, len + n);
	free(buf);
	return 0;
}

static int cmd_sign(int argc, char **argv)
{
	const char *md_name = "sha256", *signing_time = NULL, *content_type = NULL;
	const char *message_digest = NULL, *sigalg = NULL;
	int issuer_serial = 0, with_cert = 0, attrs = 0, pss = 0, twice = 0, extra = 0;
	unsigned int flags = CMS_PARTIAL | CMS_BINARY | CMS_DETACHED | CMS_NOSMIMECAP;
	unsigned char *der = NULL, *md_value = NULL;
	STACK_OF(CMS_SignerInfo) *sis;
	CMS_ContentInfo *cms;
	CMS_SignerInfo *si;
	const EVP_MD *md;
	EVP_PKEY *key;
	BIO *in, *bio;
	X509 *cert;
	long md_len = 0;
	int i, n, der_len;

	for (i = 2; i < argc && !strncmp(argv[i], "--", 2); i++) {
		const char *opt = argv[i];

		if (!strcmp(opt, "--issuer-serial"))
			issuer_serial = 1;
		else if (!strcmp(opt, "--cert"))
			with_cert = 1;
		else if (!strcmp(opt, "--attrs"))
			attrs = 1;
		else if (!strcmp(opt, "--pss"))
			pss = 1;
		else if (!strcmp(opt, "--twice"))
			twice = 1;
		else if (i + 1 >= argc)
			usage();
		else if (!strcmp(opt, "--md"))
			md_name = argv[++i];
		else if (!strcmp(opt, "--signing-time"))
			signing_time = argv[++i], attrs = 1;
		else if (!strcmp(opt, "--content-type"))
			content_type = argv[++i], attrs = 1;
		else if (!strcmp(opt, "--message-digest"))
			message_digest = argv[++i], attrs = 1;
		else if (!strcmp(opt, "--sigalg"))
			sigalg = argv[++i];
		else if (!strcmp(opt, "--extra-certs"))
			extra = atoi(argv[++i]);
		else
			usage();
	}
	/* a re-signed SignerInfo would not use RSA-PSS */
	if (argc - i != 4 || extra < 0 || (pss && (content_type || message_digest)))
		usage();

	md = EVP_get_digestbyname(md_name);
	if (!md) {
		fprintf(stderr, "cms_craft: unknown digest %s\n", md_name);
		return 2;
	}
	if (message_digest) {
		md_value = OPENSSL_hexstr2buf(message_digest, &md_len);
		if (!md_value) {
			fprintf(stderr, "cms_craft: not hex: %s\n", message_digest);
			return 2;
		}
	}
	bio = BIO_new_file(argv[i + 1], "r");
	cert = bio ? PEM_read_bio_X509(bio, NULL, NULL, NULL) : NULL;
	if (!cert)
		die(argv[i + 1]);
	BIO_free(bio);
	bio = BIO_new_file(argv[i + 2], "r");
	key = bio ? PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL) : NULL;
	if (!key)
		die(argv[i + 2]);
	BIO_free(bio);

	if (!attrs)
		flags |= CMS_NOATTR;
	if (!with_cert)
		flags |= CMS_NOCERTS;
	if (!issuer_serial)
		flags |= CMS_USE_KEYID;
	if (pss)
		flags |= CMS_KEY_PARAM;

	cms = CMS_sign(NULL, NULL, NULL, NULL, flags);
	if (!cms)
		die("CMS_sign");
	for (n = 0; n < 1 + twice; n++) {
		/* the certificate goes in once */
		si = CMS_add1_signer(cms, cert, key, md, n ? flags | CMS_NOCERTS : flags);
		if (!si)
			die("CMS_add1_signer");
		if (pss && EVP_PKEY_CTX_set_rsa_padding(CMS_SignerInfo_get0_pkey_ctx(si),
							RSA_PKCS1_PSS_PADDING) <= 0)
			die("RSA-PSS padding");
		if (signing_time) {
			ASN1_TIME *t = ASN1_TIME_new();

			if (!t || !ASN1_TIME_set_string_X509(t, signing_time)) {
				fprintf(stderr, "cms_craft: not a time: %s\n", signing_time);
				return 2;
			}
			/* CMS_final adds a signingTime only where there is none */
			if (!CMS_signed_add1_attr_by_NID(si, NID_pkcs9_signingTime,
							 ASN1_STRING_type(t), t, -1))
				die("signingTime");
			ASN1_TIME_free(t);
		}
	}
	for (n = 0; n < extra; n++) {
		X509 *x = extra_cert(key, n + 1);

		if (!CMS_add0_cert(cms, x))
			die("CMS_add0_cert");
	}

	in = BIO_new_file(argv[i], "rb");
	if (!in || !CMS_final(cms, in, NULL, flags))
		die("CMS_final");
	BIO_free(in);

	sis = CMS_get0_SignerInfos(cms);
	for (n = 0; n < sk_CMS_SignerInfo_num(sis); n++) {
		si = sk_CMS_SignerInfo_value(sis, n);
		if (content_type || message_digest) {
			if (content_type) {
				ASN1_OBJECT *o = oid(content_type);

				replace_attr(si, NID_pkcs9_contentType, V_ASN1_OBJECT, o, -1);
				ASN1_OBJECT_free(o);
			}
			if (message_digest)
				replace_attr(si, NID_pkcs9_messageDigest, V_ASN1_OCTET_STRING,
					     md_value, md_len);
			/* CMS_final left the SignerInfo's context used up:
			 * CMS_SignerInfo_sign() signs with it as it is
			 */
			if (EVP_DigestSignInit(CMS_SignerInfo_get0_md_ctx(si), NULL, md, NULL,
					       key) <= 0 ||
			    !CMS_SignerInfo_sign(si))
				die("CMS_SignerInfo_sign");
		}
		if (sigalg) {
			X509_ALGOR *alg;

			CMS_SignerInfo_get0_algs(si, NULL, NULL, NULL, &alg);
			if (!X509_ALGOR_set0(alg, oid(sigalg), V_ASN1_UNDEF, NULL))
				die("X509_ALGOR_set0");
		}
	}

	der_len = i2d_CMS_ContentInfo(cms, &der);
	if (der_len <= 0)
		die("i2d_CMS_ContentInfo");
	write_all(argv[i + 3], der, der_len);
	OPENSSL_free(der);
	OPENSSL_free(md_value);
	CMS_ContentInfo_free(cms);
	EVP_PKEY_free(key);
	X509_free(cert);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "sign"))
		return cmd_sign(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "append"))
		return cmd_append(argc, argv);
	usage();
	return 2;
}
