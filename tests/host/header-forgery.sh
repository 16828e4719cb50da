#!/usr/bin/env bash
# A verdict on a light skeleton header is a verdict on what a compiler makes
# of it. Forgeries of a release-signed header keep the signed blobs but
# change what the C code loads: each is refused by prog verify file and
# prog sign file, with its reason and line, and the file is left as it was.
# Without "object OBJ", bpftool checks the load function and the file's
# layout; with it, every byte but the signature's must be what gen skeleton
# writes for OBJ. tests/src/lskel_syscalls.c (bpf() intercepted) shows that
# two of the refused headers really load something else than the signed
# loader, and real headers of every test object pass.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

obj=$T/sign_min.bpf.o
inc=$OUT/libbpf/include
if [ ! -f "$obj" ] || [ ! -f "$inc/bpf/skel_internal.h" ]; then
	fail "header forgery: setup" "missing $obj or $inc (build the tests first)"
	exit 1
fi

make_key rel -algorithm RSA -pkeyopt rsa_keygen_bits:2048
bt() { "$BPFTOOL" "$@"; }
skel() { bt "$@" gen skeleton "$obj" name sign_min; }
skel -S -k "$WORK/rel.key" -i "$WORK/rel.der" >"$WORK/signed.h"
skel -L >"$WORK/unsigned.h"
H=$WORK/signed.h
lines=$(wc -l <"$H")
line_of() { grep -n -m 1 -F -- "$1" "$2" | cut -d: -f1; }

# forge KIND OUT: a forgery of $H (tests/host/forge-header.py)
forge() { python3 "$TESTS_DIR/host/forge-header.py" "$H" "$1" "$WORK/unsigned.h" >"$2"; }

# refused KIND STATUS MESSAGE: prog verify file, with and without the
# object, and prog sign file refuse the forgery KIND with MESSAGE (after
# "HEADER: "), and prog sign leaves it as it was
refused() {
	local kind=$1 status=$2 msg=$3 f=$WORK/f-$1.h
	forge "$kind" "$f"
	cp "$f" "$WORK/orig.h"
	expect_err "$kind: prog verify file" "$status" "$f: $msg" \
		bt prog verify file "$f" -i "$WORK/rel.der"
	expect_err "$kind: prog verify file object" "$status" "$f: $msg" \
		bt prog verify file "$f" object "$obj" -i "$WORK/rel.der"
	expect_err "$kind: prog sign file" 255 "$f: $msg" \
		bt prog sign file "$f" -k "$WORK/rel.key" -i "$WORK/rel.der"
	if cmp -s "$f" "$WORK/orig.h"; then
		pass "$kind: prog sign left the header as it was"
	else
		fail "$kind: prog sign left the header as it was"
	fi
}

pp="preprocessor line"
signed_check="#ifndef BPF_SKEL_SIGNED_METADATA"
fs="at file scope, bpftool prints only its struct and its functions"
# --- The two forgeries of the report ---
refused define-load 2 "line 7: $pp '#define bpf_load_and_run(o) ((o)->signature = 0, (o)->excl_p...', where bpftool prints '$signed_check'"
forge if0 "$WORK/if0.h"
# (the other loader's blobs, on one line each, are not bpftool's blobs)
refused if0 2 "line $(line_of 'static  const char opts_data' "$WORK/if0.h"): backslash outside a blob (a line continuation?)"

