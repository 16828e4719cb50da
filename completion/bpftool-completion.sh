#!/usr/bin/env bash
# Bash completion of the patched bpftool (its bash-completion/bpftool):
# the new global options and commands complete as a user expects.
set -euo pipefail
. "$(dirname "$0")/../tests/lib.sh"

# KERNEL_TREE: a patched tree to take the completion from, as in
# gen-skeleton-sign.sh (else the cached tree, prepared)
tree=${KERNEL_TREE:-$("$REPO_ROOT/scripts/prepare-tree")}
# The completion asks "bpftool help" for the objects: the patched one
PATH="$(dirname "$BPFTOOL"):$PATH"
# bash_completion reads unset variables and failing commands: not under -eu
set +eu
. /usr/share/bash-completion/bash_completion
. "$tree/tools/bpf/bpftool/bash-completion/bpftool"

# complete WORD... : what <TAB> offers after WORDs (the last word is the
# one being completed), sorted, on one line
complete_line() {
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_bpftool bpftool "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}
# offers NAME EXPECTED WORD...: EXPECTED (space separated) are all offered
offers() {
	local name=$1 want=$2 got w
	shift 2
	got=" $(complete_line "$@") "
	for w in $want; do
		if [[ $got != *" $w "* ]]; then
			fail "$name" "'$w' not offered; offered:$got"
			return
		fi
	done
	pass "$name"
}

# offers_exactly NAME EXPECTED WORD...: exactly EXPECTED, sorted
offers_exactly() {
	local name=$1 want=$2
	shift 2
	expect_eq "$name" "$want" "$(complete_line "$@")"
}

cd "$WORK"
touch key.pem cert.der prog.bpf.o notes.txt prog.lskel.h sig.der
offers "completion: --sign from --si" "--sign" bpftool --si
offers_exactly "completion: long options, and -i -k (no long form), for a dash" \
	"--base-btf --bpffs --debug --json --mapcompat --pretty --sign --use-loader --version -i -k" bpftool -
offers "completion: a key file after a bundled -Sk" "key.pem" bpftool -Sk ke
offers "completion: commands after -Sk KEY -i CERT" "gen prog" bpftool -Sk key.pem -i cert.der ""
offers "completion: gen skeleton's object after -LSk KEY" "prog.bpf.o" \
	bpftool -LSk key.pem -i cert.der gen skeleton pr
offers "completion: commands after -kKEY (attached argument)" "gen prog" bpftool -kkey.pem ""
offers "completion: a key file after -k" "key.pem" bpftool -k ke
offers "completion: a certificate file after -i" "cert.der" bpftool -S -k key.pem -i ce
offers "completion: commands after the signing options" "gen prog" bpftool -S -k key.pem -i cert.der ""
offers "completion: gen skeleton after -S" "skeleton" bpftool -S -k key.pem -i cert.der gen sk
offers "completion: object file for gen skeleton -S" "prog.bpf.o" \
	bpftool -S -k key.pem -i cert.der gen skeleton pr
offers "completion: sign and verify among prog's commands" "sign verify" bpftool prog ""
offers_exactly "completion: file after prog sign" "file" bpftool prog sign ""
offers "completion: a header file after prog sign file" "prog.lskel.h" bpftool prog sign file pr
offers_exactly "completion: prog sign file HEADER keywords" "attach detached object out payload" \
	bpftool prog sign file prog.lskel.h ""
offers "completion: an object file after prog sign file HEADER object" "prog.bpf.o" \
	bpftool prog sign file prog.lskel.h object prog.b
offers_exactly "completion: the other keywords after object OBJ" "attach detached out payload" \
	bpftool prog sign file prog.lskel.h object prog.bpf.o ""
offers_exactly "completion: object and out after attach SIG" "object out" \
	bpftool prog sign file prog.lskel.h attach sig.der ""
offers_exactly "completion: only object after payload FILE" "object" \
	bpftool prog sign file prog.lskel.h payload x.bin ""
offers "completion: a signature file after attach" "sig.der" \
	bpftool -i cert.der prog sign file prog.lskel.h attach si
offers "completion: a file after prog sign file HEADER out" "notes.txt prog.lskel.h" \
	bpftool prog sign file prog.lskel.h out ""
offers_exactly "completion: file, id, pinned, tag or name after prog verify" "file id name pinned tag" \
	bpftool prog verify ""
offers "completion: a header file after prog verify file" "prog.lskel.h" bpftool prog verify file pr
offers_exactly "completion: object and signature after prog verify file HEADER" "object signature" \
	bpftool prog verify file prog.lskel.h ""
offers_exactly "completion: signature after prog verify file HEADER object OBJ" "signature" \
	bpftool prog verify file prog.lskel.h object prog.bpf.o ""
offers "completion: an object file after prog verify file HEADER object" "prog.bpf.o" \
	bpftool prog verify file prog.lskel.h object prog.b
offers "completion: a signature file after prog verify file HEADER signature" "sig.der" \
	bpftool -i cert.der prog verify file prog.lskel.h signature si
offers "completion: a file after prog verify pinned" "prog.lskel.h notes.txt" \
	bpftool prog verify pinned ""
offers_exactly "completion: digest and keyring after prog verify pinned PATH" "digest keyring" \
	bpftool prog verify pinned notes.txt ""
# (no completion after "id", which lists the host's programs)
offers_exactly "completion: digest and keyring after prog verify id N" "digest keyring" \
	bpftool prog verify id 42 ""
offers_exactly "completion: system keyrings after keyring" "builtin platform secondary" \
	bpftool prog verify id 42 keyring ""
offers_exactly "completion: digest once keyring is given" "digest" \
	bpftool prog verify id 42 keyring builtin ""
offers_exactly "completion: nothing after digest and keyring" "" \
	bpftool prog verify id 42 digest abc keyring 123 ""
set -eu
