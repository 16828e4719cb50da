#!/usr/bin/env bash
# The series' hygiene gates: checkpatch --strict with the justified
# allowlist, and the man pages rendering without warnings.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

expect_status "lint: checkpatch --strict, nothing outside scripts/checkpatch-allowlist" 0 \
	"$REPO_ROOT/scripts/lint"
expect_status "man: bpftool's man pages render without warnings" 0 \
	make -s -C "$REPO_ROOT/docs/man"
