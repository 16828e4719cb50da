// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness for bpftool's light skeleton header parser
 * (tools/bpf/bpftool/lskel_header.c, built from the patched tree;
 * lskel_header.h declares it, nothing of bpftool or libbpf is linked).
 *
 * Every input is parsed from an exactly sized heap copy (so ASan sees any
 * read past the end), and the parser's promises are checked on top of the
 * sanitizers: on failure an error message and a zeroed result; on success
 * each blob's text in the input is exactly what lskel_blob_render() prints
 * for the decoded bytes, so a header can be rewritten blob by blob.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lskel_header.h"

#define CHECK(cond)	do { if (!(cond)) __builtin_trap(); } while (0)

static const char * const names[LSKEL_BLOB_CNT] = {
	[LSKEL_DATA]		= "opts_data",
	[LSKEL_INSN]		= "opts_insn",
	[LSKEL_SIG]		= "opts_sig",
	[LSKEL_EXCL_HASH]	= "opts_excl_hash",
};

/* Nothing left allocated or set, as after lskel_header_free() */
static void check_empty(const struct lskel_header *h)
{
	int i;

	CHECK(!h->is_signed);
	for (i = 0; i < LSKEL_BLOB_CNT; i++)
		CHECK(!h->blob[i].present && !h->blob[i].data && !h->blob[i].size);
}

static void check_blob(const char *buf, size_t len, int i,
		       const struct lskel_blob *b)
{
	size_t text_len;
	char *text;

	if (!b->present) {
		CHECK(!b->data && !b->size && !b->start && !b->end);
		return;
	}
	CHECK(b->data && b->line > 0);
	CHECK(b->start < b->end && b->end <= len);
	text = lskel_blob_render(names[i], b->data, b->size, &text_len);
	CHECK(text);
	CHECK(text_len == b->end - b->start);
	CHECK(!memcmp(text, buf + b->start, text_len));
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lskel_header h;
	char err[256];
	int i, ret;

	ret = lskel_header_parse((const char *)data, size, &h, err, sizeof(err));
	if (ret) {
		CHECK(ret == -EINVAL);
		CHECK(err[0] && memchr(err, '\0', sizeof(err)));
		check_empty(&h);
		return 0;
	}
	CHECK(h.blob[LSKEL_DATA].present && h.blob[LSKEL_INSN].present);
	CHECK(h.is_signed == h.blob[LSKEL_SIG].present);
	CHECK(h.blob[LSKEL_INSN].size && h.blob[LSKEL_INSN].size % 8 == 0);
	if (h.is_signed) {
		CHECK(h.blob[LSKEL_SIG].size && h.blob[LSKEL_SIG].size <= MAX_SIG_SIZE);
		CHECK(h.blob[LSKEL_EXCL_HASH].size == SHA256_DIGEST_LENGTH);
	}
	for (i = 0; i < LSKEL_BLOB_CNT; i++)
		check_blob((const char *)data, size, i, &h.blob[i]);
	lskel_header_free(&h);
	check_empty(&h);
	return 0;
}
