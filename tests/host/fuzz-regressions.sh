#!/usr/bin/env bash
# The libFuzzer harnesses of bpftool's offline parsers (tests/fuzz): for each
# fuzzer, every input kept for it in tests/fuzz/regressions/ and every seed
# runs once without a crash, leak or sanitizer report, and a short fuzzing
# run from the seeds with a fixed libFuzzer seed finds nothing (what it
# finds is saved in out/fuzz/artifacts/). Everything here depends only on
# the commit and the installed packages: the seeds are signed with the
# committed keys of tests/fuzz/keys, and so is what pkcs7_sig_fuzz checks.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

FUZZ=$TESTS_DIR/fuzz
# The harnesses' own sanitizer settings (as in run-fuzzer), also under
# tests/run SANITIZE=1: tests/fuzz/lsan.supp lists libcrypto's known leak
export ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0 \
	LSAN_OPTIONS=suppressions=$FUZZ/lsan.supp UBSAN_OPTIONS=print_stacktrace=1
# The smoke run repeats exactly: a fixed seed, and -use_cmp=0 because the
# values libFuzzer takes from comparisons include stack and mmap addresses,
# which change with ASLR and the environment's size
SMOKE=(-runs=20000 -seed=1 -use_cmp=0)

if ! make -s -C "$FUZZ" >"$WORK/build" 2>&1; then
	fail "build the fuzzers and their seed corpora" "$(tail -c 500 "$WORK/build")"
	exit 1
fi

# replay FUZZER NAME INPUT...: each input runs once, exit status 0, no report
replay() {
	local fuzzer=$1 name=$2 rc=0
	shift 2
	"$OUT/fuzz/$fuzzer" "$@" >"$WORK/replay" 2>&1 || rc=$?
	if [ "$rc" = 0 ] && ! grep -E 'ERROR: |runtime error:' "$WORK/replay" >/dev/null; then
		pass "$fuzzer: $name"
	else
		fail "$fuzzer: $name" "exit $rc: $(grep -m 3 -E 'ERROR: |runtime error:|SUMMARY:' "$WORK/replay" | paste -sd'|')"
	fi
}

# pkcs7_errors INPUT: the errors check_signature() gives for INPUT, one a
# line (libFuzzer runs an input that leaks twice, to look for the leak)
pkcs7_errors() {
	PKCS7_FUZZ_VERBOSE=1 "$OUT/fuzz/pkcs7_sig_fuzz" "$1" 2>&1 | sed -n 's/^p_err: //p' | sort -u
}

# What pkcs7_sig_fuzz checks against: the committed signer and payload. The
# seeds signed with it over the payload take the success path, and the
# regression input of libcrypto's leak gets as far as CMS_verify()
seeds=$OUT/fuzz/seeds-pkcs7_sig_fuzz
for s in keyid issuer-serial sha512 attributes; do
	expect_eq "pkcs7_sig_fuzz: seed $s.der verifies with tests/fuzz/keys/signer.pem" \
		"" "$(pkcs7_errors "$seeds/$s.der")"
done
expect_eq "pkcs7_sig_fuzz: seed insns-only.der fails as a 6.18-protocol signature" \
	"opts_sig covers the loader's instructions only, as light skeletons of the 6.18 protocol are signed; the kernel checks the instructions and the metadata: regenerate the header with 'gen skeleton -S' or re-sign it with 'prog sign file fuzz.lskel.h'" \
	"$(pkcs7_errors "$seeds/insns-only.der")"
expect_eq "pkcs7_sig_fuzz: regression input leak-cms-verify-digestalg fails in CMS_verify()" \
	"opts_sig does not verify over the loader and its metadata with certificate $FUZZ/keys/signer.pem" \
	"$(pkcs7_errors "$FUZZ/regressions/pkcs7_sig_fuzz-leak-cms-verify-digestalg")"

for fuzzer in lskel_header_fuzz pkcs7_sig_fuzz; do
	for f in "$FUZZ/regressions/$fuzzer"-*; do
		[ -e "$f" ] || continue
		replay "$fuzzer" "regression input $(basename "$f") replays cleanly" "$f"
	done

	seeds=("$OUT/fuzz/seeds-$fuzzer"/*)
	replay "$fuzzer" "seed corpus (${#seeds[@]} inputs) replays cleanly" "${seeds[@]}"

	if "$FUZZ/run-fuzzer" "$OUT/fuzz/$fuzzer" "$WORK/corpus-$fuzzer" \
		"$OUT/fuzz/seeds-$fuzzer" "${SMOKE[@]}" >"$WORK/smoke" 2>&1; then
		pass "$fuzzer: smoke fuzz (${SMOKE[*]}) finds nothing"
		grep '^fuzz: ' "$WORK/smoke"
	else
		fail "$fuzzer: smoke fuzz (${SMOKE[*]}) finds nothing" \
			"$(grep -m 3 -E 'ERROR: |runtime error:' "$WORK/smoke" | paste -sd'|')"
		grep -E '^fuzz: ' "$WORK/smoke" || true
	fi
done
