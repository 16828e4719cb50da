#!/usr/bin/env bash
# The libFuzzer harness of bpftool's light skeleton header parser
# (tests/fuzz): every input kept in tests/fuzz/regressions/ and every seed
# header runs once without a crash, leak or sanitizer report, and a short
# fuzzing run from the seeds finds nothing (what it finds is kept in
# tests/fuzz/regressions/).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

FUZZ=$TESTS_DIR/fuzz
FUZZER=$OUT/fuzz/lskel_header_fuzz
SEEDS=$OUT/fuzz/seeds
# The harness's own sanitizer settings, also under tests/run SANITIZE=1
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1

if ! make -s -C "$FUZZ" >"$WORK/build" 2>&1; then
	fail "build the fuzzer and its seed corpus" "$(tail -c 500 "$WORK/build")"
	exit 1
fi

# replay NAME INPUT...: each input runs once, exit status 0, no report
replay() {
	local name=$1 rc=0
	shift
	"$FUZZER" "$@" >"$WORK/replay" 2>&1 || rc=$?
	if [ "$rc" = 0 ] && ! grep -qE 'ERROR: |runtime error:' "$WORK/replay"; then
		pass "$name"
	else
		fail "$name" "exit $rc: $(grep -m 3 -E 'ERROR: |runtime error:|SUMMARY:' "$WORK/replay" | paste -sd'|')"
	fi
}

for f in "$FUZZ"/regressions/*; do
	[ "$(basename "$f")" != README.md ] || continue
	replay "regression input $(basename "$f") replays cleanly" "$f"
done

seeds=("$SEEDS"/*.lskel.h)
replay "seed corpus (${#seeds[@]} headers from out/tests) replays cleanly" "${seeds[@]}"

if "$FUZZ/run-fuzzer" "$FUZZER" "$WORK/corpus" "$SEEDS" -runs=20000 >"$WORK/smoke" 2>&1; then
	pass "smoke fuzz (-runs=20000) finds nothing"
	grep '^fuzz: ' "$WORK/smoke"
else
	fail "smoke fuzz (-runs=20000) finds nothing" "$(grep -m 3 -E 'ERROR: |runtime error:|Test unit written' "$WORK/smoke" | paste -sd'|')"
fi
