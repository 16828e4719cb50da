# The signatures of the differential test: tests/guest/differential.sh
# hands each to the kernel and to prog verify, tests/host/offline-verdicts.sh
# to prog verify alone (no kernel, so a developer sees these verdicts in
# seconds). Each row names a signature, the certificate prog verify gets,
# the kernel's answer, and (tests/signature-cases.reasons) prog verify's
# reason. Sourced after tests/lib.sh, in $WORK.
# shellcheck shell=bash

# The light skeleton whose loader and metadata every row signs: its header
# and its two blobs
H=$T/fentry_count.lskel.h
insns=$T/fentry_count.opts_insn.bin
data=$T/fentry_count.opts_data.bin

# print_hex <FILE: FILE as bpftool writes a blob into a C string (gen.c's
# print_hex()): \0 or \xNN per byte, a backslash-newline before a byte
# that would end past column 78
print_hex() {
	perl -0777 -ne 'my $len = 0;
		for my $c (unpack("C*", $_)) {
			my $w = $c ? 4 : 2;
			$len += $w;
			if ($len > 78) { print "\\\n"; $len = $w; }
			print $c ? sprintf("\\x%02x", $c) : "\\0";
		}'
}

# cms OUT KEY [OPENSSL-CMS-OPTIONS...]: a signature over signed.bin; the
# options replace the defaults (-noattr -nocerts -md sha256 -keyid)
cms() {
	local out=$1 k=$2
	shift 2
	[ $# -gt 0 ] || set -- -noattr -nocerts -md sha256 -keyid
	openssl cms -sign -binary -nosmimecap -in signed.bin -signer "$k.crt" -inkey "$k.key" \
		-outform DER -out "$out" "$@"
}

# What openssl cms cannot make (src/cms_craft.c)
# craft OUT KEY [CMS_CRAFT-OPTIONS...]: a signature over signed.bin
craft() {
	local out=$1 k=$2
	shift 2
	"$T/cms_craft" sign "$@" signed.bin "$k.crt" "$k.key" "$out"
}

# make_signatures: the keys (NAME.key, .crt, .der) and every signature of
# the rows, in $WORK; sets H4 and data4 (metadata 8n+4 bytes long)
make_signatures() {
	cat "$insns" "$data" >signed.bin
	make_key rsa2048 -algorithm RSA -pkeyopt rsa_keygen_bits:2048
	make_key rsa4096 -algorithm RSA -pkeyopt rsa_keygen_bits:4096
	make_key p256 -algorithm EC -pkeyopt ec_paramgen_curve:P-256
	make_key p384 -algorithm EC -pkeyopt ec_paramgen_curve:P-384
	make_key stranger -algorithm RSA -pkeyopt rsa_keygen_bits:2048
	make_key rsa1024 -algorithm RSA -pkeyopt rsa_keygen_bits:1024
	make_key rsa3072 -algorithm RSA -pkeyopt rsa_keygen_bits:3072
	make_key p521 -algorithm EC -pkeyopt ec_paramgen_curve:P-521
	# A CA whose key is in the keyring, and a signer certificate it issued
	# (not in the keyring), for signatures that carry their signer's certificate
	make_key ca -algorithm EC -pkeyopt ec_paramgen_curve:P-256
	openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out leaf.key
	openssl req -new -key leaf.key -subj "/CN=bpftool test leaf" -out leaf.csr
	printf '%s\n' subjectKeyIdentifier=hash authorityKeyIdentifier=keyid basicConstraints=CA:FALSE \
		keyUsage=digitalSignature >leaf.ext
	openssl x509 -req -in leaf.csr -CA ca.crt -CAkey ca.key -set_serial 0x5eed -days 2 \
		-extfile leaf.ext -out leaf.crt 2>/dev/null


	cms rsa2048.sig rsa2048
	cms p256.sig p256
	cms rsa4096.sig rsa4096
	cms p384.sig p384
	cms sha384.sig rsa2048 -noattr -nocerts -md sha384 -keyid
	cms sha512.sig rsa2048 -noattr -nocerts -md sha512 -keyid
	cms p384-sha512.sig p384 -noattr -nocerts -md sha512 -keyid
	cms issuer-serial.sig rsa2048 -noattr -nocerts -md sha256
	cms signed-attrs.sig rsa2048 -nocerts -md sha256 -keyid
	cms with-cert.sig rsa2048 -noattr -md sha256 -keyid
	cms sha1.sig rsa2048 -noattr -nocerts -md sha1 -keyid
	cms sha224.sig rsa2048 -noattr -nocerts -md sha224 -keyid
	cms sha3.sig rsa2048 -noattr -nocerts -md sha3-256 -keyid
	# another eContentType than id-data (CMS then requires signed attributes):
	# one the kernel's parser does not know, and Authenticode's
	cms econtent.sig rsa2048 -nocerts -md sha256 -keyid -econtent_type 1.3.6.1.4.1.2312.16.1
	cms authenticode.sig rsa2048 -nocerts -md sha256 -keyid -econtent_type 1.3.6.1.4.1.311.2.1.4
	cms stranger.sig stranger
	openssl cms -sign -binary -nosmimecap -noattr -nocerts -md sha256 -keyid -in signed.bin \
		-signer rsa2048.crt -inkey rsa2048.key -signer stranger.crt -inkey stranger.key \
		-outform DER -out two-signers.sig
	cms_sign "$insns" rsa2048.crt rsa2048.key insns-only.sig
	cp rsa2048.sig flipped.sig
	flip_byte flipped.sig $(($(stat -c %s rsa2048.sig) - 10))
	head -c 100 rsa2048.sig >truncated.sig
	head -c 300 /dev/urandom >junk.sig

	cms rsa1024.sig rsa1024
	cms rsa3072.sig rsa3072
	cms p521.sig p521
	# the signer's certificate carried, and named by issuer and serial, so the
	# kernel finds it in the message (and checks signingTime against it)
	cms cert-issuer-serial.sig rsa2048 -noattr -md sha256
	# a certificate in the message that chains to a key in the keyring
	cms chain-issuer-serial.sig leaf -noattr -md sha256
	cms chain-keyid.sig leaf -noattr -md sha256 -keyid
	cms chain-nocert.sig leaf -noattr -nocerts -md sha256

	# the signatureAlgorithm replaced after signing without signed attributes,
	# where nothing covers it
	craft sigalg-sha256rsa.sig rsa2048 --sigalg 1.2.840.113549.1.1.11
	craft sigalg-ecpublickey.sig p256 --sigalg 1.2.840.10045.2.1
	craft sigalg-ecdsa-sha384.sig p256 --sigalg 1.2.840.10045.4.3.3
	craft sigalg-pss.sig rsa2048 --sigalg 1.2.840.113549.1.1.10
	craft sigalg-ecdsa-on-rsa.sig rsa2048 --sigalg 1.2.840.10045.4.3.2
	craft sigalg-rsa-on-ecdsa.sig p256 --sigalg 1.2.840.113549.1.1.1
	craft pss.sig rsa2048 --pss
	# signingTime against the carried signer certificate (valid for 2 days
	# from now): before it, after it, within it (now), and the same where
	# the kernel has no certificate to compare it with
	craft time-before.sig rsa2048 --cert --issuer-serial --signing-time 20000101000000Z
	craft time-after.sig rsa2048 --cert --issuer-serial --signing-time 20991231000000Z
	craft time-now.sig rsa2048 --cert --issuer-serial --attrs
	craft time-before-keyid.sig rsa2048 --cert --signing-time 20000101000000Z
	craft time-before-nocert.sig rsa2048 --signing-time 20000101000000Z
	craft twice.sig rsa2048 --twice
	"$T/cms_craft" append 8 rsa2048.sig trailing8.sig
	cp rsa2048.sig trailing-eoc.sig
	printf '\0\0' >>trailing-eoc.sig
	craft certs-5k.sig rsa2048 --extra-certs 7
	craft certs-9k.sig rsa2048 --extra-certs 12
	# signed attributes: a contentType other than the eContentType (id-data),
	# a messageDigest of the right length but wrong, one of SHA-384's length
	craft content-type.sig rsa2048 --content-type 1.2.840.113549.1.7.2
	craft digest-wrong.sig rsa2048 --message-digest "$(printf '5a%.0s' $(seq 32))"
	craft digest-length.sig rsa2048 --message-digest "$(openssl dgst -sha384 -r signed.bin | cut -c1-96)"

	# Metadata of 4 bytes more than a multiple of 8: the kernel signs
	# value_size bytes of the map's value, as upstream does, not the value
	# padded to 8 bytes (sig_load --meta makes value_size the file's size),
	# so a signature over the bytes as they are loads and one over them
	# padded with zeros fails. The header to check them against has the
	# same 4 bytes at the end of opts_data, printed as bpftool prints it.
	data4=data4.bin
	cp "$data" "$data4"
	printf '\001\002\003\004' >>"$data4"
	H4=meta4.lskel.h
	{
		sed -n '1,/opts_data\[\] __attribute__/p' "$H"
		print_hex <"$data4"
		echo '";'
		sed -n '/opts_data\[\] __attribute__/,$p' "$H" | sed '1,/";$/d'
	} >"$H4"
	cat "$insns" "$data4" >signed4.bin
	{ cat signed4.bin; printf '\0\0\0\0'; } >signed4-padded.bin
	cms_sign signed4.bin rsa2048.crt rsa2048.key meta4-unpadded.sig
	cms_sign signed4-padded.bin rsa2048.crt rsa2048.key meta4-padded.sig
}

# signatures_here: the keys and signatures of make_signatures in $WORK,
# copied from what tests/make-signature-cases made for this run (tests/run),
# or made here if there is none from the last day (a script run on its own;
# the signer certificates are valid for 2 days); sets H4 and data4
signatures_here() {
	local made=$T/signature-cases
	if [ -n "$(find "$made/.complete" -mmin -1440 2>/dev/null)" ]; then
		cp -a "$made/." .
		data4=data4.bin
		H4=meta4.lskel.h
	else
		make_signatures
	fi
}

# check_signatures PREFIX: the signatures are what their rows say
check_signatures() {
	local p=$1 old_line
	expect_eq "$p: the signature with 7 extra certificates is 5000 to 8192 bytes" yes \
		"$(s=$(stat -c %s certs-5k.sig); [ "$s" -ge 5000 ] && [ "$s" -le 8192 ] && echo yes || echo "$s")"
	expect_eq "$p: the signature with 12 extra certificates is over 8192 bytes" yes \
		"$(s=$(stat -c %s certs-9k.sig); [ "$s" -gt 8192 ] && echo yes || echo "$s")"
	# the edited header: opts_data as bpftool prints it, nothing else changed
	expect_eq "$p: the edited header prints opts_data as bpftool would" \
		"$(print_hex <"$data")" \
		"$(sed -n '/opts_data\[\] __attribute__/,/";$/p' "$H" | sed '1d;s/";$//')"
	expect_eq "$p: the edited header differs in opts_data only" \
		"$(sed '/opts_data\[\] __attribute__/,/";$/d' "$H" | sha256sum)" \
		"$(sed '/opts_data\[\] __attribute__/,/";$/d' "$H4" | sha256sum)"
}

# prog_verify_row PREFIX NAME SIG CERT KERNEL-ANSWER HEADER: prog verify
# checks SIG against HEADER with CERT. It must accept (exit 0) exactly when
# KERNEL-ANSWER is ok and refuse (1) otherwise, and its message must match
# the row's pattern in tests/signature-cases.reasons. Sets offline (accepts,
# refuses, error N) and appends NAME|MESSAGE to reasons.
prog_verify_row() {
	local p=$1 name=$2 sig=$3 cert=$4 kernel=$5 header=$6 status=0 reason want_reason
	local reasons_file=$TESTS_DIR/signature-cases.reasons
	"$BPFTOOL" -i "$cert.crt" prog verify file "$header" signature "$sig" >/dev/null \
		2>"$name.err" || status=$?
	case "$status" in
	0) offline=accepts ;;
	1) offline=refuses ;;
	*) offline="error $status" ;;
	esac
	reason=$(sed -e 's|^Error: ||' -e "s|$header|HEADER|g" "$name.err" | tr '\n' ' ' | sed 's/ $//')
	printf '%s|%s\n' "$name" "$reason" >>reasons
	# the reason, not only the status
	want_reason=$(grep -F -m 1 "$name|" "$reasons_file" | cut -d'|' -f2-)
	if ! grep -q -F "$name|" "$reasons_file"; then
		fail "$p: $name: prog verify's reason" "no row in signature-cases.reasons"
	elif [[ $reason == $want_reason ]]; then
		pass "$p: $name: prog verify's reason"
	else
		fail "$p: $name: prog verify's reason" "expected '$want_reason', got '$reason'"
	fi
	if { [ "$kernel" = ok ] && [ "$status" = 0 ]; } ||
		{ [ "$kernel" != ok ] && [ "$status" = 1 ]; }; then
		pass "$p: $name: prog verify agrees with the kernel"
	else
		fail "$p: $name: prog verify agrees with the kernel" \
			"kernel $kernel, prog verify $offline: $(head -c 300 "$name.err")"
	fi
}

