#!/usr/bin/env bash
# The ```sh guest blocks of README.md and docs/*.md run as printed, as root
# on the patched kernel: loads, prog verify, keyctl, the signed_only policy
# (the conventions: tests/host/doc-recipes.sh, which runs the host blocks,
# and docs/testing.md). Each block runs as a bash -eu script in a fresh
# folder and a fresh session keyring, with out/bpftool as `bpftool` on PATH;
# it must exit 0 (a command commented `# exit N`: status N), and an
# ```output block right after it is its standard output (numbers, and runs
# of 16 hex digits or more, masked on both sides).
# The fixtures:
#   key.pem, cert.pem, cert.der  the kernel build key (builtin keyring)
#   prog.bpf.o                   out/tests/fentry_count.bpf.o
#   release.key, release.crt (= release.pem), release.der
#                                a release key certified by the build key,
#                                enrolled in the secondary keyring
#   out/policy/signed_only       the policy, signed with release.key
#                                (both kept in out/tests/doc-recipes/ by
#                                tests/host/doc-recipes.sh, which ran make
#                                -C policy: tests/run starts it beside the
#                                guest, and it is done minutes before this
#                                script starts; up to 5 minutes are waited
#                                for them)
#   $SERIAL                      the session keyring, holding cert.der
#   on_entry, on_exit            fentry_count's light skeleton signed with
#                                key.pem, verified against the builtin keyring
#   $ID, $DIGEST                 a program signed with release.key, verified
#                                against the secondary keyring
#   /sys/fs/bpf/p                a program signed with key.pem, verified
#                                against $SERIAL
# After each block, whatever it and its fixtures pinned is removed, and an
# unsigned program must load again (a policy the block enforced is gone).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

unset BPFTOOL_SIGN_PIN
# mask: what varies between runs, in a block's output and in the document
mask() { sed -E 's/[0-9a-f]{16,}/<hex>/g; s/\b[0-9]+\b/<n>/g'; }

D=$WORK/doc
mkdir -p "$D"
(cd "$REPO_ROOT" && "$TESTS_DIR/doc-recipes" extract "$D" README.md docs/*.md)

SHARE=$T/doc-recipes
F=$WORK/fixture
mkdir -p "$F/out/policy" "$WORK/bin"
ln -s "$BPFTOOL" "$WORK/bin/bpftool"
kkey=$OUT/kernel-signing-key.pem
openssl pkey -in "$kkey" -out "$F/key.pem"
openssl x509 -in "$kkey" -out "$F/cert.pem"
openssl x509 -in "$kkey" -outform DER -out "$F/cert.der"
cp "$T/fentry_count.bpf.o" "$F/prog.bpf.o"
for _ in $(seq 300); do
	missing=
	for f in release.key release.crt release.pem release.der signed_only; do
		[ -f "$SHARE/$f" ] || missing+=" $f"
	done
	[ -n "$missing" ] || break
	sleep 1
done
expect_eq "doc recipes: release key and policy in out/tests/doc-recipes (tests/host/doc-recipes.sh makes them)" \
	"" "$missing"
cp "$SHARE"/release.* "$F/" 2>/dev/null || true
cp "$SHARE/signed_only" "$F/out/policy/" 2>/dev/null || true
enroll() { keyctl padd asymmetric "" %:.secondary_trusted_keys <"$F/release.der"; }
expect_status "doc recipes: the release certificate enrolls in the secondary keyring" 0 enroll

# The fixtures' programs: one without a map, signed directly
"$T/sig_load" dump-nomap "$WORK/nomap.bin"
cms_sign "$WORK/nomap.bin" "$F/release.pem" "$F/release.key" "$WORK/nomap-release.der" || true
cms_sign "$WORK/nomap.bin" "$F/cert.pem" "$F/key.pem" "$WORK/nomap-key.der"

# fixtures: the session keyring and the programs of a block (in this
# shell: keyctl new_session gives it a new session keyring)
fixtures() {
	keyctl new_session >/dev/null &&
	keyctl padd asymmetric "" @s <"$F/cert.der" >/dev/null &&
	SERIAL=$(keyctl show @s | awk '/keyring: _ses/ { print $1; exit }') &&
	mkdir -p /sys/fs/bpf/doc-recipes/lskel &&
	"$T/lskel_run_builtin" pin /sys/fs/bpf/doc-recipes/lskel 0 &&
	"$T/sig_load" load --sig "$WORK/nomap-release.der" --keyring 1 \
		--pin /sys/fs/bpf/doc-recipes/release >/dev/null &&
	"$T/sig_load" load --sig "$WORK/nomap-key.der" --keyring "$SERIAL" --pin /sys/fs/bpf/p >/dev/null &&
	"$BPFTOOL" -j prog show pinned /sys/fs/bpf/doc-recipes/release >"$WORK/release.json" &&
	ID=$(jq -r .id "$WORK/release.json") &&
	DIGEST=$(jq -r .digest "$WORK/release.json")
}

# cleanup: remove what was pinned since the list in $WORK/pins, and wait
# (up to 5 s) for an unsigned program to load again: a policy's link goes
# away in a deferred work item once its pin is removed
cleanup() {
	local p
	for p in /sys/fs/bpf/*; do
		grep -qxF "$p" "$WORK/pins" || rm -rf "$p"
	done
	for _ in $(seq 50); do
		[ "$("$T/sig_load" load 2>/dev/null || true)" = ok ] && return 0
		sleep 0.1
	done
	return 1
}

ls -d /sys/fs/bpf/* >"$WORK/pins" 2>/dev/null || true
# if this script stops half way, the pins of the fixtures and the blocks
CLEANUP+=(/sys/fs/bpf/doc-recipes /sys/fs/bpf/p /sys/fs/bpf/prog /sys/fs/bpf/signed_only)
prev_n='' prev_info='' prev_file=''
while IFS=$'\t' read -r n where info; do
	if [ "$info" = "sh guest" ]; then
		dir=$WORK/run/$n rc=0 why=''
		mkdir -p "$dir"
		: >"$WORK/run/$n.out"
		cp -a "$F/." "$dir/"
		"$TESTS_DIR/doc-recipes" script "$D/$n" >"$WORK/run/$n.sh"
		if ! fixtures >"$WORK/run/$n.fixtures" 2>&1; then
			why="fixtures: $(tail -n 3 "$WORK/run/$n.fixtures")"
		else
			(cd "$dir" && env PATH="$WORK/bin:$PATH" ID="$ID" DIGEST="$DIGEST" SERIAL="$SERIAL" \
				timeout 300 bash "$WORK/run/$n.sh") >"$WORK/run/$n.out" 2>"$WORK/run/$n.err" || rc=$?
			[ "$rc" = 0 ] || why="exit $rc: $(tail -n 5 "$WORK/run/$n.err")"
		fi
		if ! cleanup; then
			why+="${why:+; }after the block, an unsigned program still does not load"
		fi
		if [ -z "$why" ]; then
			pass "doc recipe $where ($info): runs as shown"
		else
			fail "doc recipe $where ($info): runs as shown" "$why"
		fi
	elif [ "$info" = output ] && [ "$prev_info" = "sh guest" ] && [ "$prev_file" = "${where%:*}" ]; then
		expect_eq "doc output $where: the block before prints it" \
			"$(mask <"$D/$n")" "$(mask <"$WORK/run/$prev_n.out")"
	fi
	prev_n=$n prev_info=$info prev_file=${where%:*}
done <"$D/blocks"
