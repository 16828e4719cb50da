#!/usr/bin/env bash
# Bounded hostile bpf(2) run over the new attributes: seeded, reproducible,
# only documented errnos; the harness checks the kernel log afterwards.
# HOSTILE_SEED / HOSTILE_ITERATIONS override the defaults.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

run_tool hostile "${HOSTILE_SEED:-0x5eed}" "${HOSTILE_ITERATIONS:-20000}"