# --- Each way to make the compiler read something else ---
refused comment-continuation 2 "line 7: backslash outside a blob (a line continuation?)"
refused backslash-space 2 "line 7: backslash outside a blob (a line continuation?)"
refused second-decl 2 "'opts_data' appears 3 times outside its declaration, expected 2 times in the load function"
refused extra-include 2 "line 7: $pp '#include \"evil.h\"', where bpftool prints '$signed_check'"
refused undef 2 "line 7: $pp '#undef SKEL_INTERNAL_H', where bpftool prints '$signed_check'"
refused define 2 "line 7: $pp '#define X 1', where bpftool prints '$signed_check'"
refused load-body 2 "line $(line_of 'opts_excl_hash[]' "$H"): the load function does not go on after opts_excl_hash as bpftool prints it"
refused load-head 2 "line $(line_of 'opts_data[]' "$H"): the load function does not start as bpftool prints it"
refused open-and-load 2 "sign_min__open_and_load() is not as bpftool prints it"
member="a member of the skeleton's struct that bpftool does not print"
refused struct-pad 2 "line $(($(line_of 'struct sign_min {' "$H") + 1)): $member"
refused member-function 2 "line $(($(line_of 'struct sign_min__rodata {' "$H") + 1)): $member"
refused trailing 2 "line $((lines + 1)): code after the #endif of the header guard"
refused crlf 2 "line 1: carriage return (CRLF line ends?): bpftool prints none"
open_line=$(($(line_of 'skel = skel_alloc(' "$H") + 1))
refused pragma 2 "line $open_line: '_Pragma': bpftool prints none"
refused asm 2 "line $open_line: 'asm': bpftool prints none"
refused cleanup-attribute 2 "line $open_line: an __attribute__ that bpftool does not print"
refused char-constant 2 "line $open_line: a character constant: bpftool prints none"
refused raw-string 2 "line $open_line: a string literal with a prefix (raw, wide): bpftool prints none"
refused cxx-attribute 2 "line 7: '[[', which starts an attribute"
refused digraph 2 "line 7: '%:', a digraph"
refused digraph-attribute 2 "line 7: '<:', a digraph"
refused trigraph 2 "line 7: '??', which starts a trigraph"
refused comment 2 "line 7: comment: bpftool prints none here"
refused file-scope-function 2 "line 7: $fs"
refused file-scope-variable 2 "line 7: $fs"
refused guard 2 "line 3: $pp '#ifndef __OTHER_SKEL_H__', where bpftool prints '#ifndef __SIGN_MIN_SKEL_H__'"
# bpftool's own preprocessor lines, moved around the load function, hide it
# from the compiler (which then sees only the forger's NAME__load()):
# each must be on the line where bpftool prints it
forge moved-signed-check "$WORK/moved.h"
refused moved-signed-check 2 \
	"line $(line_of "$signed_check" "$WORK/moved.h"): '$signed_check' belongs on line 8"
forge moved-cplusplus "$WORK/moved.h"
refused moved-cplusplus 2 \
	"line $(($(line_of '#ifdef __cplusplus' "$WORK/moved.h") - 2)): bpftool prints 'sign_min__assert(struct sign_min *s __attribute__((unused)))' here"
expect_eq "moved-cplusplus: what the compiler reads has no signed loader" 0 \
	"$(gcc -E -P -I"$OUT/libbpf/include" "$WORK/moved.h" | grep -c opts_insn || true)"

# --- Code outside the load function: only the object tells ---
forge open-body "$WORK/open.h"
expect_status "open-body: without object, the layout passes" 0 \
	bt prog verify file "$WORK/open.h" -i "$WORK/rel.der"
expect_eq "open-body: the verdict says no object was compared" \
	"object:              none (checked: the load up to its result, and the file's layout)" \
	"$(grep '^object:' "$WORK/out")"
expect_err "open-body: with object" 1 \
	"$WORK/open.h: line $(line_of 'syscall(321' "$WORK/open.h") is not what 'bpftool gen skeleton' writes for $obj" \
	bt prog verify file "$WORK/open.h" object "$obj" -i "$WORK/rel.der"
cp "$WORK/open.h" "$WORK/orig.h"
expect_err "open-body: prog sign file object" 255 \
	"$WORK/open.h: line $(line_of 'syscall(321' "$WORK/open.h") is not what 'bpftool gen skeleton' writes for $obj" \
	bt prog sign file "$WORK/open.h" object "$obj" -k "$WORK/rel.key" -i "$WORK/rel.der"
if cmp -s "$WORK/open.h" "$WORK/orig.h"; then
	pass "open-body: prog sign object left the header as it was"
else
	fail "open-body: prog sign object left the header as it was"
fi

# --- The genuine header, with its object: the whole of it ---
expect_status "genuine: verified with object" 0 bt prog verify file "$H" object "$obj" -i "$WORK/rel.der"
expect_eq "genuine: plain names the object" \
	"object:              $obj (the whole header is what gen skeleton writes for it)" \
	"$(grep '^object:' "$WORK/out")"
expect_eq "genuine: JSON object is the path" "\"$obj\"" \
	"$(bt -j prog verify file "$H" object "$obj" -i "$WORK/rel.der" | jq .object)"
expect_eq "genuine: JSON object is null without one" null \
	"$(bt -j prog verify file "$H" -i "$WORK/rel.der" | jq .object)"
expect_eq "genuine: JSON object comes last" object \
	"$(bt -j prog verify file "$H" -i "$WORK/rel.der" | jq -r 'keys_unsorted | last')"
cp "$H" "$WORK/resign.h"
expect_status "genuine: prog sign file object re-signs" 0 \
	bt prog sign file "$WORK/resign.h" object "$obj" -k "$WORK/rel.key" -i "$WORK/rel.der"
