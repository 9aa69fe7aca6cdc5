#!/bin/sh
# Sliding-block solver figures.  For every bundled puzzle and style: the
# search from the start alone (--no-bidir) and from both ends (the default
# when the stop is one configuration): configurations stored, the rate per
# wall and per CPU second, and the peak memory (the budget's high-water
# mark per configuration, and the process's peak resident size).  Then the
# two larger inputs in bench/ (a 15-puzzle position 18 moves from its goal,
# and the Klotski with ten distinct pieces), style 0, one way, on one
# thread and on all: the speed-up of -j.  Last, the rate as spaces grow:
# `explore` of 4 x 4 boards with repeated tiles of about 10^7 and 10^8
# configurations (and 1.2 x 10^9 with BENCH_SLIDE_BIG=1: some 6 GB of
# memory and minutes of CPU) on one thread and on two.  Each figure is the
# median of BENCH_RUNS runs (default 3).  On a shared machine the
# CPU-second rate is the steadier figure, and the speed-up of -j 2 in wall
# time means something only when the machine is otherwise idle: the load
# is printed with it.
. "$(dirname "$0")/lib.sh"

# measure FILE STYLE OPTIONS...: sets moves confs wall rate crate bpc rss
measure() {
    file=$1 style=$2; shift 2
    : > "$tmp/err"
    i=0
    while [ $i -lt "$runs" ]; do
        "$SBFS" solve -q -v -s "$style" --no-progress "$@" "$file" 2>>"$tmp/err" >"$tmp/out" || {
            echo "$file style $style $*: sbfs failed"; return 1; }
        i=$((i + 1))
    done
    moves=$(sed -n 's/^solution: \([0-9]*\) move.*/\1/p; s/^no solution.*/-/p' "$tmp/out")
    confs=$(sed -n 's/.* style [0-9], \([0-9]*\) configurations.*/\1/p' "$tmp/err" | head -n 1)
    wall=$(sed -n 's/.* \([0-9.]*\) s (cpu.*/\1/p' "$tmp/err" | median)
    rate=$(sed -n 's/.*), \([0-9]*\) configurations\/s.*/\1/p' "$tmp/err" | median)
    crate=$(sed -n 's/.*per cpu second \([0-9]*\)).*/\1/p' "$tmp/err" | median)
    bpc=$(sed -n 's/.*(\([0-9.]*\) bytes\/configuration).*/\1/p' "$tmp/err" | median)
    rss=$(sed -n 's/.*peak rss \([0-9]*\) KB.*/\1/p' "$tmp/err" | median)
}

echo "one way (--no-bidir) | both ways (default); rates are configurations per second"
printf '%-13s %2s %4s | %9s %9s %9s %6s %7s | %8s %9s %6s %7s\n' puzzle st len \
    configs conf/s conf/cpu-s B/conf rss-KB configs conf/cpu-s B/conf rss-KB
for p in silly shift klotski eight-judge eight-sample; do
    for s in 0 1 2 3 4 5; do
        measure "$top/puzzles/$p.txt" $s --no-bidir -j 1 || continue
        set -- "$moves" "$confs" "$rate" "$crate" "$bpc" "$rss"
        measure "$top/puzzles/$p.txt" $s -j 1 || continue
        [ "$moves" = "$1" ] || echo "$p style $s: both ways $moves moves, one way $1"
        printf '%-13s %2s %4s | %9s %9s %9s %6s %7s | %8s %9s %6s %7s\n' "$p" $s "$1" "$2" "$3" "$4" \
            "$5" "$6" "$confs" "$crate" "$bpc" "$rss"
    done
done

echo
echo "larger puzzles, style 0, one way: one thread, then all ($(nproc) cores)"
printf '%-17s %4s %9s | %8s %10s %10s %6s %7s | %8s %10s %7s\n' puzzle len configs \
    "wall s" conf/s conf/cpu-s B/conf rss-KB "wall s" conf/s speed-up
for p in fifteen-18 klotski-distinct; do
    measure "$top/bench/$p.txt" 0 --no-bidir -j 1 || continue
    set -- "$moves" "$confs" "$wall" "$rate" "$crate" "$bpc" "$rss"
    measure "$top/bench/$p.txt" 0 --no-bidir || continue
    printf '%-17s %4s %9s | %8s %10s %10s %6s %7s | %8s %10s %7s\n' "$p" "$1" "$2" "$3" "$4" "$5" "$6" \
        "$7" "$wall" "$rate" "$(awk -v a="$3" -v b="$wall" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
    measure "$top/bench/$p.txt" 0 -j 1 || continue
    printf '%-17s %4s %9s   both ways, one thread: %s s, %s configurations/cpu-s, %s bytes each\n' \
        "$p" "$moves" "$confs" "$wall" "$crate" "$bpc"
done

# census FILE THREADS: sets confs wall cpu crate rss (median of $runs)
census() {
    : > "$tmp/times"
    i=0
    while [ $i -lt "$runs" ]; do
        /usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$SBFS" explore -q -j "$2" --no-progress "$1" \
            >"$tmp/out" 2>"$tmp/err" || { echo "$1 -j $2: sbfs failed"; cat "$tmp/err"; return 1; }
        tail -n 1 "$tmp/t" >> "$tmp/times"
        i=$((i + 1))
    done
    confs=$(sed -n 's/^component: \([0-9]*\) configurations.*/\1/p' "$tmp/out")
    wall=$(awk '{ print $1 }' "$tmp/times" | median)
    cpu=$(awk '{ print $2 + $3 }' "$tmp/times" | median)
    rss=$(awk '{ print $4 }' "$tmp/times" | median)
    crate=$(awk -v n="$confs" -v c="$cpu" 'BEGIN { printf "%.0f", (c > 0 ? n / c : 0) }')
}

echo
echo "explore as spaces grow, 4 x 4 boards with repeated tiles; load before: $(cut -d ' ' -f 1-3 /proc/loadavg)"
printf '%-16s %11s | %8s %8s %10s %8s | %8s %8s %10s %8s | %8s\n' puzzle configs "wall s" "cpu s" \
    conf/cpu-s rss-MB "wall s" "cpu s" conf/cpu-s rss-MB speed-up
for p in tiles-4x4-1e7 tiles-4x4-1e8 ${BENCH_SLIDE_BIG:+tiles-4x4-1e9}; do
    census "$top/bench/$p.txt" 1 || continue
    set -- "$confs" "$wall" "$cpu" "$crate" "$rss"
    census "$top/bench/$p.txt" 2 || continue
    printf '%-16s %11s | %8s %8s %10s %8s | %8s %8s %10s %8s | %8s\n' "$p" "$1" "$2" "$3" "$4" \
        $(($5 / 1024)) "$wall" "$cpu" "$crate" $((rss / 1024)) \
        "$(awk -v a="$2" -v b="$wall" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
done
echo "load after: $(cut -d ' ' -f 1-3 /proc/loadavg)"
