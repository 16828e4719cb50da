#!/usr/bin/env bash
# libbpf's exclusive map owners, on the host, with libbpf's bpf(2) calls
# answered by the test tool (none reaches the kernel): the owner's digest
# is taken over its instructions as loaded (after libbpf rewrote a helper
# the "kernel" lacks), a subprogram and a program with autoload off are
# refused as owners, and light skeletons refuse exclusive maps instead of
# dropping the exclusivity.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

run_tool excl_owner "$T/excl_owner.bpf.o"
