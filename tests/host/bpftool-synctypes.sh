#!/usr/bin/env bash
# bpftool's own consistency check between its sources, help texts, man
# pages and bash completion, run on the patched tree.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

tree=$("$REPO_ROOT/scripts/prepare-tree")
if python3 "$tree/tools/testing/selftests/bpf/test_bpftool_synctypes.py" >"$WORK/log" 2>&1; then
	pass "test_bpftool_synctypes.py"
else
	fail "test_bpftool_synctypes.py" "$(tail -5 "$WORK/log")"
fi
