#!/usr/bin/env bash
# prog verify's offline verdict on every signature of the differential test
# (tests/signature-cases.sh), without a kernel: each row must be accepted
# (exit 0) exactly when the kernel accepts it, as the guest measured it
# (the row's answer), and refused (1) with the reason in
# tests/signature-cases.reasons otherwise. The guest's
# tests/guest/differential.sh checks the kernel's side of the same rows.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$WORK"

. "$TESTS_DIR/signature-cases.sh"
signatures_here
check_signatures offline

# case_ NAME SIG CERT KERNEL-ANSWER [METADATA HEADER]
case_() {
	prog_verify_row offline "$1" "$2" "$3" "$4" "${6:-$H}"
}
signature_rows
