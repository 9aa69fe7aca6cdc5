#!/bin/sh
# Sliding-block move generation alone (bench/slide_gen.c): every
# configuration reachable in the distinct-piece Klotski, those up to 18
# moves from the 15-puzzle position 18 moves out and the 8-puzzle judge instance is expanded in
# styles 0, 1 and 2; CPU nanoseconds per configuration (median of
# BENCH_PASSES passes, default 5) and neighbours per configuration.
set -u
top=${SBFS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
B=${SBFS_BUILD:-$top/build/opt}
passes=${BENCH_PASSES:-5}
CC=${CC:-cc}
[ -f "$B/libsbfs.a" ] || { echo "bench_slidegen: build $B/libsbfs.a first (make)"; exit 1; }
$CC -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -march=x86-64-v2 -I"$top/include" -pthread \
    -o "$B/slide_gen" "$top/bench/slide_gen.c" "$B/libsbfs.a" -lm 2>/dev/null ||
$CC -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -I"$top/include" -pthread \
    -o "$B/slide_gen" "$top/bench/slide_gen.c" "$B/libsbfs.a" -lm || exit 1
for p in "$top/bench/klotski-distinct.txt" "-g $top/bench/fifteen-18.txt" "$top/puzzles/eight-judge.txt"; do
    "$B/slide_gen" $p 012 "$passes" || exit 1
done
