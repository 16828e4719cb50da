#!/usr/bin/env bash
# Every command README.md and docs/*.md show a user runs as printed, so that
# a documented recipe cannot rot (docs/testing.md, "Recipes in the
# documentation"). The documents are the test's source:
#  - a ```sh host block runs here, a ```sh guest block in the guest
#    (tests/guest/doc-recipes.sh), each as a bash -eu script in a fresh
#    folder holding the fixtures below, with out/bpftool as `bpftool` on
#    PATH; it must exit 0, and a command commented `# exit N` with status N;
#    an ```output block right after it is its standard output (numbers,
#    and runs of 16 hex digits or more, masked on both sides);
#  - a plain ```sh block is not run: each of its commands must be one of
#    ALLOW below, the harness itself and developer steps, with the reason;
#  - a command shown inline in the prose (`bpftool ...`, `make ...`) must
#    be, or begin, a command of a host or guest block, or be allowed;
#  - a ```text block holds no command, no block is indented code, and no
#    fence has another tag.
# The host fixtures (each block gets a fresh copy):
#   key.pem, cert.pem, cert.der  the test key, out/tests/keys/signer.*
#   prog.bpf.o, prog.lskel.h     out/tests/fentry_count.bpf.o, and its light
#                                skeleton signed with key.pem
#   sig.der                      a detached signature of its payload by key.pem
#   release.key, release.crt (= release.pem), release.der
#                                a release key certified by the kernel build
#                                key (kept in out/tests/doc-recipes/ for the
#                                guest, made again for another build key)
#   policy/, out/                a copy of policy/, and out/ with bpftool,
#                                libbpf and vmlinux.h: make -C policy runs here
#                                (out/policy/signed_only is kept in
#                                out/tests/doc-recipes/ for the guest)
# and for ```sh host pkcs11, a SoftHSM token "release" whose key and
# certificate are "bpf", its PIN in pin.txt, and the dynamically linked
# bpftool (a static one cannot load the pkcs11 engine).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

unset BPFTOOL_SIGN_PIN
# Commands the documents show that no test runs here, and why
declare -A ALLOW=(
	["make demo"]="builds everything and boots the guest: make check builds the same"
	["make check"]="the harness that runs this test; .ci/run runs it"
	["make check SANITIZE=1"]="the harness that runs this test, with sanitizers"
	["make check KASAN=1"]="the harness that runs this test, on the KASAN kernel"
	["make check DISTRO=1"]="the harness that runs this test, on the DISTRO kernel"
	["UPDATE_COUNTS=1 make check"]="the harness that runs this test, rewriting tests/check-counts"
	["make check-host"]="the host half of the harness"
	["make check-guest"]="the guest half of the harness"
	["make selftests"]="about an hour, two kernels; run per docs/selftests.md"
	["tests/selftests/run --compare"]="judges the last make selftests run"
	["make mutants"]="about 45 minutes; run per docs/testing.md"
	["make mutants MUTANTS='NN-*'"]="make mutants, some of them; run per docs/testing.md"
	["make fuzz"]="minutes of fuzzing; tests/host/fuzz-regressions.sh replays what it found"
	["make fuzz FUZZ_SECONDS=N"]="minutes of fuzzing; tests/host/fuzz-regressions.sh replays what it found"
	["make check-series"]="half an hour or more, builds after every patch"
	["make bench"]="a benchmark, minutes long; run per docs/benchmarks.md"
	["openssl speed sha256"]="the benchmark's floor; make bench runs it (tests/bench/run)"
	["make lint"]="reads the shared kernel tree; tests/host/series-lint.sh runs its checks"
	["make man"]="renders from the shared kernel tree; tests/host/series-lint.sh runs its recipe"
	["make shell"]="an interactive guest shell"
	["make bzImage"]="the kernel's own build target, named, not a recipe"
	["make export-patches"]="rewrites the committed series from the kernel tree: a developer's step"
	["tree=\$(scripts/prepare-tree)"]="prepares the shared kernel tree; tests/host/bpftool-synctypes.sh runs it"
	["git rebase -i pristine"]="a developer's step in the kernel tree"
	["git diff"]="a developer's step in the kernel tree"
	["image/qemu-run [--timeout SECONDS] -- COMMAND..."]="its synopsis; tests/host/qemu-run.sh runs it, make check boots it"
	["openssl dgst -sha256"]="advice to test authors (a tool to recompute a digest), not a recipe"
)
# The words that begin a command; also a path to an executable of the
# repository (scripts/..., tests/run) or under out/, with arguments
COMMAND_WORDS=" bpftool make openssl keyctl git clang gcc cc sudo apt apt-get bash sh env
	cd export jq cat cp mv rm ln mkdir chmod echo mount umount softhsm2-util pkcs11-tool "

