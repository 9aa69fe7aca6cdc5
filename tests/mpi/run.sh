#!/bin/sh
# The MPI build against the one-process build: under `mpirun -np 1..4`
# (oversubscribed, on one machine) `sbfs solve`, `sbfs explore` and
# `sbfs god` must print the same bytes, on stdout, as one process; every
# solution printed replays (tests/verify); a process killed in the middle
# of a run makes the whole run stop with an error instead of hanging.
#
# Usage: tests/mpi/run.sh MPI_SBFS BUILDDIR
#   MPI_SBFS  the sbfs of `make MPI=1`
#   BUILDDIR  a one-process build holding sbfs, test_random_slide, verify_*
set -u
M=${1:?usage: tests/mpi/run.sh MPI_SBFS BUILDDIR}
B=${2:?usage: tests/mpi/run.sh MPI_SBFS BUILDDIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# a loopback job: no network interfaces to probe, no warnings about them
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_pml=ob1
export SBFS_BUILD="$B"
ONE="$B/sbfs"
VERIFY="$top/tests/verify"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL: $*"
}
run_mpi() { # NP ARGS...: stdout to $T/out, stderr to $T/err
    np=$1
    shift
    timeout 300 mpirun --oversubscribe -np "$np" "$M" "$@" > "$T/out" 2> "$T/err"
}
# reference ARGS...: one process's output and status into $T/ref and
# $want, kept by the arguments in $T/refs (each is run once, not once
# for every process count)
reference() {
    key=$(printf '%s\n' "$@" | cksum | tr ' ' _)
    if [ ! -f "$T/refs/$key.out" ]; then
        "$ONE" "$@" > "$T/refs/$key.out" 2> /dev/null
        echo $? > "$T/refs/$key.st"
    fi
    cp "$T/refs/$key.out" "$T/ref"
    want=$(cat "$T/refs/$key.st")
}
# same NAME NP ARGS...: one process and NP processes print the same, with
# the same exit status
same() {
    name=$1
    np=$2
    shift 2
    reference "$@"
    run_mpi "$np" "$@"
    got=$?
    if [ "$got" != "$want" ]; then
        bad "$name, -np $np: exit status $got, one process $want"
        sed 's/^/    /' "$T/err" | head -n 5
    elif ! cmp -s "$T/ref" "$T/out"; then
        bad "$name, -np $np: output differs from one process"
        diff "$T/ref" "$T/out" | head -n 10 | sed 's/^/    /'
    else
        ok
    fi
}
# verified NAME STYLE PUZZLE: the solution in $T/out replays
verified() {
    if grep -q '^solution:' "$T/out"; then
        if "$VERIFY" slide "$2" "$3" "$T/out" > /dev/null 2>&1; then ok; else bad "$1: the solution does not replay"; fi
    fi
}

