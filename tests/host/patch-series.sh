#!/usr/bin/env bash
# Every series lists exactly the patches in its folder, and every patch is
# a git format-patch file with a subject and a Signed-off-by.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

for d in kernel-patches libbpf-patches bpftool-patches; do
	listed=$(grep -v '^#' "$REPO_ROOT/$d/series" | sed '/^$/d' | sort)
	present=$(find "$REPO_ROOT/$d" -maxdepth 1 -name '*.patch' -printf '%f\n' | sort)
	expect_eq "$d: series lists every patch" "$present" "$listed"
	for p in $present; do
		f=$REPO_ROOT/$d/$p
		if grep -q '^Subject: \[PATCH' "$f" && grep -q '^Signed-off-by: ' "$f"; then
			pass "$d/$p: has a subject and Signed-off-by"
		else
			fail "$d/$p: has a subject and Signed-off-by"
		fi
	done
done
