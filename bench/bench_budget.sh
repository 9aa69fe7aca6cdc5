#!/bin/sh
# Searches under a memory budget.  Each search is run with no budget,
# then with half and with a quarter of the peak it reached with none (the
# budget's high-water mark that -v prints): a search must either finish
# near full speed (dropping levels; the path then rebuilt through them)
# or stop with status 4 promptly.  Per budget: the exit status, the wall
# and CPU seconds of the whole command (median of BENCH_RUNS runs,
# default 3), the neighbours listed, and whether the output is the one
# with no budget.  Then a 15-puzzle census that cannot fit 64 MB: the time
# until it stops.
. "$(dirname "$0")/lib.sh"

# run LABEL BUDGET CMD...: runs CMD (with --memory BUDGET unless empty)
# $runs times; prints one line; the output of the first run is kept in
# $tmp/LABEL.out, the figures of -v in $tmp/err
run() {
    label=$1 budget=$2; shift 2
    : > "$tmp/times"
    i=0
    while [ $i -lt "$runs" ]; do
        if [ -n "$budget" ]; then
            /usr/bin/time -f '%e %U %S' -o "$tmp/t" "$SBFS" "$@" --memory "$budget" >"$tmp/out" 2>"$tmp/err"
        else
            /usr/bin/time -f '%e %U %S' -o "$tmp/t" "$SBFS" "$@" >"$tmp/out" 2>"$tmp/err"
        fi
        st=$?
        tail -n 1 "$tmp/t" >> "$tmp/times"
        i=$((i + 1))
    done
    wall=$(awk '{ print $1 }' "$tmp/times" | median)
    cpu=$(awk '{ print $2 + $3 }' "$tmp/times" | median)
    gen=$(sed -n 's/.* \([0-9]*\) neighbours listed.*/\1/p' "$tmp/err" | head -n 1)
    peak=$(sed -n 's/.*memory \([0-9]*\) bytes.*/\1/p' "$tmp/err" | head -n 1)
    if [ -z "$budget" ]; then
        cp "$tmp/out" "$tmp/$label.out"
        same=-
    elif [ $st = 0 ] && cmp -s "$tmp/out" "$tmp/$label.out"; then
        same=yes
    elif [ $st = 0 ]; then
        same=NO
    else
        same=-
    fi
    printf '%-26s %11s %6s %8s %8s %11s %5s\n' "$label" "${budget:-none}" $st "$wall" "$cpu" "${gen:-?}" $same
}

printf '%-26s %11s %6s %8s %8s %11s %5s\n' search budget status wall-s cpu-s neighbours same
for case in "kd-solve-oneway:solve -q -v --no-progress --no-bidir $top/bench/klotski-distinct.txt" \
            "kd-census:explore -v --no-progress $top/bench/klotski-distinct.txt" \
            "15-solve-oneway:solve -q -v --no-progress --no-bidir $top/bench/fifteen-18.txt"; do
    label=${case%%:*} cmd=${case#*:}
    # shellcheck disable=SC2086
    run "$label" "" $cmd
    full=$peak
    [ -n "$full" ] || { echo "$label: no peak in the figures"; continue; }
    # shellcheck disable=SC2086
    run "$label" $((full / 2)) $cmd
    # shellcheck disable=SC2086
    run "$label" $((full / 4)) $cmd
done
run 15-census "64M" explore -v --no-progress "$top/bench/fifteen-18.txt"
