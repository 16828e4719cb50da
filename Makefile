# Signed BPF programs for Linux 6.12: build, guest image and tests.
#
#   make            kernel (out/bzImage) and bpftool (out/bpftool)
#   make demo       everything, then the signing story shown in a QEMU guest
#   make check      everything, then every host and guest test
#   make shell      interactive shell in the guest
# See README.md and docs/development.md for the rest.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := all

.PHONY: all deps tree kernel kernel-kasan kernel-distro kernel-pristine kernel-pristine-distro \
	tools rootfs tests \
	demo check check-host check-guest shell export-patches check-series \
	lint man bench fuzz selftests mutants clean

# make check SANITIZE=1: host tests against bpftool built with ASan and UBSan
SANITIZE ?= 0
# make check KASAN=1: guest tests on a kernel with KASAN and kmemleak
KASAN ?= 0
# make check DISTRO=1: guest tests on a kernel with Debian's BPF, keys,
# crypto, LSM and integrity options
DISTRO ?= 0
# the kernel variant the guest tests need besides out/bzImage
variant := $(if $(filter 1,$(KASAN)),kernel-kasan) $(if $(filter 1,$(DISTRO)),kernel-distro)
# make fuzz FUZZ_SECONDS=N
FUZZ_SECONDS ?= 60

all: kernel tools

# Packages from apt; does nothing when all are there.
deps:
	@scripts/install-deps

# The patched kernel tree (cached under ~/.cache/bpf-signing).
tree: deps
	@scripts/prepare-tree >/dev/null

kernel: tree
	@scripts/build-kernel

# Variants, each in its own worktree: KASAN and kmemleak (out/bzImage-kasan),
# Debian's own BPF, keys, crypto, LSM and integrity options
# (out/bzImage-distro), and Debian's kernel without the series, for make
# check's tests/pristine and make bench (out/bzImage-pristine) and,
# configured as DISTRO, make selftests (out/bzImage-pristine-distro)
kernel-kasan: kernel
	@scripts/build-kernel kasan

kernel-distro: kernel
	@scripts/build-kernel distro

kernel-pristine: tree
	@scripts/build-kernel pristine

kernel-pristine-distro: kernel
	@scripts/build-kernel pristine-distro

tools: kernel
	@scripts/build-tools

rootfs: deps
	@image/build-rootfs >/dev/null

# Test programs (BPF objects, loaders), built on the host into out/tests.
tests: tools
	@$(MAKE) -s -C tests

demo: all rootfs tests
	@image/qemu-run --timeout 300 -- tests/demo.sh 2>&1 | tee out/demo.log

check: all rootfs tests kernel-pristine $(variant)
	@SANITIZE=$(SANITIZE) KASAN=$(KASAN) DISTRO=$(DISTRO) tests/run

check-host: tools tests
	@SANITIZE=$(SANITIZE) tests/run --host-only

check-guest: all rootfs tests kernel-pristine $(variant)
	@KASAN=$(KASAN) DISTRO=$(DISTRO) tests/run --guest-only

shell: all rootfs
	@image/qemu-run --shell

# Benchmarks (not tests): load latencies signed vs unsigned, verification
# cost by metadata size, skeleton generation, prog show with 1000 programs;
# table in out/bench.md.
bench: all rootfs tests kernel-pristine
	@tests/bench/run

# The tree's own BPF selftests (those scripts/build-selftests builds) on the
# patched and the pristine DISTRO=1 kernel, compared test by test
# (tests/selftests/run); slow under TCG, so not in make check.
selftests: all rootfs tests kernel-distro kernel-pristine-distro
	@tests/selftests/run

# Mutation run (tests/mutants, scripts/run-mutants): each mutant, a small
# bug in one file of the patched tree, is built and must be killed by the
# tests it names; survivors only as listed in tests/mutants/accepted.
# Slow (a kernel build per kernel mutant), so not in make check.
# MUTANTS='NN-*' runs those whose file names match.
mutants: all rootfs tests kernel-pristine
	@scripts/run-mutants $(MUTANTS)

# Series hygiene: checkpatch --strict (scripts/checkpatch-allowlist says
# what is accepted and why), bpftool's synctypes check, man pages without
# warnings. make check runs the same through tests/host/series-lint.sh.
lint: tree
	@scripts/lint
	@python3 "$$(scripts/prepare-tree)/tools/testing/selftests/bpf/test_bpftool_synctypes.py"
	@$(MAKE) -s -C docs/man

# bpftool's man pages, rendered into out/man
man: tree
	@$(MAKE) -s -C docs/man

# Fuzz bpftool's light skeleton header parser and prog verify's signature
# check (tests/fuzz), FUZZ_SECONDS each on one core, from the test headers.
fuzz: tests
	@$(MAKE) -s -C tests/fuzz run FUZZ_SECONDS=$(FUZZ_SECONDS)

# Write the build tree's commits back into the three series.
export-patches:
	@scripts/export-patches

# Every patch applies in order and the kernel and bpftool build after each.
check-series: deps
	@scripts/check-series

clean:
	rm -rf out
