#!/bin/sh
# Sliding-block solver figures: for every bundled puzzle and style, and for
# the two larger inputs in bench/ (the Klotski with ten distinct pieces and
# a 15-puzzle position 18 moves from its goal, style 0), the configurations
# stored, the median over BENCH_RUNS runs (default 3; 1 for the large ones
# unless BENCH_RUNS is set) of the wall time and of the rate per wall and
# per CPU second, bytes per configuration held by the state set, and the
# peak resident memory of the process.  On a shared machine the CPU-second
# rate is the steadier figure.
set -u
SBFS=${SBFS:-./sbfs}
top=${SBFS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
runs=${BENCH_RUNS:-3}
big_runs=${BENCH_RUNS:-1}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

row() { # label, style, file, runs
    label=$1 style=$2 file=$3 n=$4
    : > /tmp/sbfs-bench.$$
    i=0
    while [ $i -lt "$n" ]; do
        "$SBFS" solve -q -v -s "$style" --no-progress "$file" 2>>/tmp/sbfs-bench.$$ >/tmp/sbfs-bench-out.$$ || {
            echo "$label style $style: sbfs failed"; return 1; }
        i=$((i + 1))
    done
    moves=$(sed -n 's/^solution: \([0-9]*\) move.*/\1/p; s/^no solution.*/-/p' /tmp/sbfs-bench-out.$$)
    confs=$(sed -n 's/.* style [0-9], \([0-9]*\) configurations.*/\1/p' /tmp/sbfs-bench.$$ | head -n 1)
    wall=$(sed -n 's/.* \([0-9.]*\) s (cpu.*/\1/p' /tmp/sbfs-bench.$$ | median)
    rate=$(sed -n 's/.*), \([0-9]*\) configurations\/s.*/\1/p' /tmp/sbfs-bench.$$ | median)
    crate=$(sed -n 's/.*per cpu second \([0-9]*\)).*/\1/p' /tmp/sbfs-bench.$$ | median)
    bpc=$(sed -n 's/.*(\([0-9.]*\) bytes\/configuration).*/\1/p' /tmp/sbfs-bench.$$ | head -n 1)
    rss=$(sed -n 's/.*peak rss \([0-9]*\) KB.*/\1/p' /tmp/sbfs-bench.$$ | median)
    printf '%-18s %5s %6s %10s %9s %12s %12s %8s %9s\n' "$label" "$style" "$moves" "$confs" "$wall" \
        "$rate" "$crate" "$bpc" "$rss"
}

printf '%-18s %5s %6s %10s %9s %12s %12s %8s %9s\n' puzzle style moves configs "wall s" \
    "conf/s" "conf/cpu-s" "B/conf" "rss KB"
for p in silly shift klotski eight-judge eight-sample; do
    for s in 0 1 2 3 4 5; do
        row "$p" $s "$top/puzzles/$p.txt" "$runs"
    done
done
row fifteen-18 0 "$top/bench/fifteen-18.txt" "$runs"
row klotski-distinct 0 "$top/bench/klotski-distinct.txt" "$big_runs"
rm -f /tmp/sbfs-bench.$$ /tmp/sbfs-bench-out.$$
