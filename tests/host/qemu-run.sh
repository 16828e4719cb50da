#!/usr/bin/env bash
# image/qemu-run's contract: the command's status comes out, the working
# directory is kept, and a timeout, a panic or a splat in the kernel log
# is a failure, never a pass.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

run() { "$REPO_ROOT/image/qemu-run" "$@" >"$WORK/console" 2>&1; }

expect_status "qemu-run: command's exit status comes out" 3 run -- bash -c 'exit 3'
expect_status "qemu-run: success is 0" 0 run -- true
(cd "$TESTS_DIR/host" && "$REPO_ROOT/image/qemu-run" -- pwd >"$WORK/console" 2>&1) || true
expect_eq "qemu-run: guest starts in the host's directory, repository at the same path" \
	"$TESTS_DIR/host" "$(grep -x "$TESTS_DIR/host" "$WORK/console" || true)"
expect_status "qemu-run: a guest that times out fails with 124" 124 \
	run --timeout 15 -- sleep 600
expect_status "qemu-run: a kernel panic fails with 125" 125 \
	run -- bash -c 'echo c >/proc/sysrq-trigger; sleep 5'
expect_status "qemu-run: a WARNING in the kernel log fails a passing command with 126" 126 \
	run -- bash -c 'echo "WARNING: injected by tests/host/qemu-run.sh" >/dev/kmsg'
if grep -q "injected by tests/host/qemu-run.sh" "$WORK/console"; then
	pass "qemu-run: the splat is shown"
else
	fail "qemu-run: the splat is shown"
fi
