#!/usr/bin/env bash
# make test: run every test group and print KTAP (version 1): the plan is
# the number of groups, each group is a test whose subtests are its checks
# (the "ok - " / "not ok - " lines a group prints, numbered here; an
# "ok - ... # SKIP reason" is a skipped check, counted as passed and
# named in the group's line; tests/lib.sh writes them). The
# closing line "N passed, N failed" counts the checks. Exit 0 iff nothing
# failed.
# The groups are found on disk: each tests/*.sh with a line
#   # test: NAME ORDER host|guest
# (host: runs without a kernel; guest: boots one), run in ORDER. A new
# group is a new file. ONLY=group,group runs a subset; an unknown group is
# an error (exit 2).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
pass=0 fail=0
# NAME ORDER KIND FILE, one line per group, in order
table=$(awk 'FNR <= 3 && $1 == "#" && $2 == "test:" && !seen[FILENAME]++ { print $3, $4, $5, FILENAME }' tests/*.sh | sort -k2,2n)
GROUPS_ALL=$(awk '{ printf "%s%s", (NR > 1) ? " " : "", $1 }' <<<"$table")
HOST_ONLY=$(awk '$3 == "host" { printf "%s ", $1 }' <<<"$table")
ONLY=${ONLY:-}
for g in ${ONLY//,/ }; do
	case " $GROUPS_ALL " in *" $g "*) ;; *) echo "error: unknown test group '$g' (groups: $GROUPS_ALL)" >&2; exit 2 ;; esac
done
selected() { case ",${ONLY:-$1}," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }
# --check: the groups are known (exit 0, else 2 above); --needs-guest: exit
# 0 when a selected group boots a guest, so make builds the kernel only then
case "${1:-}" in
--check) exit 0 ;;
--needs-guest)
	for g in $GROUPS_ALL; do
		selected "$g" && [[ " $HOST_ONLY " != *" $g "* ]] && exit 0
	done
	exit 1 ;;
esac
out=$(mkdir -p logs && mktemp -d "logs/test-$(date +%Y%m%d-%H%M%S)-XXXX") || exit 2
export TEST_STAMP=${out#logs/test-}
# the groups' runs and records live in this checkout's logs/, where the
# groups read them, whatever LOGS the caller has
export LOGS=$PWD/logs
n=0
for g in $GROUPS_ALL; do selected "$g" && n=$((n + 1)); done
echo "KTAP version 1"
echo "1..$n"
k=0

# group NAME CMD...: one KTAP test; the group's checks are its subtests
group() {
	local name=$1; shift
	selected "$name" || return 0
	k=$((k + 1))
	echo "# $name"
	local t0=$SECONDS rc
	echo "  KTAP version 1"
	"$@" 2>&1 | tee "$out/$name.log" | grep --line-buffered -E '^(ok|not ok) - |^#|^\[|^ ' |
		awk '/^(ok|not ok) - / { sub(/ - /, " " ++i " - "); d = ""
			if (match($0, / # SKIP .*$/)) { d = substr($0, RSTART); $0 = substr($0, 1, RSTART - 1) }
			gsub(/#/, "%"); $0 = $0 d } { print "  " $0; fflush() }'
	rc=${PIPESTATUS[0]} # (no "|| true" here: it would reset PIPESTATUS to that of true)
	local p f
	p=$(grep -c '^ok - ' "$out/$name.log")
	f=$(grep -c '^not ok - ' "$out/$name.log")
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		echo "  not ok $((p + 1)) - $name: exited $rc with no failed check (the end of $out/$name.log follows)"
		tail -n 8 "$out/$name.log" | sed 's/^/  #   /'
		f=1
	fi
	if [ $((p + f)) = 0 ]; then
		echo "  not ok 1 - $name: ran no check (exit $rc; the end of $out/$name.log follows)"
		tail -n 8 "$out/$name.log" | sed 's/^/  #   /'
		f=1
	fi
	local sk
	sk=$(grep -c '^ok - .* # SKIP ' "$out/$name.log")
	echo "# $name: $p passed ($sk skipped), $f failed in $((SECONDS - t0)) s"
	[ "$f" = 0 ] && echo "ok $k $name" || echo "not ok $k $name"
	pass=$((pass + p)); fail=$((fail + f))
}

# a group gets no stdin: one that reads it (ssh, qemu) would eat the table
# and end the loop after its own group
while read -r name _ _ file; do group "$name" "$file" </dev/null; done <<<"$table"

echo "# logs: $out"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
