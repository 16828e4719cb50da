#!/usr/bin/env bash
# libbpf does not claim a version whose APIs it lacks: it stays 1.5 for
# the version macros, libbpf_version_string(), bpftool version, libbpf.so
# and libbpf.pc. The exclusive map API backported from libbpf 1.7 is in the
# LIBBPF_1.7.0 node, where programs linked against upstream libbpf find it;
# there is no LIBBPF_1.6.0 node, so that a program needing a 1.6 API fails
# to start instead of failing at its first call.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

expect_eq "bpftool version: bpftool v7.5.0, libbpf v1.5" \
	"bpftool v7.5.0|using libbpf v1.5" "$("$BPFTOOL" version | head -n 2 | paste -sd '|')"
expect_eq "bpftool version -j: libbpf_version 1.5" '"1.5"' \
	"$("$BPFTOOL" -j version | jq .libbpf_version)"

# A program's own LIBBPF_VERSION_GEQ() (libbpf has none) and libbpf's
# __LIBBPF_CURRENT_VERSION_GEQ(), against the staged headers
cat >"$WORK/geq.c" <<'EOC'
#include <bpf/libbpf_common.h>
#define LIBBPF_VERSION_GEQ(major, minor) \
	(LIBBPF_MAJOR_VERSION > (major) || \
	 (LIBBPF_MAJOR_VERSION == (major) && LIBBPF_MINOR_VERSION >= (minor)))
#if LIBBPF_VERSION_GEQ(1, 5)
geq_1_5
#endif
#if LIBBPF_VERSION_GEQ(1, 6)
geq_1_6
#endif
#if LIBBPF_VERSION_GEQ(1, 7)
geq_1_7
#endif
#if __LIBBPF_CURRENT_VERSION_GEQ(1, 6)
current_geq_1_6
#endif
EOC
expect_eq "LIBBPF_VERSION_GEQ: (1, 5) true, (1, 6) and (1, 7) false" "geq_1_5" \
	"$(gcc -E -P -I"$OUT/libbpf/include" "$WORK/geq.c" | grep -o '[a-z_0-9]*geq[a-z_0-9]*' | paste -sd ' ')"

# The shared library, built from the tree with libbpf's own checks
# (check_abi, check_version)
tree=${KERNEL_TREE:-$("$REPO_ROOT/scripts/prepare-tree")}
build=$OUT/libbpf-shared
mkdir -p "$build"
if ! make -s -C "$tree/tools/lib/bpf" OUTPUT="$build/" -j"$(nproc)" >"$WORK/build.log" 2>&1; then
	fail "libbpf.so builds and passes check_abi and check_version" "$(tail -c 500 "$WORK/build.log")"
	exit 1
fi
pass "libbpf.so builds and passes check_abi and check_version"
expect_eq "libbpf.so is version 1.5.0" "libbpf.so.1.5.0" "$(cd "$build" && ls libbpf.so.*.*.*)"
expect_eq "libbpf.pc says 1.5.0" "Version: 1.5.0" "$(grep '^Version:' "$build/libbpf.pc")"
expect_eq "newest version nodes: LIBBPF_1.5.0, LIBBPF_1.7.0 (no LIBBPF_1.6.0)" \
	"LIBBPF_1.4.0 LIBBPF_1.5.0 LIBBPF_1.7.0" \
	"$(readelf -V --wide "$build/libbpf.so" | grep -o 'Name: LIBBPF_[0-9.]*' | cut -d' ' -f2 |
		sort -uV | tail -n 3 | paste -sd ' ')"
expect_eq "LIBBPF_1.7.0 holds the exclusive map API only" \
	"bpf_map__exclusive_program bpf_map__set_exclusive_program" \
	"$(readelf --dyn-syms --wide "$build/libbpf.so" | grep -o '[a-z_]*@@LIBBPF_1\.7\.0' |
		cut -d@ -f1 | sort | paste -sd ' ')"

# Programs linked against an upstream libbpf (a stub with its version
# nodes), run against this one
cat >"$WORK/stub.c" <<'EOC'
void *bpf_map__exclusive_program(void *map) { return 0; }
int bpf_map__set_exclusive_program(void *map, void *prog) { return 0; }
int bpf_object__prepare(void *obj, const char *path) { return 0; }
EOC
cat >"$WORK/stub.map" <<'EOC'
LIBBPF_1.6.0 { global: bpf_object__prepare; local: *; };
LIBBPF_1.7.0 { global: bpf_map__exclusive_program; bpf_map__set_exclusive_program; } LIBBPF_1.6.0;
EOC
cat >"$WORK/uses17.c" <<'EOC'
#include <stdio.h>
void *bpf_map__exclusive_program(void *map);
int bpf_map__set_exclusive_program(void *map, void *prog);
void *volatile fns[2];
int main(void)
{
	fns[0] = (void *)bpf_map__exclusive_program;
	fns[1] = (void *)bpf_map__set_exclusive_program;
	printf("bound\n");
	return 0;
}
EOC
cat >"$WORK/uses16.c" <<'EOC'
#include <stdio.h>
int bpf_object__prepare(void *obj, const char *path);
int main(void)
{
	printf("started\n");
	fflush(stdout);
	return bpf_object__prepare(0, 0);
}
EOC
mkdir -p "$WORK/stub"
gcc -shared -fPIC -Wl,-soname,libbpf.so.1 -Wl,--version-script="$WORK/stub.map" \
	"$WORK/stub.c" -o "$WORK/stub/libbpf.so"
for p in uses17 uses16; do
	gcc "$WORK/$p.c" -L"$WORK/stub" -lbpf -o "$WORK/$p"
done
expect_status "a program using the 1.7 exclusive map API runs" 0 \
	env LD_LIBRARY_PATH="$build" "$WORK/uses17"
expect_status "a program needing a 1.6 API does not start" 1 \
	env LD_LIBRARY_PATH="$build" "$WORK/uses16"
expect_eq "... and says why, before running any of it" \
	"|version \`LIBBPF_1.6.0' not found" \
	"$(cat "$WORK/out")|$(grep -o "version \`LIBBPF_1.6.0' not found" "$WORK/err")"
