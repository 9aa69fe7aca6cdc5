#!/bin/sh
# The MPI back-ends (make MPI=1) on 1, 2 and 4 processes of this machine
# (oversubscribed when it has fewer cores): `sbfs god npuzzle 3x4` (the
# distributed indexed engine, 239,500,800 positions) and the census of the
# same puzzle as a sliding-block puzzle (bench/eleven-3x4.txt, `sbfs
# explore`: the distributed key search, 239,500,800 configurations).  For
# each: wall seconds, configurations per second, bytes per configuration
# (the processes' budget peaks summed), and the seconds the busiest process
# spent in MPI calls (waiting for the others included), and the CPU
# seconds (user + system) of all processes together, mpirun's included:
# on a loaded machine the steadier figure.  The one-process build on one
# thread is the first line of each.  Then the census again with its
# levels on disk (--disk, in the scratch folder or BENCH_MPI_DISK) and a
# budget of a tenth of its peak in memory (3.0 bytes a configuration, 718
# MB: 72 MB) shared among the processes; its bytes per configuration are
# then those of memory, and the files' peak is printed under the table.
# Median of BENCH_RUNS runs (default 3).  BENCH_MPI_ROWS picks the rows
# (default "god census disk").  Skipped without build/mpi/sbfs or mpirun.
. "$(dirname "$0")/lib.sh"
M=${SBFS_MPI:-$top/build/mpi/sbfs}
if [ ! -x "$M" ] || ! command -v mpirun > /dev/null; then
    echo "skipped: no $M (make MPI=1) or no mpirun"
    exit 0
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
nps=${BENCH_MPI_NP:-1 2 4}
rows=${BENCH_MPI_ROWS:-god census disk}
want() { case " $rows " in *" $1 "*) return 0 ;; esac; return 1; }

# figures NAME NP CMD...: run CMD BENCH_RUNS times, print one line
figures() {
    name=$1 np=$2
    shift 2
    : > "$tmp/err"
    : > "$tmp/cpu"
    i=0
    while [ $i -lt "$runs" ]; do
        /usr/bin/time -a -o "$tmp/cpu" -f '%U %S' "$@" > "$tmp/out" 2>> "$tmp/err" ||
            { echo "$name: failed"; tail -n 3 "$tmp/err"; return 1; }
        i=$((i + 1))
    done
    cpu=$(awk '{ print $1 + $2 }' "$tmp/cpu" | median)
    n=$(sed -n 's/^sbfs: \([0-9]*\) positions,.*/\1/p; s/^sbfs: style [0-9], \([0-9]*\) configurations.*/\1/p' "$tmp/err" | head -n 1)
    wall=$(sed -n 's/^sbfs: [0-9]* positions, \([0-9.]*\) s.*/\1/p; s/^sbfs: style.* word[s]*, \([0-9.]*\) s (cpu.*/\1/p' "$tmp/err" | median)
    # all processes together (the mpi line) when there is one
    if grep -q '^sbfs: mpi:' "$tmp/err"; then
        bpc=$(sed -n 's/^sbfs: mpi:.*(\([0-9.]*\) bytes\/configuration).*/\1/p' "$tmp/err" | median)
    else
        bpc=$(sed -n 's/.*memory [0-9]* bytes (\([0-9.]*\) bytes\/\(position\|configuration\)).*/\1/p' "$tmp/err" | median)
    fi
    comm=$(sed -n 's/^sbfs: mpi:.*communication \([0-9.]*\) s.*/\1/p' "$tmp/err" | median)
    printf '%-24s %3s %11s %9s %11.0f %8s %9s %8s\n' "$name" "$np" "$n" "$wall" \
        "$(awk -v n="$n" -v w="$wall" 'BEGIN { print (w > 0 ? n / w : 0) }')" "$bpc" "${comm:--}" "$cpu"
}

printf '%-24s %3s %11s %9s %11s %8s %9s %8s\n' run procs configs "wall s" "conf/s" "B/conf" "comm s" "cpu s"
if want god; then
    figures "god npuzzle 3x4, 1 proc" - "$SBFS" god npuzzle 3x4 -j 1 -v --no-progress
    for np in $nps; do
        figures "god npuzzle 3x4, mpi" "$np" mpirun --oversubscribe -np "$np" "$M" god npuzzle 3x4 -v --no-progress
    done
fi
if want census; then
    figures "explore eleven-3x4, 1 p" - "$SBFS" explore -q -j 1 -v --no-progress "$top/bench/eleven-3x4.txt"
    for np in $nps; do
        figures "explore eleven-3x4, mpi" "$np" mpirun --oversubscribe -np "$np" "$M" explore -q -v --no-progress \
            "$top/bench/eleven-3x4.txt"
    done
fi
if want disk; then
    disk=${BENCH_MPI_DISK:-$tmp}
    files=""
    for np in $nps; do
        figures "eleven-3x4 --disk, mpi" "$np" mpirun --oversubscribe -np "$np" "$M" explore -q -v --no-progress \
            --memory "$((72000 / np))K" --disk "$disk" "$top/bench/eleven-3x4.txt" &&
            files="$files $np: $(sed -n 's/^sbfs: levels on disk: \([0-9]*\) bytes of files at most.*/\1/p' "$tmp/err" |
                median) bytes"
    done
    echo "--disk, 72 MB of memory in all: the files at most, by processes:$files"
fi