# is_command TEXT: TEXT (a span or a line) is a command a user would type
is_command() {
	local -a w
	read -r -a w <<<"$1"
	# assignments first (UPDATE_COUNTS=1 make check); alone, only a setting
	while [ ${#w[@]} -gt 0 ] && [[ ${w[0]} =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; do
		[ ${#w[@]} -gt 1 ] || return 1
		w=("${w[@]:1}")
	done
	# one word names a tool or a file, it is no recipe
	[ ${#w[@]} -ge 2 ] || return 1
	case "$COMMAND_WORDS" in *[[:space:]]"${w[0]}"[[:space:]]*) return 0 ;; esac
	case ${w[0]} in
	*/) return 1 ;;
	out/*) return 0 ;;
	*/*) [ -f "$REPO_ROOT/${w[0]}" ] && [ -x "$REPO_ROOT/${w[0]}" ] ;;
	*) return 1 ;;
	esac
}

# mask: what varies between runs, in a block's output and in the document
mask() { sed -E 's/[0-9a-f]{16,}/<hex>/g; s/\b[0-9]+\b/<n>/g'; }

cd "$REPO_ROOT"
D=$WORK/doc
mkdir -p "$D"
"$TESTS_DIR/doc-recipes" extract "$D" README.md docs/*.md

expect_eq "doc recipes: every fence is closed" "" "$(cat "$D/errors")"
expect_eq "doc recipes: no indented code block (a recipe's fence says where it runs)" "" \
	"$(cut -f1 "$D/indented" | paste -sd' ')"
expect_eq "doc recipes: every fence's tag is sh host, sh host pkcs11, sh guest, sh, text or output" "" \
	"$(awk -F'\t' '$3 !~ /^(sh host|sh host pkcs11|sh guest|sh|text|output)$/ { print $2 " (" $3 ")" }' \
		"$D/blocks" | paste -sd' ')"
expect_eq "doc recipes: some blocks run on the host, some in the guest" "guest host" \
	"$(cut -f3 "$D/blocks" | sed -n 's/^sh \(host\|guest\).*/\1/p' | sort -u | paste -sd' ')"

# The commands of the blocks that run, which the prose may name
: >"$D/run-commands"
while IFS=$'\t' read -r n where info; do
	case "$info" in
	"sh host"*|"sh guest") "$TESTS_DIR/doc-recipes" commands "$D/$n" >>"$D/run-commands" ;;
	esac
done <"$D/blocks"

# shown: every command the documents show outside run blocks, for the
# allowlist's own check
: >"$D/shown"
bad=
while IFS=$'\t' read -r where span; do
	is_command "$span" || continue
	echo "$span" >>"$D/shown"
	[ -z "${ALLOW[$span]+x}" ] || continue
	# the span is a command of a run block, or its beginning
	while IFS= read -r cmd; do
		case "$cmd " in "$span "*) continue 2 ;; esac
	done <"$D/run-commands"
	bad+="$where: \`$span\`; "
done <"$D/spans"
expect_eq "doc recipes: every command in the prose is run by a block, or allowed" "" "$bad"

