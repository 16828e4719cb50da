# Shared settings for the build scripts: sourced, never executed.
# shellcheck shell=bash

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Debian package that provides the kernel source, and the version we test.
KERNEL_SOURCE_PKG=linux-source-6.12
KERNEL_SOURCE_PIN=6.12.118-1~deb12u1
KERNEL_TARBALL=/usr/src/linux-source-6.12.tar.xz

# Everything expensive lives outside the clone so that a fresh clone reuses it.
CACHE_DIR=${BPFSIGN_CACHE:-$HOME/.cache/bpf-signing}
# The four series, applied in this order.
SERIES_DIRS="kernel-patches libbpf-patches bpftool-patches selftests-patches"

# Version of the source package actually installed (may be newer than the pin).
kernel_source_version() {
	dpkg-query -W -f='${Version}' "$KERNEL_SOURCE_PKG" 2>/dev/null
}

# The build tree is keyed by the installed source package version.
tree_dir() {
	echo "$CACHE_DIR/linux-$(kernel_source_version | tr '~:' '__')"
}

# Identity of the patch stack: hash of every series file and patch in order.
series_id() {
	local d p
	for d in $SERIES_DIRS; do
		[ -f "$REPO_ROOT/$d/series" ] || continue
		echo "series $d"
		while read -r p; do
			case "$p" in ''|'#'*) continue ;; esac
			echo "$p"
			cat "$REPO_ROOT/$d/$p"
		done <"$REPO_ROOT/$d/series"
	done | sha256sum | cut -d' ' -f1
}

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
