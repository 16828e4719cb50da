// SPDX-License-Identifier: GPL-2.0
/*
 * The signed loader alone, without the checks the generated __load() makes
 * after it: a signed light skeleton's loader must take its maps' sizes and
 * initial values from its signed metadata, whatever the skeleton's context
 * says, even if nothing compared them afterwards (a second check must not
 * hide a first one that is gone).
 *
 *   loader_layer INSN DATA SIG EXCL
 *
 * INSN, DATA and SIG are settings.lskel.h's opts_insn, opts_data and
 * opts_sig (tests/lskel-blob dump), EXCL the loader's digest in hex
 * (openssl's SHA-256 of INSN). The skeleton is opened as usual, its
 * context changed as a caller could (setting_map's max_entries 4 instead
 * of the signed 8, .rodata's setting_ro 7 instead of 1, .data's
 * setting_data 0x55), and bpf_load_and_run() called with what __load()
 * passes, the keyring being the session keyring. Then the map and the
 * program the loader created are read directly: max_entries must be 8,
 * and get_settings() must see the signed values (ro << 16 | data << 8 |
 * bss = 0x10200): the caller's .data reaches the map only through
 * __load(), after the loader ran.
 */
#include <linux/keyctl.h>

#include "testlib.h"
#include "settings.lskel.h"

static unsigned int map_max_entries(int fd)
{
	struct bpf_map_info info;
	union bpf_attr attr;

	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	attr.info.info = (unsigned long)&info;
	attr.info.info_len = sizeof(info);
	return sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr)) ? 0 : info.max_entries;
}

int main(int argc, char **argv)
{
	struct bpf_load_and_run_opts opts = {};
	unsigned char excl[32];
	size_t insn_sz, data_sz, sig_sz;
	struct settings *skel;
	union bpf_attr attr;
	void *insn, *data, *sig;
	int err;

	if (argc != 5) {
		fprintf(stderr, "usage: loader_layer INSN DATA SIG EXCL\n");
		return 2;
	}
	insn = read_file(argv[1], &insn_sz);
	data = read_file(argv[2], &data_sz);
	sig = read_file(argv[3], &sig_sz);
	skel = settings__open();
	if (!insn || !data || !sig || !skel || parse_hex(argv[4], excl, sizeof(excl))) {
		fprintf(stderr, "loader_layer: setup failed\n");
		return 2;
	}
	skel->maps.setting_map.max_entries = 4;
	skel->rodata->setting_ro = 7;
	skel->data->setting_data = 0x55;

	opts.ctx = (struct bpf_loader_ctx *)skel;
	opts.insns = insn;
	opts.insns_sz = insn_sz;
	opts.data = data;
	opts.data_sz = data_sz;
	opts.signature = sig;
	opts.signature_sz = sig_sz;
	opts.excl_prog_hash = excl;
	opts.excl_prog_hash_sz = sizeof(excl);
	opts.keyring_id = KEY_SPEC_SESSION_KEYRING;
	err = bpf_load_and_run(&opts);
	CHECK("loader layer: the signed loader runs with a changed context", err == 0,
	      "err %d (%s)", err, opts.errstr ? opts.errstr : "");
	if (err)
		return 1;

	CHECK("loader layer: the loader creates setting_map with the signed max_entries, not the context's",
	      map_max_entries(skel->maps.setting_map.map_fd) == 8, "%u",
	      map_max_entries(skel->maps.setting_map.map_fd));
	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = skel->progs.get_settings.prog_fd;
	err = sys_bpf(BPF_PROG_TEST_RUN, &attr, sizeof(attr));
	CHECK("loader layer: the program sees the signed .rodata and .data, not the context's",
	      !err && attr.test.retval == 0x10200, "err %d, retval %#x", err, attr.test.retval);
	settings__destroy(skel);
	return test_failures ? 1 : 0;
}