# --- The fixtures ---
F=$WORK/fixture
mkdir -p "$F/out" "$WORK/bin" "$WORK/bin-pkcs11"
ln -s "$BPFTOOL" "$WORK/bin/bpftool"
ln -s "$BPFTOOL_DYNAMIC" "$WORK/bin-pkcs11/bpftool"
kkey=$OUT/kernel-signing-key.pem
# The release key and the policy make -C policy signs with it are kept for
# tests/guest/doc-recipes.sh, which runs while this script may run
# (tests/run): the key is made again only for another kernel build key, and
# each file is replaced by a rename, only if it changed
SHARE=$T/doc-recipes
mkdir -p "$SHARE"
# publish FILE NAME: FILE as $SHARE/NAME, if that differs
publish() {
	cmp -s "$1" "$SHARE/$2" || { cp "$1" "$SHARE/.$2.new" && mv "$SHARE/.$2.new" "$SHARE/$2"; }
}
release_key() {
	local kcert=$WORK/kernel.crt
	openssl x509 -in "$kkey" -out "$kcert" || return 1
	if cmp -s "$kcert" "$SHARE/kernel.crt" && [ -f "$SHARE/release.key" ] && [ -f "$SHARE/release.der" ]; then
		cp "$SHARE/release.key" "$SHARE/release.crt" "$F/" || return 1
	else
		# certified by the build key (which the secondary keyring takes,
		# being in the builtin one)
		openssl req -new -newkey rsa:2048 -nodes -keyout "$F/release.key" \
			-subj /CN=doc-recipes-release -out "$WORK/release.csr" 2>/dev/null &&
		printf '%s\n' subjectKeyIdentifier=hash authorityKeyIdentifier=keyid \
			basicConstraints=CA:FALSE keyUsage=digitalSignature >"$WORK/release.ext" &&
		openssl x509 -req -in "$WORK/release.csr" -CA "$kkey" -CAkey "$kkey" -days 3650 \
			-extfile "$WORK/release.ext" -out "$F/release.crt" 2>/dev/null &&
		# the old policy goes first: the guest must not take it with the
		# new key
		rm -f "$SHARE/signed_only" || return 1
	fi
	cp "$F/release.crt" "$F/release.pem" &&
	openssl x509 -in "$F/release.crt" -outform DER -out "$F/release.der" &&
	for f in release.key release.crt release.pem release.der; do
		publish "$F/$f" "$f" || return 1
	done &&
	publish "$kcert" kernel.crt
}
fixtures() {
	cp "$T/keys/signer.key" "$F/key.pem" &&
	cp "$T/keys/signer.pem" "$F/cert.pem" &&
	cp "$T/keys/signer.der" "$F/cert.der" &&
	cp "$T/fentry_count.bpf.o" "$F/prog.bpf.o" &&
	cp "$T/fentry_count.lskel.h" "$F/prog.lskel.h" &&
	cat "$T/fentry_count.opts_insn.bin" "$T/fentry_count.opts_data.bin" >"$WORK/payload" &&
	cms_sign "$WORK/payload" "$F/cert.pem" "$F/key.pem" "$F/sig.der" &&
	release_key &&
	cp -r "$REPO_ROOT/policy" "$F/policy" &&
	ln -s "$BPFTOOL" "$F/out/bpftool" &&
	ln -s "$OUT/libbpf" "$OUT/vmlinux.h" "$F/out/"
}
# the token for ```sh host pkcs11
token() {
	local m=/usr/lib/softhsm/libsofthsm2.so
	local p11=(pkcs11-tool --module "$m" --token-label release --login --pin 1234)
	mkdir -p "$WORK/softhsm/tokens"
	export SOFTHSM2_CONF=$WORK/softhsm/softhsm2.conf
	printf '%s\n' "directories.tokendir = $WORK/softhsm/tokens" "objectstore.backend = file" \
		"log.level = ERROR" >"$SOFTHSM2_CONF"
	softhsm2-util --init-token --free --label release --pin 1234 --so-pin 5678 >/dev/null &&
	"${p11[@]}" --keypairgen --key-type rsa:2048 --label bpf --id 01 >/dev/null &&
	openssl req -new -x509 -engine pkcs11 -keyform engine \
		-key "pkcs11:token=release;object=bpf;type=private;pin-value=1234" \
		-subj /CN=doc-recipes-token -days 30 -addext subjectKeyIdentifier=hash \
		-outform DER -out "$WORK/softhsm/bpf.der" 2>/dev/null &&
	"${p11[@]}" --write-object "$WORK/softhsm/bpf.der" --type cert --label bpf --id 01 >/dev/null
}
fixture_err=
fixtures >"$WORK/fixtures.log" 2>&1 || fixture_err="fixtures: $(tail -n 3 "$WORK/fixtures.log")"
token_err=
token >"$WORK/token.log" 2>&1 || token_err="token: $(tail -n 3 "$WORK/token.log")"
# Under SANITIZE=1 (an ASan bpftool): libp11's engine leaks its methods at
# exit (tests/pkcs11-lsan.supp, as tests/host/pkcs11.sh)
p11_env=()
if [ -n "${ASAN_OPTIONS:-}" ]; then
	p11_env=(ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0"
		LSAN_OPTIONS="suppressions=$TESTS_DIR/pkcs11-lsan.supp:print_suppressions=0")