# signature_rows: case_ NAME SIG CERT KERNEL-ANSWER [METADATA HEADER] for
# every row; the caller defines case_
signature_rows() {
	case_ "RSA-2048, SHA-256, key id" rsa2048.sig rsa2048 ok
	case_ "ECDSA P-256, SHA-256" p256.sig p256 ok
	case_ "RSA-4096, SHA-256" rsa4096.sig rsa4096 ok
	case_ "ECDSA P-384, SHA-256" p384.sig p384 ok
	case_ "RSA-2048, SHA-384" sha384.sig rsa2048 ok
	case_ "RSA-2048, SHA-512" sha512.sig rsa2048 ok
	case_ "ECDSA P-384, SHA-512" p384-sha512.sig p384 ok
	case_ "signer by issuer and serial" issuer-serial.sig rsa2048 ok
	case_ "signed attributes" signed-attrs.sig rsa2048 ok
	case_ "certificate embedded" with-cert.sig rsa2048 ok
	# SHA-256/384/512 only, on every kernel config (kernel patch 0008)
	case_ "SHA-1 digest" sha1.sig rsa2048 EKEYREJECTED
	case_ "SHA-224 digest" sha224.sig rsa2048 EKEYREJECTED
	case_ "SHA3-256 digest" sha3.sig rsa2048 EKEYREJECTED
	case_ "eContentType unknown to the kernel" econtent.sig rsa2048 EINVAL
	case_ "eContentType Authenticode, not id-data" authenticode.sig rsa2048 EKEYREJECTED
	case_ "signer not in the keyring" stranger.sig rsa2048 ENOKEY
	case_ "two signers" two-signers.sig rsa2048 EBADMSG
	case_ "over the instructions only" insns-only.sig rsa2048 EKEYREJECTED
	case_ "one signature byte flipped" flipped.sig rsa2048 EKEYREJECTED
	case_ "truncated" truncated.sig rsa2048 EBADMSG
	case_ "random bytes" junk.sig rsa2048 EBADMSG
	case_ "RSA-1024" rsa1024.sig rsa1024 ok
	case_ "RSA-3072" rsa3072.sig rsa3072 ok
	case_ "ECDSA P-521" p521.sig p521 ok
	# the parser knows rsaEncryption and ecdsa-with-* only
	case_ "signatureAlgorithm sha256WithRSAEncryption" sigalg-sha256rsa.sig rsa2048 ENOPKG
	case_ "signatureAlgorithm id-ecPublicKey" sigalg-ecpublickey.sig p256 ENOPKG
	case_ "signatureAlgorithm ecdsa-with-SHA384, P-256, SHA-256" sigalg-ecdsa-sha384.sig p256 ok
	case_ "signatureAlgorithm rsassa-pss on a PKCS#1 v1.5 signature" sigalg-pss.sig rsa2048 ENOPKG
	case_ "signatureAlgorithm ecdsa-with-SHA256 on RSA" sigalg-ecdsa-on-rsa.sig rsa2048 EKEYREJECTED
	case_ "signatureAlgorithm rsaEncryption on ECDSA" sigalg-rsa-on-ecdsa.sig p256 EKEYREJECTED
	case_ "RSA-PSS" pss.sig rsa2048 ENOPKG
	case_ "certificate embedded, signer by issuer and serial" cert-issuer-serial.sig rsa2048 ok
	# signingTime is checked against the signer's certificate only where the
	# message carries it and names its signer by issuer and serial
	case_ "signingTime before the embedded certificate" time-before.sig rsa2048 EKEYREJECTED
	case_ "signingTime after the embedded certificate" time-after.sig rsa2048 EKEYREJECTED
	case_ "signingTime within the embedded certificate" time-now.sig rsa2048 ok
	case_ "signingTime before the certificate, signer by key id" time-before-keyid.sig rsa2048 ok
	case_ "signingTime 2000, no certificate" time-before-nocert.sig rsa2048 ok
	case_ "two SignerInfos by the same key" twice.sig rsa2048 EBADMSG
	case_ "8 bytes after the DER" trailing8.sig rsa2048 EBADMSG
	case_ "two zero bytes after the DER" trailing-eoc.sig rsa2048 EBADMSG
	case_ "5000+ bytes, 7 extra certificates" certs-5k.sig rsa2048 ok
	case_ "over 8192 bytes, 12 extra certificates" certs-9k.sig rsa2048 EINVAL
	case_ "contentType attribute not the eContentType" content-type.sig rsa2048 EBADMSG
	case_ "messageDigest attribute wrong" digest-wrong.sig rsa2048 EKEYREJECTED
	case_ "messageDigest attribute of SHA-384 length" digest-length.sig rsa2048 EBADMSG
	case_ "metadata 8n+4 bytes, signed as it is" meta4-unpadded.sig rsa2048 ok "$data4" "$H4"
	case_ "metadata 8n+4 bytes, signed padded with zeros" meta4-padded.sig rsa2048 EKEYREJECTED "$data4" "$H4"
	# The keyring holds a CA's key only; the signer's certificate, issued by
	# it, comes with the message
	case_ "chain: certificate carried, issuer and serial" chain-issuer-serial.sig ca ok
	case_ "chain: certificate carried, key id" chain-keyid.sig ca ENOKEY
	case_ "chain: certificate not carried" chain-nocert.sig ca ENOKEY
}
