#!/usr/bin/env bash
# The new UAPI fields sit at upstream's offsets, in include/uapi and in the
# tools/include/uapi copy that libbpf and bpftool build against.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

expected="union bpf_attr.map_token_fd 76 4
union bpf_attr.excl_prog_hash 80 8
union bpf_attr.excl_prog_hash_size 88 4"
for copy in kernel tools; do
	expect_eq "uapi offsets ($copy copy)" "$expected" "$("$T/uapi_layout_$copy")"
done
