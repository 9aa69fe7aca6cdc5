#!/bin/sh
# Levels on disk against levels in memory: `sbfs explore` (a census) of a
# 4 x 4 board with six distinct tiles and nine identical ones (57,657,600
# configurations), in memory on one and two threads, then with its levels
# on disk (--disk) in a tenth of the memory the run in memory took on one
# thread, on one and two threads.  Per run: wall and CPU seconds (median of BENCH_RUNS), the
# configurations per wall and per CPU second, the budget's high-water mark
# and the peak RSS, and for the disk the most bytes its files took and the
# bytes of level files written per configuration.  With BENCH_DISK_BIG=1,
# once, on disk alone, on one and two threads: the board of 1.2 x 10^9
# configurations (tiles-4x4-1e9) in BENCH_DISK_BIG_MEMORY (600M, a tenth of
# the 6.0 GB its run in memory takes; that run is measured by
# bench_slide.sh), in a folder under BENCH_DISK_DIR (default TMPDIR or
# /tmp: some 10 GB).
. "$(dirname "$0")/lib.sh"

# one LABEL PUZZLE ARGS...: BENCH_RUNS runs of explore -q -v; one line
one() {
    label=$1 puzzle=$2; shift 2
    : > "$tmp/times"
    i=0
    while [ $i -lt "$runs" ]; do
        /usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$SBFS" explore -q -v "$@" "$puzzle" >"$tmp/out" 2>"$tmp/err" ||
            { echo "$label: failed"; cat "$tmp/err"; return 1; }
        tail -n 1 "$tmp/t" >> "$tmp/times"
        i=$((i + 1))
    done
    wall=$(awk '{ print $1 }' "$tmp/times" | median)
    cpu=$(awk '{ print $2 + $3 }' "$tmp/times" | median)
    rss=$(awk '{ print $4 }' "$tmp/times" | median)
    n=$(sed -n 's/^component: \([0-9]*\) configurations.*/\1/p' "$tmp/out")
    peak=$(sed -n 's/.*memory \([0-9]*\) bytes.*/\1/p' "$tmp/err")
    disk=$(sed -n 's/^sbfs: levels on disk: \([0-9]*\) bytes of files at most, [0-9]* bytes of levels written (\([0-9.]*\) bytes.*/files at most \1 bytes, \2 bytes\/configuration/p' "$tmp/err")
    printf '%-34s %s configurations, %6.1f s wall, %6.1f s cpu, %9.0f configurations/s, %9.0f per cpu s, memory %s bytes, rss %s KB%s\n' \
        "$label" "$n" "$wall" "$cpu" "$(echo "$n $wall" | awk '{ print $1 / $2 }')" \
        "$(echo "$n $cpu" | awk '{ print $1 / $2 }')" "$peak" "$rss" "${disk:+, $disk}"
    echo "$peak" > "$tmp/peak"
}

mkdir -p "$tmp/disk"
for p in tiles-4x4-6; do
    f="$top/bench/$p.txt"
    one "$p, memory, 1 thread" "$f" -j 1 || exit 1
    budget=$(($(cat "$tmp/peak") / 10))
    one "$p, memory, 2 threads" "$f" -j 2 || exit 1
    one "$p, disk, memory $budget, 1 thread" "$f" -j 1 --disk "$tmp/disk" --memory "$budget" || exit 1
    one "$p, disk, memory $budget, 2 threads" "$f" -j 2 --disk "$tmp/disk" --memory "$budget" || exit 1
done
if [ -n "${BENCH_DISK_BIG:-}" ]; then
    big=${BENCH_DISK_BIG_MEMORY:-600M}
    dir=$(mktemp -d "${BENCH_DISK_DIR:-${TMPDIR:-/tmp}}/sbfs-bench.XXXXXX")
    rc=0
    for j in 1 2; do
        runs=1 one "tiles-4x4-1e9, disk, memory $big, -j $j" "$top/bench/tiles-4x4-1e9.txt" -j $j --disk "$dir" \
            --memory "$big" || rc=1
    done
    rm -rf "$dir"
    exit $rc
fi
