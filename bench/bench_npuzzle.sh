#!/bin/sh
# Korf's 100 15-puzzle instances (data/korf100.txt): pattern database build
# time and size, total and median solve time, nodes generated, peak memory.
#  - 6-6-3 from nothing (tables built into a temporary folder, build included);
#  - 6-6-3 again with the tables cached;
#  - 7-8 with reflection, if its tables are in the cache folder
#    ($SBFS_PDB_DIR, else $XDG_CACHE_HOME/sbfs, else ~/.cache/sbfs), or
#    built there first when BENCH_78=build.
set -u
top=${SBFS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
SBFS=${SBFS:-$top/sbfs}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
awk '!/^#/{s=$3; for (i = 4; i <= 18; i++) s = s " " $i; print s}' "$top/data/korf100.txt" >"$tmp/in"
awk '!/^#/{print $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18}' \
    "$top/data/korf100.txt" >"$tmp/k"
timev=""
/usr/bin/time -v true >/dev/null 2>&1 && timev="/usr/bin/time -v"

run() { # LABEL ARGS...
    label=$1; shift
    t0=$(date +%s.%N)
    $timev "$SBFS" npuzzle -g blank-first --no-progress "$@" "$tmp/in" >"$tmp/out" 2>"$tmp/err"
    st=$?
    t1=$(date +%s.%N)
    if [ $st != 0 ]; then echo "$label: failed (exit $st)"; tail -n 3 "$tmp/err"; return 1; fi
    if [ -x "${SBFS_BUILD:-$top/build/opt}/verify_npuzzle" ]; then
        v=$("${SBFS_BUILD:-$top/build/opt}/verify_npuzzle" -g blank-first -k "$tmp/k" "$tmp/out")
    else v="(verifier not built)"; fi
    echo "$label"
    grep '^# 4x4:' "$tmp/err" | sed 's/^# /  tables: /'
    grep '^# [0-9]* instances' "$tmp/err" | sed 's/^# /  /'
    awk '/^# [0-9]+: line/ { gsub(",", ""); print $9 }' "$tmp/err" | sort -n |
        awk '{ a[NR] = $1 } END { printf "  median solve time %.4f s per instance\n", (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
    awk '/^# [0-9]+: line/ { gsub(",", ""); n += $7; c++ } END { printf "  nodes generated: %d in all, %.0f per instance\n", n, n / c }' "$tmp/err"
    awk -F'\t' '{ s += $1 } END { printf "  total length %d (published: 5305)\n", s }' "$tmp/out"
    echo "  wall time (build included) $(echo "$t1 - $t0" | bc 2>/dev/null || echo '?') s; verifier: $v"
    [ -n "$timev" ] && grep 'Maximum resident' "$tmp/err" | sed 's/^\s*/  /'
    return 0
}

echo "Korf's 100 instances, blank-first goal, $(nproc) threads"
run "6-6-3 from nothing (tables built, build included):" --pdb 663 --pdb-dir "$tmp/pdb"
run "6-6-3, tables cached:" --pdb 663 --pdb-dir "$tmp/pdb"
run "5-5-5, tables cached after a first run:" --pdb 555 --pdb-dir "$tmp/pdb" >/dev/null
run "5-5-5, tables cached:" --pdb 555 --pdb-dir "$tmp/pdb"

dir=${SBFS_PDB_DIR:-${XDG_CACHE_HOME:+$XDG_CACHE_HOME/sbfs}}
dir=${dir:-$HOME/.cache/sbfs}
if ls "$dir"/npuzzle-4x4-8.9.10.11.12.13.14.15-v3.pdb >/dev/null 2>&1 || [ "${BENCH_78:-}" = build ]; then
    [ "${BENCH_78:-}" = build ] && echo "(7-8 tables are built in $dir if missing: about 10 minutes)"
    # The tables are mapped from the cache: the first open after a build
    # reads them whole for the checksum (and writes their markers, when the
    # files are over a second old), later opens check sizes and markers only.
    run "7-8 with reflection (tables in $dir), first open:" --pdb 78 --pdb-dir "$dir"
    run "7-8 with reflection (tables in $dir), end to end:" --pdb 78 --pdb-dir "$dir"
else
    echo "7-8: skipped, no tables in $dir (BENCH_78=build make bench builds them there, ~10 min, 2.1 GB)"
fi