mkdir -p "$T/random" "$T/refs"
"$B/test_random_slide" --emit "$T/random" 6 16001 || bad "random puzzles not drawn"
for np in 1 2 3 4; do
    for p in puzzles/*.txt; do
        n=$(basename "$p" .txt)
        same "solve $n" $np solve "$p"
        verified "solve $n -np $np" 0 "$p"
        same "explore $n" $np explore "$p"
    done
    if [ $((np % 2)) = 0 ]; then
        same "solve --json shift" $np solve --json puzzles/shift.txt
        same "solve --no-bidir -q klotski" $np solve --no-bidir -q puzzles/klotski.txt
        same "explore --json klotski" $np explore --json puzzles/klotski.txt
    fi
    same "god npuzzle 3x3" $np god npuzzle 3x3
    same "god npuzzle 2x5" $np god npuzzle 2x5
    same "god tetraminx" $np god tetraminx
    # every random puzzle, each -np in another style: all six styles at
    # each -np for solve, three of them for explore
    i=0
    for p in "$T"/random/*.txt; do
        s=$(((i + np) % 6))
        n="random $(basename "$p" .txt) style $s"
        same "solve $n" $np solve -s $s "$p"
        verified "solve $n -np $np" $s "$p"
        [ $(((i + np) % 2)) = 0 ] && same "explore $n" $np explore -s $s "$p"
        if [ $((i % 3)) = 0 ]; then
            same "solve --no-bidir $n" $np solve --no-bidir -s $s "$p"
            verified "solve --no-bidir $n -np $np" $s "$p"
        fi
        i=$((i + 1))
    done
done

# Bad input: the same message and status from every process count.
printf '2 x 2\n1 = 1\n1x\nxx\n' > "$T/bad.txt"
same "a puzzle without a blank line" 3 solve "$T/bad.txt"

# The budget is each process's.  Under one that forces old levels out,
# the processes drop the same levels and rebuild the path from
# checkpoints, as one process does: the output of one process without a
# budget, the path verified, and -v says levels were dropped.  Klotski
# is searched one way (its goal is a test), the Eight both ways and, with
# --no-bidir, one way to a key.
#   dropped NP MEMORY ARGS... (the puzzle last)
dropped() {
    np=$1
    mem=$2
    shift 2
    reference "$@"
    run_mpi "$np" "$@" -v --memory "$mem"
    got=$?
    eval "p=\${$#}"
    name="$* --memory $mem, -np $np"
    if [ "$got" != 0 ] || ! cmp -s "$T/ref" "$T/out"; then
        bad "$name: status $got, output $(cmp -s "$T/ref" "$T/out" && echo same || echo differs)"
        head -n 3 "$T/err" | sed 's/^/    /'
    elif ! grep -q 'levels dropped for the budget' "$T/err"; then
        bad "$name: no level was dropped; the budget tests nothing"
    else
        ok
        verified "$name" 0 "$p"
    fi
}
for np in 1 2 3 4; do
    dropped $np 60K solve puzzles/klotski.txt
done
dropped 2 120K solve puzzles/eight-judge.txt
dropped 4 50K solve puzzles/eight-judge.txt
dropped 4 200K solve --no-bidir puzzles/eight-judge.txt

# Levels on disk: each process keeps its part of every level in files
# under DIR/rank-N, makes the next level by merging sorted runs with its
# parts of levels d and d-1 on disk, and reads the levels back to rebuild
# the path.  With budgets of tens of KB per process, smaller than a level
# (the Eight's largest is 24,047 configurations, 192 KB), nothing is
# dropped, the output is one process's, and no file is left behind.
#   ondisk NP MEMORY STYLE ARGS... (the puzzle last; STYLE: the verifier's)
ondisk() {
    np=$1
    mem=$2
    style=$3
    shift 3
    reference "$@"
    mkdir -p "$T/disk"
    run_mpi "$np" "$@" -v --memory "$mem" --disk "$T/disk"
    got=$?
    eval "p=\${$#}"
    name="$* --disk, --memory $mem, -np $np"
    if [ "$got" != 0 ] || ! cmp -s "$T/ref" "$T/out"; then
        bad "$name: status $got, output $(cmp -s "$T/ref" "$T/out" && echo same || echo differs)"
        head -n 3 "$T/err" | sed 's/^/    /'
    elif ! grep -q '^sbfs: levels on disk: [1-9]' "$T/err" || grep -q 'levels dropped' "$T/err"; then
        bad "$name: levels not on disk, or dropped: $(grep 'on disk' "$T/err")"
    elif [ -n "$(ls -A "$T/disk")" ]; then
        bad "$name: files left in the directory: $(ls -A "$T/disk")"
    else
        ok
        verified "$name" "$style" "$p"
    fi
    rm -rf "$T/disk"
}
for np in 1 2 3 4; do
    ondisk $np 60K 0 solve puzzles/klotski.txt
    [ $((np % 2)) = 1 ] && ondisk $np 40K 0 explore puzzles/eight-judge.txt
done
ondisk 2 40K 0 solve --no-bidir puzzles/eight-judge.txt
ondisk 3 40K 0 solve puzzles/eight-judge.txt
ondisk 4 40K 0 explore --json puzzles/eight-judge.txt
ondisk 1 40K 0 solve puzzles/rush-hour.txt
ondisk 4 40K 0 explore puzzles/rush-hour.txt
# a third of the random puzzles, in turn solved and explored, in every style
cmd=solve
for np in 1 2 3 4; do
    i=0
    for p in "$T"/random/*.txt; do
        s=$(((i + 2 * np) % 6))
        if [ $(((i + np) % 3)) = 0 ]; then
            ondisk $np 40K $s $cmd -s $s "$p"
            if [ $cmd = solve ]; then cmd=explore; else cmd=solve; fi
        fi
        i=$((i + 1))
    done
done
# A batch at its floor (32 keys in 28 KB) smaller than what one state
# lists: eight unit blocks alike on a 4 x 4 board list 135 neighbours a
# configuration in style 5, so the overflow past a batch must wait its
# turn over several trades (the ASan build sees a batch overrun).
printf '4 x 4 eight unit blocks alike\n1 = 1\n1010010110100101\n0101101001011010\n' > "$T/many.txt"
ondisk 2 28K 5 explore -s 5 "$T/many.txt"
ondisk 3 30K 5 explore -s 5 "$T/many.txt"
# without --disk that budget cannot hold the census's levels
run_mpi 2 explore -q --memory 40K puzzles/eight-judge.txt
st=$?
if [ "$st" = 4 ]; then ok; else bad "explore --memory 40K without --disk: status $st, expected 4"; fi
# a disk limit stops the run as in one process (status 4)
mkdir -p "$T/disk"
run_mpi 2 solve --disk "$T/disk" --disk-limit 2K puzzles/klotski.txt
st=$?
if [ "$st" = 4 ] && grep -q '^sbfs: disk limit exhausted' "$T/err"; then ok; else bad "--disk-limit 2K: status $st, $(head -n 1 "$T/err")"; fi
rm -rf "$T/disk"

# Checkpoints: each process keeps its levels in DIR/rank-N with a record
# of its part, process 0 the run in DIR/run.  A run stopped once rank 0
# holds the level at distance D (one process killed, or sent Ctrl-C),
# resumed with as many processes, ends with one process's output, the
# path verified; whenever the stop lands, the output must be the same.
#   stopped_resumed SIGNAL NP D ARGS... (the puzzle last)
stopped_resumed() {
    sig=$1 np=$2 lv=$3
    shift 3
    reference "$@"
    eval "p=\${$#}"
    rm -rf "$T/ck"
    mkdir -p "$T/ck"
    timeout 120 mpirun --oversubscribe -np "$np" "$M" "$@" --checkpoint "$T/ck" --memory 40K > /dev/null 2>&1 &
    job=$!
    while kill -0 $job 2> /dev/null; do
        n=$(ls "$T/ck/rank-0" 2> /dev/null | sed -n 's/^level-[sg]-0*\([0-9]\)/\1/p' | sort -n | tail -n 1)
        [ "${n:-0}" -ge "$lv" ] && break
        sleep 0.02
    done
    kill -s "$sig" "$(pgrep -f "^$M $1" | tail -n 1)" 2> /dev/null
    wait $job
    st=$?
    name="$* stopped by SIG$sig (status $st), resumed, -np $np"
    run_mpi "$np" "$@" --resume "$T/ck" --memory 40K
    got=$?
    if [ "$got" != 0 ] || ! cmp -s "$T/ref" "$T/out"; then
        bad "$name: status $got, output $(cmp -s "$T/ref" "$T/out" && echo same || echo differs)"
        head -n 3 "$T/err" | sed 's/^/    /'
    else
        ok
        verified "$name" 0 "$p"
    fi
}
stopped_resumed KILL 3 18 explore puzzles/eight-judge.txt
stopped_resumed KILL 2 12 solve --no-bidir puzzles/eight-judge.txt
stopped_resumed INT 1 12 explore -s 1 puzzles/eight-judge.txt
stopped_resumed KILL 4 7 solve puzzles/eight-judge.txt
# a run resumed once done prints its answer again
run_mpi 4 solve puzzles/eight-judge.txt --resume "$T/ck"
if [ $? = 0 ] && cmp -s "$T/ref" "$T/out"; then ok; else bad "solve resumed once done: $(head -n 1 "$T/err")"; fi
# refused: another number of processes (status 2), a folder holding a
# search (status 2), another search (status 7, a file that does not match)
refused() { # STATUS MESSAGE NP ARGS...
    want=$1 msg=$2 np=$3
    shift 3
    run_mpi "$np" "$@"
    st=$?
    if [ "$st" = "$want" ] && grep -q "$msg" "$T/err"; then ok; else bad "$*, -np $np: status $st, $(head -n 1 "$T/err")"; fi
}
refused 2 'it was made by 4 .*run mpirun -np 4' 3 solve puzzles/eight-judge.txt --resume "$T/ck"
refused 2 'holds a search already' 4 solve puzzles/eight-judge.txt --checkpoint "$T/ck"
refused 7 'the checkpoint of another search' 4 solve --no-bidir puzzles/eight-judge.txt --resume "$T/ck"
# A run record whose checksum holds but whose fields contradict each
# other (another build's, or edited) is refused with status 7, never
# trusted: tests/mpi/forge_run changes a field and makes the checksum
# again.  The checkpoint is the finished search both ways above.
#   forged MESSAGE FIELD VALUE [FIELD VALUE]
forged() {
    msg=$1
    shift
    rm -rf "$T/ck2"
    cp -r "$T/ck" "$T/ck2"
    while [ $# -ge 2 ]; do
        "$T/forge_run" "$T/ck2/run" "$1" "$2" || bad "forge_run $1 $2"
        shift 2
    done
    refused 7 "$msg" 4 solve puzzles/eight-judge.txt --resume "$T/ck2"
}
if ${CC:-cc} -std=c11 -D_POSIX_C_SOURCE=200809L -o "$T/forge_run" tests/mpi/forge_run.c src/core/hash.c; then
    forged 'without the goal.s side' 2 0 1 0
    forged 'met on a level the start.s side does not hold' 4 40
    forged 'met on a level the goal.s side does not hold' 5 -1
else
    bad "tests/mpi/forge_run.c does not build"
fi
rm -rf "$T/ck" "$T/ck2"

# Past what even dropping allows, every process stops with status 4 and
# the message of the one that ran out, at once and in the middle (a
# census keeps two levels only, and a God table cannot drop any).
for cmd in "god npuzzle 3x4 --memory 10M" "explore -q --memory 2M bench/klotski-distinct.txt"; do
    # shellcheck disable=SC2086
    run_mpi 2 $cmd
    st=$?
    if [ "$st" = 4 ] && grep -q '^sbfs: memory budget exhausted' "$T/err"; then ok; else bad "$cmd: status $st, $(head -n 1 "$T/err")"; fi
done

# God tables keep a frontier bitmap only when the budget has room for it
# and as much again; below that each process holds its slice at 2 bits a
# position (one process's 2x5 slice: 453,600 bytes of codes, 226,800 of
# bitmap) and expands older levels again: the same counts.
#   twobits NP MEMORY ARGS...: the output of one process without a budget
twobits() {
    np=$1
    mem=$2
    shift 2
    reference "$@"
    run_mpi "$np" "$@" --memory "$mem"
    st=$?
    if [ "$st" = 0 ] && cmp -s "$T/ref" "$T/out"; then ok; else bad "$* --memory $mem, -np $np: status $st, $(head -n 1 "$T/err")"; fi
}
twobits 1 600K god npuzzle 2x5
twobits 3 250K god npuzzle 2x5
twobits 2 200K god tetraminx
twobits 4 100K god tetraminx

# --save: process 0 gathers the slices and writes the table one process
# writes, byte for byte.
"$ONE" god npuzzle 2x5 --save "$T/one.tab" > /dev/null 2>&1
run_mpi 3 god npuzzle 2x5 --save "$T/three.tab"
if cmp -s "$T/one.tab" "$T/three.tab"; then ok; else bad "god npuzzle 2x5 --save: another table from 3 processes"; fi
run_mpi 2 god tetraminx --save "$T/two.tab"
"$ONE" god tetraminx --save "$T/one.tab" > /dev/null 2>&1
if cmp -s "$T/one.tab" "$T/two.tab"; then ok; else bad "god tetraminx --save: another table from 2 processes"; fi

# Ctrl-C: SIGINT to one process (a launcher may forward it to some only)
# stops all at the next trade with the counts so far, as one process
# stops: status 5, "stopped at distance D", the distance lines so far.
# The run is the census of the 3 x 4 puzzle (minutes); one process,
# stopped the same way, gives the reference: the shorter of the two lists
# of counts must begin the longer.
timeout -s INT 2 "$ONE" explore -q -j 1 bench/eleven-3x4.txt > "$T/ref" 2> /dev/null
timeout 120 mpirun --oversubscribe -np 3 "$M" explore -q bench/eleven-3x4.txt > "$T/out" 2> "$T/err" &
job=$!
n=0
for _ in $(seq 1 200); do
    n=$(pgrep -f "^$M explore -q bench/eleven-3x4" | wc -l)
    [ "$n" = 3 ] && break
    sleep 0.1
done
sleep 2
kill -INT "$(pgrep -f "^$M explore -q bench/eleven-3x4" | tail -n 1)"
wait $job
st=$?
a=$(wc -l < "$T/out")
b=$(wc -l < "$T/ref")
[ "$a" -lt "$b" ] || a=$b
if [ "$st" != 5 ] || ! grep -q '^sbfs: stopped at distance' "$T/err"; then
    bad "SIGINT to one process: status $st, $(head -n 1 "$T/err")"
elif head -n "$a" "$T/ref" > "$T/ref.a" && head -n "$a" "$T/out" > "$T/out.a" &&
    { [ "$a" -lt 5 ] || ! cmp -s "$T/ref.a" "$T/out.a"; }; then
    bad "SIGINT to one process: the counts so far are not those of one process"
else
    ok
fi

# A process killed in the middle: the others stop with an error.  The run
# is one that lasts (the table of the whole 3 x 4 puzzle); one process is
# killed once all have started.  `timeout` only guards against a hang.
#   killed MODE ARGS...: mpirun ARGS, kill a process, check the end
killed() {
    mode=$1
    shift
    timeout 120 mpirun --oversubscribe "$@" -np 3 "$M" god npuzzle 3x4 > "$T/out" 2> "$T/err" &
    job=$!
    n=0
    for _ in $(seq 1 200); do
        n=$(pgrep -f "^$M god npuzzle 3x4" | wc -l)
        [ "$n" = 3 ] && break
        sleep 0.1
    done
    if [ "$n" != 3 ]; then
        bad "killed ($mode): the run was not seen to start"
        wait $job
        return
    fi
    sleep 1
    kill -9 "$(pgrep -f "^$M god npuzzle 3x4" | tail -n 1)"
    wait $job
    st=$?
    if [ "$st" = 124 ]; then
        bad "killed ($mode): the run hung"
    elif ! grep -qE "$mode" "$T/err"; then
        bad "killed ($mode): no message says what happened"
        head -n 8 "$T/err" | sed 's/^/    /'
    else
        ok
    fi
    if pgrep -f "^$M god npuzzle 3x4" > /dev/null; then
        bad "killed ($mode): processes of the run are left"
        pkill -9 -f "^$M god npuzzle 3x4"
    fi
}
# the usual way: mpirun sees the death and ends the job
killed 'exited on signal 9'
# a launcher that lets the others run on: they notice no answer comes
SBFS_MPI_TIMEOUT=3
export SBFS_MPI_TIMEOUT
killed 'no answer from the other processes for 3 s' --enable-recovery
unset SBFS_MPI_TIMEOUT

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
