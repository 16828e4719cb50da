#!/usr/bin/env bash
# prog sign on a full file system (a small tmpfs): a re-signed header that
# does not fit fails with ENOSPC, the original bytes stay under every name,
# and no temporary file is left. (The host tests cover EFBIG; a tmpfs needs
# root, which the guest has.)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

H=$T/fentry_count.lskel.h
small=$WORK/small
mkdir "$small"
mount -t tmpfs -o size=64k tmpfs "$small"
sign() { "$BPFTOOL" -k "$T/keys/signer.key" -i "$T/keys/signer.pem" prog sign file "$@"; }

size=$(stat -c %s "$H")
cp "$H" "$small/h.h"
# fill what is left but a little less than the header's size
dd if=/dev/zero of="$small/fill" bs=1k count=$((64 - 4 - size / 1024 - 4)) 2>/dev/null || true
free=$(($(stat -f -c '%a * %S' "$small")))
expect_eq "the tmpfs has room for less than another header" yes \
	"$([ "$free" -lt "$size" ] && echo yes || echo "no ($free free, header $size)")"

expect_err "re-sign in place on a full file system" 255 \
	"failed to write header $small/h.h: No space left on device" sign "$small/h.h"
expect_eq "full file system: the original header is whole" "" "$(cmp "$small/h.h" "$H" 2>&1)"
expect_eq "full file system: no temporary file left" "fill h.h" "$(ls "$small" | tr '\n' ' ' | sed 's/ $//')"

expect_err "re-sign to a new path on a full file system" 255 \
	"failed to write header $small/new.h: No space left on device" sign "$small/h.h" out "$small/new.h"
expect_eq "full file system: no new file" "fill h.h" "$(ls "$small" | tr '\n' ' ' | sed 's/ $//')"

# hard-linked: refused before anything is written, both names whole
ln "$small/h.h" "$small/h2.h"
expect_err "a hard-linked header on a full file system: refused" 255 \
	"header $small/h.h has 2 hard links: a file with other names is not rewritten (give another path, or remove the other links)" \
	sign "$small/h.h"
expect_eq "hard-linked: both names hold the original bytes" "|" \
	"$(cmp "$small/h.h" "$H" 2>&1)|$(cmp "$small/h2.h" "$H" 2>&1)"
umount "$small"
