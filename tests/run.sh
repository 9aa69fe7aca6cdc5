#!/bin/sh
# Runs every unit-test program and every CLI test script of one build and
# adds up their closing "N passed, N failed" lines.
# Usage: tests/run.sh BUILDDIR   (BUILDDIR holds sbfs, test_* and verify_*)
set -u
B=${1:?usage: tests/run.sh BUILDDIR}
B=$(cd "$B" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
export SBFS="$B/sbfs" SBFS_BUILD="$B" SBFS_TOP="$top" VERIFY="$top/tests/verify"
pass=0; fail=0; broken=""
tally() { # name, output file, exit status
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$2" | tail -n 1)
    if [ -z "$line" ]; then
        broken="$broken $1"; fail=$((fail + 1)); tail -n 20 "$2"
        return
    fi
    p=${line%% passed*}; f=${line#*, }; f=${f%% failed*}
    pass=$((pass + p)); fail=$((fail + f))
    if [ "$f" != 0 ] || [ "$3" != 0 ]; then
        [ "$f" != 0 ] || fail=$((fail + 1))
        broken="$broken $1"
    fi
    printf '  %-28s %s\n' "$1" "$line"
}
out=$(mktemp); trap 'rm -f "$out"' EXIT
for t in "$B"/test_*; do
    [ -x "$t" ] || continue
    (cd "$top" && "$t") >"$out" 2>&1; st=$?
    [ $st = 0 ] || cat "$out" | grep -v '^[0-9]* passed' | head -n 40
    tally "$(basename "$t")" "$out" $st
done
for s in "$top"/tests/cli/test_*.sh; do
    [ -f "$s" ] || continue
    (cd "$top" && sh "$s") >"$out" 2>&1; st=$?
    [ $st = 0 ] || cat "$out" | grep -v '^[0-9]* passed' | head -n 40
    tally "$(basename "$s")" "$out" $st
done
[ -z "$broken" ] || echo "failing:$broken"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
