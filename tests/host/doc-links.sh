#!/usr/bin/env bash
# The documentation's relative links lead somewhere (scripts/check-doc-links,
# also run by scripts/lint), and the checker itself refuses each kind of
# broken link and accepts what GitHub renders, on documents made here.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

check=$REPO_ROOT/scripts/check-doc-links

# the broken links, if any, are the failure's reason
name="doc links: every relative link of README.md and docs/*.md names an existing file and heading"
if "$check" >"$WORK/links" 2>&1; then
	pass "$name"
else
	fail "$name" "$(cat "$WORK/links")"
fi

# A small tree of documents: $WORK/docs is the root the checker keeps to
d=$(realpath "$WORK")/docs
mkdir -p "$d/sub"
echo 'not markdown' >"$d/notes.txt"
cat >"$d/sub/target.md" <<'EOF'
# Target

## `make check`, in detail

## Notes

## Notes
EOF

# check_one NAME STATUS OUTPUT DOC: DOC (the text of $d/doc.md) makes the
# checker exit with STATUS and print exactly OUTPUT
check_one() {
	local name=$1 status=$2 output=$3
	printf '%s\n' "$4" >"$d/doc.md"
	expect_status "doc links checker: $name: exit status" "$status" \
		"$check" --root "$d" "$d/doc.md"
	expect_eq "doc links checker: $name: output" "$output" "$(cat "$WORK/out")"
}

check_one "GitHub-style anchors, links over two lines, code and URLs skipped" 0 \
	"check-doc-links: 7 links in 1 files, 0 broken" \
	"# Doc

A [file](sub/target.md), [a heading with code and a comma](sub/target.md#make-check-in-detail),
the [second *Notes*](sub/target.md#notes-1), [this file's
own heading](#doc), [rooted](/notes.txt), ![a folder](sub/) and
[one more][ref] and [the web](https://example.org/missing.md).

[ref]: sub/target.md#notes

\`[in a span](missing.md)\` and \`\`[in
a span over two lines](missing.md)\`\`

    [indented code](missing.md)

\`\`\`
[fenced code](missing.md)
\`\`\`"
check_one "a file that does not exist" 1 \
	"doc.md:3: sub/missing.md: no such file: sub/missing.md
check-doc-links: 1 links in 1 files, 1 broken" \
	"# Doc

See [this](sub/missing.md)."
check_one "an anchor no heading makes" 1 \
	"doc.md:1: sub/target.md#make-check: no heading of sub/target.md has the anchor #make-check
doc.md:2: sub/target.md#notes-2: no heading of sub/target.md has the anchor #notes-2
check-doc-links: 2 links in 1 files, 2 broken" \
	"[a](sub/target.md#make-check)
[b](sub/target.md#notes-2)"
check_one "a link out of the root" 1 \
	"doc.md:1: ../../etc/passwd: outside $d
check-doc-links: 1 links in 1 files, 1 broken" \
	"[a](../../etc/passwd)"
check_one "an anchor into a file that is not markdown" 1 \
	"doc.md:1: notes.txt#L1: an anchor in a file that is not markdown cannot be checked
check-doc-links: 1 links in 1 files, 1 broken" \
	"[a](notes.txt#L1)"
