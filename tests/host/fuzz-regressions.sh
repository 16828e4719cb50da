#!/usr/bin/env bash
# The libFuzzer harnesses of bpftool's offline parsers (tests/fuzz): for each
# fuzzer, every input kept for it in tests/fuzz/regressions/ and every seed
# runs once without a crash, leak or sanitizer report, and a short fuzzing
# run from the seeds finds nothing (what it finds is kept in
# tests/fuzz/regressions/).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

FUZZ=$TESTS_DIR/fuzz
# The harnesses' own sanitizer settings, also under tests/run SANITIZE=1
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1

if ! make -s -C "$FUZZ" >"$WORK/build" 2>&1; then
	fail "build the fuzzers and their seed corpora" "$(tail -c 500 "$WORK/build")"
	exit 1
fi

# replay FUZZER NAME INPUT...: each input runs once, exit status 0, no report
replay() {
	local fuzzer=$1 name=$2 rc=0
	shift 2
	"$OUT/fuzz/$fuzzer" "$@" >"$WORK/replay" 2>&1 || rc=$?
	if [ "$rc" = 0 ] && ! grep -qE 'ERROR: |runtime error:' "$WORK/replay"; then
		pass "$fuzzer: $name"
	else
		fail "$fuzzer: $name" "exit $rc: $(grep -m 3 -E 'ERROR: |runtime error:|SUMMARY:' "$WORK/replay" | paste -sd'|')"
	fi
}

for fuzzer in lskel_header_fuzz pkcs7_sig_fuzz; do
	for f in "$FUZZ/regressions/$fuzzer"-*; do
		[ -e "$f" ] || continue
		replay "$fuzzer" "regression input $(basename "$f") replays cleanly" "$f"
	done

	seeds=("$OUT/fuzz/seeds-$fuzzer"/*)
	replay "$fuzzer" "seed corpus (${#seeds[@]} inputs) replays cleanly" "${seeds[@]}"

	if "$FUZZ/run-fuzzer" "$OUT/fuzz/$fuzzer" "$WORK/corpus-$fuzzer" \
		"$OUT/fuzz/seeds-$fuzzer" -runs=20000 >"$WORK/smoke" 2>&1; then
		pass "$fuzzer: smoke fuzz (-runs=20000) finds nothing"
		grep '^fuzz: ' "$WORK/smoke"
	else
		fail "$fuzzer: smoke fuzz (-runs=20000) finds nothing" \
			"$(grep -m 3 -E 'ERROR: |runtime error:|Test unit written' "$WORK/smoke" | paste -sd'|')"
	fi
done
