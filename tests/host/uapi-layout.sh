#!/usr/bin/env bash
# The new UAPI fields sit at upstream's offsets, in include/uapi and in the
# tools/include/uapi copy that libbpf and bpftool build against.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

# upstream-contract: BPF_MAP_CREATE @76..92, BPF_PROG_LOAD @144..168,
# struct bpf_map_info hash @88, hash_size @96, explicit pad, sizeof 104
expected="union bpf_attr.map_token_fd 76 4
union bpf_attr.excl_prog_hash 80 8
union bpf_attr.excl_prog_hash_size 88 4
union bpf_attr.prog_token_fd 144 4
union bpf_attr.fd_array_cnt 148 4
union bpf_attr.signature 152 8
union bpf_attr.signature_size 160 4
union bpf_attr.keyring_id 164 4
struct bpf_map_info.map_extra 80 8
struct bpf_map_info.hash 88 8
struct bpf_map_info.hash_size 96 4
sizeof(struct bpf_map_info) 104"
for copy in kernel tools; do
	expect_eq "uapi offsets ($copy copy)" "$expected" "$("$T/uapi_layout_$copy")"
done

# struct bpf_prog_info is Debian's, byte for byte: the series reports
# digests and verdicts in fdinfo and bpftool, never in bpf_prog_info, so a
# binary built against either header reads the other kernel's answer alike
prog_info() {
	awk '/^#define BPF_(TAG_SIZE|OBJ_NAME_LEN)\>/ { print }
		/^struct bpf_prog_info \{/, /^\}/ { print }' "$1"
}
pristine=$(prog_info "$T/uapi-pristine/linux/bpf.h")
expect_eq "pristine header has struct bpf_prog_info" 1 \
	"$(grep -c '^struct bpf_prog_info {' <<<"$pristine")"
for copy in kernel tools; do
	expect_eq "struct bpf_prog_info unchanged ($copy copy)" "$pristine" \
		"$(prog_info "$T/uapi-$copy/linux/bpf.h")"
done
