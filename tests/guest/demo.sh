#!/usr/bin/env bash
# make demo's transcript (tests/demo.sh), as make check runs it: it exits
# 0, every step prints what the README and docs show (tests/golden/demo.txt,
# with what varies from run to run masked), and what it states is
# recomputed here: the digests from the instructions it printed, the
# keyring from the serial it printed, step 5 line by line.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$WORK"

rc=0
bash "$TESTS_DIR/demo.sh" >demo.log 2>&1 || rc=$?
expect_eq "demo: exits 0" 0 "$rc"

# step NUMBER: the lines of that step, its heading left out (the PASS
# lines of its tools indented, so that a failure's message, which quotes
# them, adds no PASS line to this script's count)
step() {
	awk -v n="$1" '/^### / { on = ($2 == n ".") ; next } on' demo.log | sed 's/^PASS: /  PASS: /'
}

# 1 and 2: bpftool's digest of the exclusive map's owner and the map's
# owner are openssl's SHA-256 of the instructions xxd showed
step 1 | grep -E '^[0-9a-f]{8}: ' | xxd -r >insns.bin
digest=$(openssl dgst -sha256 -r insns.bin | cut -c1-64)
expect_eq "demo step 1: 4 instruction slots shown" 32 "$(wc -c <insns.bin)"
expect_eq "demo step 1: the digest it prints is openssl's" \
	"openssl SHA-256 of these instructions: $digest" "$(step 1 | grep '^openssl ')"
expect_eq "demo step 2: prog show's digest is openssl's" "	digest sha256:$digest" \
	"$(step 2 | grep -P '^\tdigest ')"
expect_eq "demo step 2: prog show's tag is its first 8 bytes" 1 \
	"$(step 2 | grep -c -E "^[0-9]+: socket_filter  tag ${digest:0:16}  gpl$")"
expect_eq "demo step 2: the map is exclusive to it" "	exclusive to sha256:$digest" \
	"$(step 2 | grep -P '^\texclusive to ')"

# 3: the loader's verdict names the session keyring the demo made, and the
# signer is the test certificate's key
serial=$(step 3 | sed -n '/^\$ keyctl new_session$/{n;p}')
loader=$(cat "$T/fentry_count.loader.sha256")
expect_eq "demo step 3: the loader's verdict" \
	"	loader sha256:$loader  signature verified  keyring user $serial  signer $(skid "$T/keys/signer.pem")  covers 1 map" \
	"$(step 3 | grep -P '^\tloader ')"

# 4 and 5, exactly
expect_eq "demo step 4: tampering and a wrong keyring are refused" "$(cat <<'END'
One byte of opts_data flipped after signing:
$ out/tests/lskel_run_tampered_data load-only session
Key was rejected by service
(exit status 1)
The test key against the builtin trusted keyring, which does not hold it:
$ out/tests/lskel_run load-only 0
Required key not available
(exit status 1)
END
)" "$(step 4)"
expect_eq "demo step 5: the policy refuses the unsigned, admits the signed" "$(cat <<'END'
The policy trusts the builtin and secondary keyrings, and the one keyring
its operator names. Anyone may add a certificate to their own session
keyring, so only an operator can make it trusted: here the session
keyring that holds the test certificate (production: the secondary
keyring, which takes only keys vouched for by a builtin one).
$ out/tests/signed_only enforce /sys/fs/bpf/demo/policy session session
$ out/tests/sig_load load
EPERM
(exit status 1)
$ out/tests/lskel_run_unsigned load-only 0
Operation not permitted
(exit status 1)
$ out/tests/lskel_run fentry session
  PASS: lskel fentry: signed skeleton loads
  PASS: lskel fentry: attaches
  PASS: lskel fentry: 3 entries counted
  PASS: lskel fentry: 3 exits counted
The policy is in force until its pin is removed:
$ rm /sys/fs/bpf/demo/policy
$ out/tests/sig_load load
ok
END
)" "$(step 5)"

# The whole transcript, what varies masked (the loader's digest was
# checked above: it changes with clang's output for the BTF it loads)
sed -E -e 's/^[0-9]{1,7}: /<ID>: /' -e 's/^6\.12\.[0-9]+.*/<RELEASE>/' \
	-e 's/loaded_at [^ ]+/loaded_at <TIME>/' -e 's/(jited|memlock) [0-9]+B/\1 <N>B/g' \
	-e 's/(map_ids|btf_id) [0-9,]+/\1 <N>/g' \
	-e 's/loader sha256:[0-9a-f]{64}/loader sha256:<LOADER>/' \
	-e 's/keyring user [0-9]+/keyring user <SERIAL>/' -e 's/signer [0-9a-f]+/signer <SKID>/' \
	-e 's/^[0-9]+$/<SERIAL>/' demo.log >demo.masked
golden demo.masked demo.txt
