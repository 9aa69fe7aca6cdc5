#!/bin/sh
# Indexing and the indexed engine: rank/unrank throughput per scheme, table
# building (positions per second, one and two threads) for the 3 x 3 and
# 3 x 4 puzzles, and peak memory; the 3 x 4 table on disk in 16M (CPU,
# peak memory, files) and in slices of several sizes (bench/god_disk.c);
# with SBFS_BENCH_HASH=1 also the plain
# hash-set BFS of bench/hash_bfs.c on the 3 x 4, for comparison (about
# 4 GB and a few minutes).
# Figures from a shared machine are noisy: the 3 x 3 lines are the median
# of five runs, the 3 x 4 ones of SBFS_BENCH_RUNS runs (default 1).
set -u
top=${SBFS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
B=${SBFS_BUILD:-$top/build/opt}
SBFS=${SBFS:-$top/sbfs}
runs=${SBFS_BENCH_RUNS:-1}
mkdir -p "$B"
CC=${CC:-cc}
$CC -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -march=x86-64-v2 -I"$top/include" -pthread \
    -o "$B/index_speed" "$top/bench/index_speed.c" "$B/libsbfs.a" -lm ||
$CC -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -I"$top/include" -pthread \
    -o "$B/index_speed" "$top/bench/index_speed.c" "$B/libsbfs.a" -lm || exit 1
$CC -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -I"$top/include" -pthread \
    -o "$B/god_disk" "$top/bench/god_disk.c" "$B/libsbfs.a" -lm || exit 1

echo "-- rank / unrank throughput (median of 5, random arrangements)"
"$B/index_speed" rank

# median BOARD THREADS N: the run with the median time of N
median() {
    for i in $(seq "$3"); do "$B/index_speed" table "$1" "$2"; done |
        sort -t: -k2 -n | sed -n "$(( ($3 + 1) / 2 ))p"
}
echo "-- table building (seconds, positions per second; median of the runs)"
median 3x3 1 5
median 3x3 2 5
median 3x4 1 "$runs"
median 3x4 2 "$runs"

echo "-- sbfs god npuzzle 3x4 --memory 128M -j 2: wall seconds, peak resident memory"
if [ -x /usr/bin/time ]; then
    /usr/bin/time -f "%e s, %M KB resident" "$SBFS" god npuzzle 3x4 --memory 128M -j 2 \
        --no-progress 2>&1 >/dev/null | tail -n 1
else
    s=$(date +%s); "$SBFS" god npuzzle 3x4 --memory 128M -j 2 >/dev/null; echo "$(( $(date +%s) - s )) s"
fi

echo "-- sbfs god npuzzle 3x4 --memory 16M -j 2, on disk: CPU (user+system), wall, peak resident, files"
if [ -x /usr/bin/time ]; then
    /usr/bin/time -f "%U+%S s CPU, %e s wall, %M KB resident" "$SBFS" god npuzzle 3x4 --memory 16M -j 2 -v \
        --no-progress 2>&1 >/dev/null | grep -v "it is built on disk"
else
    "$SBFS" god npuzzle 3x4 --memory 16M -j 2 -v --no-progress 2>&1 >/dev/null | grep -v "it is built on disk"
fi
echo "-- the 3 x 4 on disk in 16M, slices of 2^25 .. 2^22 positions, 2 threads"
"$B/god_disk" 3x4 2 16M 25 24 23 22

if [ "${SBFS_BENCH_HASH:-0}" = 1 ]; then
    echo "-- for comparison: plain hash-set BFS of the 3 x 4 (bench/hash_bfs.c)"
    $CC -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -o "$B/hash_bfs" "$top/bench/hash_bfs.c" || exit 1
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f "%e s, %M KB resident" "$B/hash_bfs" 3 4 2>&1 >/dev/null | tail -n 1
    else
        "$B/hash_bfs" 3 4 >/dev/null
    fi
fi