expect_status "genuine: the re-signed header verifies with object" 0 \
	bt prog verify file "$WORK/resign.h" object "$obj" -i "$WORK/rel.der"
skel -S >"$WORK/later.h" 2>/dev/null
expect_status "a header to be signed later: payload with object" 0 \
	bt prog sign file "$WORK/later.h" object "$obj" payload "$WORK/payload.bin"
expect_eq "that payload is opts_insn then opts_data" \
	"$(cat <("$TESTS_DIR/lskel-blob" dump opts_insn "$H") <("$TESTS_DIR/lskel-blob" dump opts_data "$H") | sha256sum)" \
	"$(sha256sum <"$WORK/payload.bin")"

# --- Another object, a missing one, a file that is no object ---
# (sign_min.bpf.c built another way gives the same loader: another
# program, under the same name)
cp "$T/rodata_const.bpf.o" "$WORK/other.bpf.o"
# the first line that differs, as cmp finds it in the header gen skeleton
# writes for the other object
bt -L -S gen skeleton "$WORK/other.bpf.o" name sign_min >"$WORK/other.h" 2>/dev/null
first=$(cmp "$H" "$WORK/other.h" | sed -E 's/.*, line ([0-9]+)$/\1/' || true)
expect_err "another object" 1 \
	"$H: line $first is not what 'bpftool gen skeleton' writes for $WORK/other.bpf.o" \
	bt prog verify file "$H" object "$WORK/other.bpf.o" -i "$WORK/rel.der"
expect_err "a missing object" 2 "can't read object $WORK/none.o: No such file or directory" \
	bt prog verify file "$H" object "$WORK/none.o" -i "$WORK/rel.der"
expect_status "not an object" 2 bt prog verify file "$H" object "$WORK/rel.der" -i "$WORK/rel.der"
expect_eq "not an object: message" \
	"Error: 'bpftool gen skeleton' failed on $WORK/rel.der: libbpf: elf: 'sign_min' is not a proper ELF object" \
	"$(cat "$WORK/err")"
expect_err "object twice" 2 "expected 'object OBJ' or 'signature SIGFILE' once each, got: 'object'" \
	bt prog verify file "$H" object "$obj" object "$obj" -i "$WORK/rel.der"

# --- What the compiler makes of the headers (bpf() intercepted) ---
loads() {
	gcc -O2 -w -I "$inc" -DSKEL_HEADER="\"$1\"" -DSKEL=sign_min \
		"$TESTS_DIR/src/lskel_syscalls.c" -o "$WORK/loads" && "$WORK/loads"
}
sig_sz=$("$TESTS_DIR/lskel-blob" dump opts_sig "$H" | wc -c)
insns=$(("$("$TESTS_DIR/lskel-blob" dump opts_insn "$H" | wc -c)" / 8))
signed_load=$(loads "$H" || true)
expect_eq "the genuine header loads the signed loader" \
	"insns=$insns signature=$sig_sz bytes" "$(sed -E 's/^prog_load (insns=[0-9]+) digest=[0-9a-f]+ /\1 /' <<<"$signed_load")"
got=$(loads "$WORK/f-define-load.h" || true)
expect_eq "define-load compiles into the same loader without its signature" \
	"${signed_load% signature=*} signature=none" "$got"
got=$(loads "$WORK/f-if0.h" || true)
case $got in
"prog_load insns="*" signature=none")
	if [ "${got%% signature=*}" != "${signed_load%% signature=*}" ]; then
		pass "if0 compiles into another loader, unsigned"
	else
		fail "if0 compiles into another loader, unsigned" "same loader: $got"
	fi ;;
*) fail "if0 compiles into another loader, unsigned" "got '$got'" ;;
esac

# --- Every test object's real headers pass, signed and unsigned ---
for o in "$T"/*.bpf.o; do
	n=$(basename "$o" .bpf.o)
	if ! bt -S -k "$WORK/rel.key" -i "$WORK/rel.der" gen skeleton "$o" name "$n" >"$WORK/real.h" 2>/dev/null; then
		continue
	fi
	expect_status "$n: its signed header verifies with its object" 0 \
		bt prog verify file "$WORK/real.h" object "$o" -i "$WORK/rel.der"
	bt -L gen skeleton "$o" name "$n" >"$WORK/real-l.h" 2>/dev/null
	expect_status "$n: its unsigned header parses (no signature: exit 1)" 1 \
		bt prog verify file "$WORK/real-l.h" -i "$WORK/rel.der"
done
