#!/usr/bin/env bash
# Guest side of make selftests: run the tree's BPF selftests from
# out/selftests/ and write one line per test, "TOOL<TAB>TEST<TAB>OUTCOME"
# (OK, SKIP or FAIL), to RESULTS, and each tool's output next to it.
# Usage: guest.sh RESULTS_DIR
set -uo pipefail
res=$1
dir=$(cd "$(dirname "$0")/../.." && pwd)/out/selftests
list=$(cd "$(dirname "$0")" && pwd)/test_progs.list
mkdir -p "$res"
cd "$dir"
mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup
# test_maps' sockmap tests talk over 127.0.0.1
ip link set lo up

# run TOOL ARGS...: TOOL's output in RES/TOOL.log, its status in RES/TOOL.rc
run() {
	local tool=$1 s
	s=$(date +%s)
	timeout 3000 "./$@" >"$res/$tool.log" 2>&1
	echo $? >"$res/$tool.rc"
	echo "$tool: exit $(cat "$res/$tool.rc") after $(($(date +%s) - s)) s"
}

# the tools scripts/build-selftests built
for tool in $(cat TOOLS); do
	case "$tool" in
	# the tests of what the series touches (test_progs.list)
	test_progs) run test_progs -t "$(grep -v '^#' "$list" | cut -d' ' -f1 | paste -sd,)" ;;
	*) run "$tool" ;;
	esac
done

{
	# test_tag and test_maps report one verdict for the whole run
	for t in test_tag test_maps; do
		[ -f "$res/$t.rc" ] || continue
		o=FAIL
		[ "$(cat "$res/$t.rc")" = 0 ] && o=OK
		printf '%s\t(all)\t%s\n' "$t" "$o"
	done
	# test_progs goes on without bpf_testmod.ko (its tests then SKIP)
	if [ -f "$res/test_progs.rc" ]; then
		o=OK
		grep -q 'bpf_testmod.ko will be skipped' "$res/test_progs.log" && o=FAIL
		printf 'test_progs\t(bpf_testmod.ko loads)\t%s\n' "$o"
	fi
	# test_maps' map_tests: "test_sk_storage_map:PASS",
	# "test_map_in_map_batch_ops_array:PASS with inner HASH map",
	# "test_task_storage_map_stress_lookup(78):FAIL:open_and_load error -2"
	sed -nE -e 's/^(test_[A-Za-z0-9_]+)(\([0-9]+\))?:PASS( .*)?$/test_maps\t\1\3\tOK/p' \
		-e 's/^(test_[A-Za-z0-9_]+)(\([0-9]+\))?:FAIL.*$/test_maps\t\1\tFAIL/p' \
		"$res/test_maps.log" 2>/dev/null
	# "#12/u descr OK", "#13/p descr FAIL ...", "#14/u descr SKIP"
	sed -nE 's/^#([0-9]+\/[up]) (.*) (OK|SKIP|FAIL).*$/test_verifier\t#\1 \2\t\3/p' \
		"$res/test_verifier.log" 2>/dev/null
	# "#27/3    verifier_and/invalid and of negative number:OK" (a failed
	# test is printed again at the end, hence sort -u)
	sed -nE 's/^#[0-9]+(\/[0-9]+)?[[:space:]]+(.*):(OK|SKIP|FAIL)$/test_progs\t\2\t\3/p' \
		"$res/test_progs.log" 2>/dev/null
} | sort -u >"$res/outcomes"
echo "$(wc -l <"$res/outcomes") outcomes in $res/outcomes"
