#!/bin/sh
# Korf's 100 15-puzzle instances (data/korf100.txt): pattern database build
# time and size, total and median solve time, nodes generated, CPU time,
# peak memory.
#  - 6-6-3 from nothing (tables built into a temporary folder, build included);
#  - 6-6-3 again with the tables cached;
#  - 7-8 with reflection, if its tables are in the cache folder
#    ($SBFS_PDB_DIR, else $XDG_CACHE_HOME/sbfs, else ~/.cache/sbfs); with
#    BENCH_78=build they are built from nothing into a temporary folder
#    instead (2.1 GB of memory, several minutes of CPU), the build timed;
#  - the 24-puzzle with Korf and Felner's 6-6-6-6 tables and reflection, on
#    the instances of the file $SBFS_KF50 (see README: "Benchmark
#    instances"; not bundled): the BENCH_24_COUNT (default 10) shortest,
#    each given BENCH_24_LIMIT seconds of CPU (default 900), run under nice.  The
#    four tables (127.5 MB each) are taken from the cache folder, or built
#    there first when BENCH_6666=build (1.7 GB of memory while building).
# With the argument 24, only the 24-puzzle is run.
set -u
only=${1:-}
top=${SBFS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
SBFS=${SBFS:-$top/sbfs}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
awk '!/^#/{s=$3; for (i = 4; i <= 18; i++) s = s " " $i; print s}' "$top/data/korf100.txt" >"$tmp/in"
awk '!/^#/{print $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18}' \
    "$top/data/korf100.txt" >"$tmp/k"
timev=""
/usr/bin/time -v true >/dev/null 2>&1 && timev="/usr/bin/time -v"
verify=${SBFS_BUILD:-$top/build/opt}/verify_npuzzle

# CPU seconds (user + system) and peak memory from /usr/bin/time -v's report
timings() { # FILE
    [ -n "$timev" ] || return 0
    awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { m = $2 }
        END { printf "  CPU %.2f s (user %.2f + system %.2f); peak memory %.0f MB\n", u + s, u, s, m / 1024 }' "$1"
}

run() { # LABEL ARGS...
    label=$1; shift
    t0=$(date +%s.%N)
    $timev "$SBFS" npuzzle -g blank-first --no-progress "$@" "$tmp/in" >"$tmp/out" 2>"$tmp/err"
    st=$?
    t1=$(date +%s.%N)
    if [ $st != 0 ]; then echo "$label: failed (exit $st)"; tail -n 3 "$tmp/err"; return 1; fi
    if [ -x "$verify" ]; then
        v=$("$verify" -g blank-first -k "$tmp/k" "$tmp/out")
    else v="(verifier not built)"; fi
    echo "$label"
    grep '^# 4x4:' "$tmp/err" | sed 's/^# /  tables: /'
    grep '^# [0-9]* instances' "$tmp/err" | sed 's/^# /  /'
    awk '/^# [0-9]+: line/ { gsub(",", ""); print $9 }' "$tmp/err" | sort -n |
        awk '{ a[NR] = $1 } END { printf "  median solve time %.4f s per instance\n", (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
    awk '/^# [0-9]+: line/ { gsub(",", ""); n += $7; c++ } END { printf "  nodes generated: %d in all, %.0f per instance\n", n, n / c }' "$tmp/err"
    awk -F'\t' '{ s += $1 } END { printf "  total length %d (published: 5305)\n", s }' "$tmp/out"
    echo "  wall time (process start to last answer) $(echo "$t1 - $t0" | bc 2>/dev/null || echo '?') s; verifier: $v"
    timings "$tmp/err"
    return 0
}

dir=${SBFS_PDB_DIR:-${XDG_CACHE_HOME:+$XDG_CACHE_HOME/sbfs}}
dir=${dir:-$HOME/.cache/sbfs}

fifteen() {
echo "Korf's 100 instances, blank-first goal, $(nproc) threads; load: $(uptime | sed 's/.*load/load/')"
run "6-6-3 from nothing (tables built, build included):" --pdb 663 --pdb-dir "$tmp/pdb"
run "6-6-3, tables cached:" --pdb 663 --pdb-dir "$tmp/pdb"
run "5-5-5, tables cached after a first run:" --pdb 555 --pdb-dir "$tmp/pdb" >/dev/null
run "5-5-5, tables cached:" --pdb 555 --pdb-dir "$tmp/pdb"

if [ "${BENCH_78:-}" = build ]; then
    # From nothing: the build's time and peak memory are the first run's.
    mkdir -p "$tmp/pdb78"
    run "7-8 with reflection, tables built from nothing (build included):" --pdb 78 --pdb-dir "$tmp/pdb78"
    # The tables are mapped from the cache: the first open after a build
    # reads them whole for the checksum (and writes their markers, when the
    # files are over a second old), later opens check sizes and markers only.
    sleep 1
    run "7-8 with reflection, first open:" --pdb 78 --pdb-dir "$tmp/pdb78"
    run "7-8 with reflection, end to end (tables cached):" --pdb 78 --pdb-dir "$tmp/pdb78"
    rm -rf "$tmp/pdb78"
elif ls "$dir"/npuzzle-4x4-8.9.10.11.12.13.14.15-v3.pdb >/dev/null 2>&1; then
    run "7-8 with reflection (tables in $dir), first open:" --pdb 78 --pdb-dir "$dir"
    run "7-8 with reflection (tables in $dir), end to end:" --pdb 78 --pdb-dir "$dir"
else
    echo "7-8: skipped, no tables in $dir (BENCH_78=build builds them from nothing: 2.1 GB, minutes)"
fi
}
[ "$only" = 24 ] || fifteen

# ---- the 24-puzzle ----
kf=${SBFS_KF50:-}
if [ -z "$kf" ] || [ ! -r "$kf" ]; then
    echo; echo "24-puzzle: skipped, SBFS_KF50 does not name a file of instances (README: Benchmark instances)"
    exit 0
fi
if ! ls "$dir"/npuzzle-5x5-17.18.19.22.23.24-v3.pdb >/dev/null 2>&1 && [ "${BENCH_6666:-}" != build ]; then
    echo; echo "24-puzzle: skipped, no 6-6-6-6 tables in $dir (BENCH_6666=build builds them there)"
    exit 0
fi
count=${BENCH_24_COUNT:-10}
limit=${BENCH_24_LIMIT:-900}
echo
echo "24-puzzle, Korf and Felner's 6-6-6-6 with reflection, $(nproc) threads on each instance,"
echo "the $count shortest of $kf, $limit s of CPU each; load: $(uptime | sed 's/.*load/load/')"
if [ "${BENCH_6666:-}" = build ]; then
    echo "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24" >"$tmp/one"
    $timev nice -n 5 "$SBFS" npuzzle -g blank-first --no-progress --pdb 6666 --pdb-dir "$dir" "$tmp/one" \
        >/dev/null 2>"$tmp/err" || { echo "  building the tables failed"; tail -n 3 "$tmp/err"; exit 1; }
    grep '^# 5x5:' "$tmp/err" | sed 's/^# /  tables: /'
    timings "$tmp/err"
fi
cputime=""
[ -n "$timev" ] && cputime="/usr/bin/time -f cpu_seconds=%U+%S"
printf '  %-8s %7s %6s %16s %8s %8s %12s %s\n' instance optimal found nodes 'wall s' 'CPU s' 'nodes/CPU s' verifier
grep -v '^#' "$kf" | sort -k2,2n -k1,1n | head -n "$count" | while read -r num opt rest; do
    echo "$num $opt $rest" >"$tmp/k24"
    echo "$rest" >"$tmp/in24"
    # the limit is CPU time (ulimit -t, all threads together), which the
    # other users of a shared machine do not eat into
    (ulimit -t "$limit" && exec $cputime nice -n 5 "$SBFS" npuzzle -g blank-first --no-progress --pdb 6666 \
        --pdb-dir "$dir" "$tmp/in24") >"$tmp/out24" 2>"$tmp/err24"
    st=$?
    if [ $st -gt 128 ]; then
        printf '  %-8s %7s %6s %16s %8s %8s\n' "$num" "$opt" "-" "-" "-" "> $limit"
        continue
    elif [ $st != 0 ]; then
        printf '  %-8s failed (exit %s): %s\n' "$num" "$st" "$(tail -n 1 "$tmp/err24")"
        continue
    fi
    v="(verifier not built)"
    if [ -x "$verify" ]; then
        v=$("$verify" -g blank-first -k "$tmp/k24" "$tmp/out24" | head -n 1)
        case $v in ok*) v="verified" ;; esac
    fi
    cpu=$(sed -n 's/^cpu_seconds=//p' "$tmp/err24" | awk -F+ '{ printf "%.1f", $1 + $2 }')
    awk -v num="$num" -v opt="$opt" -v v="$v" -v cpu="${cpu:--}" '/^# [0-9]+: line/ { gsub(",", "");
        printf "  %-8s %7s %6s %16s %8s %8s %12.0f %s\n", num, opt, $5, $7, $9, cpu, (cpu > 0 ? $7 / cpu : 0), v }' "$tmp/err24"
done