fi

# run_block N WHERE INFO: run block N in a fresh copy of the fixtures
run_block() {
	local n=$1 where=$2 info=$3 dir=$WORK/run/$1 bin=$WORK/bin rc=0 why='' env=()
	mkdir -p "$dir"
	cp -a "$F/." "$dir/"
	if [ "$info" = "sh host pkcs11" ]; then
		bin=$WORK/bin-pkcs11
		echo 1234 >"$dir/pin.txt"
		chmod 600 "$dir/pin.txt"
		env=("${p11_env[@]}")
	fi
	"$TESTS_DIR/doc-recipes" script "$D/$n" >"$WORK/run/$n.sh"
	(cd "$dir" && env "${env[@]}" PATH="$bin:$PATH" timeout 300 bash "$WORK/run/$n.sh") \
		>"$WORK/run/$n.out" 2>"$WORK/run/$n.err" || rc=$?
	if [ -n "$fixture_err" ]; then
		why=$fixture_err
	elif [ "$info" = "sh host pkcs11" ] && [ -n "$token_err" ]; then
		why=$token_err
	elif [ "$rc" != 0 ]; then
		why="exit $rc: $(tail -n 5 "$WORK/run/$n.err")"
	fi
	if [ -z "$why" ]; then
		pass "doc recipe $where ($info): runs as shown"
	else
		fail "doc recipe $where ($info): runs as shown" "$why"
	fi
	# the policy make -C policy built, for the guest
	if [ -z "$why" ] && [ -x "$dir/out/policy/signed_only" ]; then
		publish "$dir/out/policy/signed_only" signed_only
	fi
}

prev_n='' prev_info='' prev_file=''
while IFS=$'\t' read -r n where info; do
	case "$info" in
	"sh host"|"sh host pkcs11")
		run_block "$n" "$where" "$info"
		;;
	sh)
		bad=
		while IFS= read -r cmd; do
			echo "$cmd" >>"$D/shown"
			[ -n "${ALLOW[$cmd]+x}" ] || bad+="\`$cmd\`; "
		done < <("$TESTS_DIR/doc-recipes" commands "$D/$n")
		expect_eq "doc recipe $where (sh, not run): its commands are allowed" "" "$bad"
		;;
	text)
		bad=
		while IFS= read -r line; do
			! is_command "$line" || bad+="\`$line\`; "
		done < <("$TESTS_DIR/doc-recipes" commands "$D/$n")
		expect_eq "doc block $where (text): no command in it" "" "$bad"
		;;
	output)
		# the standard output of the block right before it, in the same file
		if [ "$prev_file" != "${where%:*}" ] || [[ $prev_info != "sh host"* && $prev_info != "sh guest" ]]; then
			fail "doc output $where: follows a host or guest block" "it follows: ${prev_info:-nothing}"
		elif [[ $prev_info == "sh host"* ]]; then
			expect_eq "doc output $where: the block before prints it" \
				"$(mask <"$D/$n")" "$(mask <"$WORK/run/$prev_n.out")"
		fi
		;;
	esac
	prev_n=$n prev_info=$info prev_file=${where%:*}
done <"$D/blocks"

# An allowed command the documents no longer show is to be struck off
stale=
for cmd in "${!ALLOW[@]}"; do
	grep -qxF -- "$cmd" "$D/shown" || stale+="\`$cmd\`; "
done
expect_eq "doc recipes: every allowed command is still shown" "" "$stale"
expect_eq "doc recipes: the guest's policy, signed with its release key, is in out/tests/doc-recipes" \
	"yes" "$(cmp -s "$F/release.key" "$SHARE/release.key" && [ -x "$SHARE/signed_only" ] && echo yes || echo no)"
