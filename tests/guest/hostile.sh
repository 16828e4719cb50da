#!/usr/bin/env bash
# Bounded hostile bpf(2) run over the new attributes: seeded, reproducible,
# only documented errnos; the harness checks the kernel log afterwards.
# Half of the loads carry real signatures (made here with openssl), so that
# the run reaches the keyring and the signature check: tests/src/hostile.c
# fails when a layer was never reached. HOSTILE_SEED / HOSTILE_ITERATIONS
# override the defaults.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$WORK"

make_key signer -algorithm RSA -pkeyopt rsa_keygen_bits:2048
make_key stranger -algorithm EC -pkeyopt ec_paramgen_curve:prime256v1
"$T/hostile" dump insns.bin
printf 'not the instructions' >other.bin
cms_sign insns.bin signer.crt signer.key good.der
cms_sign insns.bin stranger.crt stranger.key stranger.der
cms_sign other.bin signer.crt signer.key other.der

keyctl new_session >/dev/null
ring=$(keyctl newring hostile @s)
keyctl padd asymmetric "" "$ring" <signer.der >/dev/null

run_tool hostile "${HOSTILE_SEED:-0x5eed}" "${HOSTILE_ITERATIONS:-20000}" \
	good.der stranger.der other.der "$ring"
