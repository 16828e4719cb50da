#!/usr/bin/env bash
# bpf_sys_bpf() in each context a syscall program's code can run in:
# allowed in the main body, a static subprogram and a bpf_loop() callback;
# refused by the verifier, with its reason, in bpf_wq and bpf_timer
# callbacks, global functions and extension programs; and a program loaded
# by a syscall program reached through a tail call names that program as
# its loader (prog_loader_digest), not the caller. The checks are the
# tool's: tests/src/sys_bpf_ctx.c.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

run_tool sys_bpf_ctx
