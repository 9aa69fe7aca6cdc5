#!/bin/sh
# Nothing is lost in silence: output that cannot be written, input that
# cannot be read, a Ctrl-C while waiting for input, a save that fails, a
# god run cut short, and input larger than the memory budget are all
# errors with their own status, in every command.
. tests/cli/lib.sh
P=puzzles
W=tests/cli/playfair
printf 'R U\n' >"$T_TMP/tet.in"
printf '1 2 3 4 5 6 7 8 0\n' >"$T_TMP/np.in"
printf '1 2 3 4 5 6 x 7 8\n' >"$T_TMP/eight.in"

# --- output that cannot be written: status 3 and one line saying why
if [ -c /dev/full ] && [ -w /dev/full ]; then
    full() { # DESCRIPTION CMD...: stdout to /dev/full
        what=$1; shift
        "$@" >/dev/full 2>"$T_TMP/err"; got=$?
        [ "$got" = 3 ] && ok || bad "$what > /dev/full: exit $got, want 3"
        expect_line "sbfs: write error: No space left on device" "$what > /dev/full: message" "$T_TMP/err"
    }
    full "solve" "$SBFS" solve $P/silly.txt
    full "solve --json" "$SBFS" solve --json $P/silly.txt
    full "explore" "$SBFS" explore $P/silly.txt
    full "sbfs 0" sh -c "\"$SBFS\" 0 < $P/silly.txt"
    full "god npuzzle" "$SBFS" god npuzzle 2x3
    full "god tetraminx" "$SBFS" god tetraminx
    full "eight" "$SBFS" eight "$T_TMP/eight.in"
    full "npuzzle" "$SBFS" npuzzle "$T_TMP/np.in"
    full "tetraminx solve" "$SBFS" tetraminx solve "$T_TMP/tet.in"
    full "tetraminx random" "$SBFS" tetraminx random 3 --seed 1
    full "playfair encrypt" "$SBFS" playfair encrypt -k CRYPTOGRAM $W/plain.txt
    full "playfair decrypt" "$SBFS" playfair decrypt -k CRYPTOGRAM $W/cipher.txt
    full "playfair crack" "$SBFS" playfair crack -d $W/words.txt $W/cipher.txt
    full "playfair random" "$SBFS" playfair random -d $W/words.txt -n 3
    full "--help" "$SBFS" --help
    full "--version" "$SBFS" --version
    full "solve --help" "$SBFS" solve --help
    # a loop that prints as it goes stops at the first failed write, long
    # before it would have finished
    full "tetraminx random, 10^12 positions" timeout -k 2 20 "$SBFS" tetraminx random 1000000000000 --seed 1
    full "playfair random, 10^12 messages" timeout -k 2 20 "$SBFS" playfair random -d $W/words.txt -n 1000000000000
fi
# a reader that has all it wants (head) is no error: with SIGPIPE ignored
# the writes fail with EPIPE, and sbfs stops quietly with status 0
{ (trap '' PIPE; "$SBFS" tetraminx random 10000000 --seed 1 2>"$T_TMP/err"; echo $? >"$T_TMP/st") } |
    head -n 1 >/dev/null
expect_same "$(cat "$T_TMP/st")" 0 "closed pipe: exit status"
[ -s "$T_TMP/err" ] && bad "closed pipe: something on stderr: $(head -n 1 "$T_TMP/err")" || ok

# --- input that cannot be read: status 3, naming the file
for c in "solve" "explore" "eight" "npuzzle" "tetraminx solve" "playfair encrypt -k KEY" \
    "playfair decrypt -k KEY" "playfair crack -d $W/words.txt"; do
    # shellcheck disable=SC2086
    expect_status 3 "$c DIRECTORY" -- "$SBFS" $c "$T_TMP"
    expect_line "sbfs: $T_TMP: Is a directory" "$c DIRECTORY: message" "$T_TMP/err"
done
expect_status 3 "playfair crack -d DIRECTORY" -- "$SBFS" playfair crack -d "$T_TMP" $W/cipher.txt
expect_line "sbfs: $T_TMP: Is a directory" "crack -d DIRECTORY: message" "$T_TMP/err"
expect_status 3 "sbfs 0 < DIRECTORY" -- sh -c "\"$SBFS\" 0 < \"$T_TMP\""
expect_line "sbfs: <stdin>: Is a directory" "sbfs 0 < DIRECTORY: message" "$T_TMP/err"
expect_status 3 "solve < DIRECTORY" -- sh -c "\"$SBFS\" solve < \"$T_TMP\""
expect_line "sbfs: <stdin>: Is a directory" "solve < DIRECTORY: message" "$T_TMP/err"

# --- Ctrl-C while a command waits for input: status 5 in every command.
# The FIFO is held open for writing by this shell, so the reader waits.
# The signal comes once the command is surely waiting (later under the
# sanitizers, whose start-up and table building are slower).
wait=1; [ "${SBFS_SANITIZED:-0}" = 1 ] && wait=3
mkfifo "$T_TMP/fifo"
exec 3<>"$T_TMP/fifo"
for c in "solve" "explore" "0" "eight" "npuzzle" "tetraminx solve" "playfair encrypt -k KEY" \
    "playfair decrypt -k KEY" "playfair crack -d $W/words.txt"; do
    # shellcheck disable=SC2086
    timeout -k 3 --preserve-status -s INT $wait "$SBFS" $c <"$T_TMP/fifo" >"$T_TMP/out" 2>"$T_TMP/err"
    got=$?
    [ $got = 5 ] && ok || bad "Ctrl-C while '$c' waits for input: exit $got, want 5"
    expect_line "sbfs: interrupted" "Ctrl-C while '$c' waits: message" "$T_TMP/err"
done
exec 3>&-
# a FIFO named on the command line that nobody writes: open itself waits
mkfifo "$T_TMP/fifo2"
timeout -k 3 --preserve-status -s INT $wait "$SBFS" npuzzle "$T_TMP/fifo2" >"$T_TMP/out" 2>"$T_TMP/err"
got=$?
[ $got = 5 ] && ok || bad "Ctrl-C while opening a FIFO: exit $got, want 5"

# --- god --save: a failure leaves an earlier table whole
"$SBFS" god npuzzle 3x3 --save "$T_TMP/t33" >/dev/null
cp "$T_TMP/t33" "$T_TMP/t33.orig"
# a file size limit makes the write fail half-way (45 KB table, 20 KB limit)
expect_status 3 "save past the file size limit" -- \
    sh -c "trap '' XFSZ; ulimit -f 40; \"$SBFS\" god npuzzle 3x3 --bits 8 --save \"$T_TMP/t33\""
expect_line "sbfs: $T_TMP/t33: cannot write: File too large" "failed save: message" "$T_TMP/err"
cmp -s "$T_TMP/t33" "$T_TMP/t33.orig" && ok || bad "failed save: the earlier table was changed"
[ -s "$T_TMP/out" ] && bad "failed save: histogram printed" || ok
ls "$T_TMP" | grep -q '^t33\..*\.tmp$' && bad "failed save: temporary file left" || ok
# temporary files of runs that died (no such process) are removed; those
# of a live process are not
: >"$T_TMP/t33.4194305.tmp"
: >"$T_TMP/t33.$$.tmp"
expect_status 0 "save with leftovers" -- "$SBFS" god npuzzle 2x2 --save "$T_TMP/t33"
[ -e "$T_TMP/t33.4194305.tmp" ] && bad "stale temporary file of a dead run kept" || ok
[ -e "$T_TMP/t33.$$.tmp" ] && ok || bad "temporary file of a live process removed"
: >"$T_TMP/t33.4194305.tmp"
expect_status 0 "load with leftovers" -- "$SBFS" god npuzzle 2x2 --load "$T_TMP/t33"
[ -e "$T_TMP/t33.4194305.tmp" ] && bad "load: stale temporary file kept" || ok
# the same beside pattern databases
mkdir "$T_TMP/pdb"
pdb=npuzzle-2x5-1.2.3.4.5.6.7.8-v3.pdb
: >"$T_TMP/pdb/$pdb.4194305.tmp"
head -n 1 tests/cli/npuzzle/board2x5.in >"$T_TMP/b25.in"
expect_status 0 "pdb built with a leftover" -- "$SBFS" npuzzle -s 2x5 --pdb-dir "$T_TMP/pdb" "$T_TMP/b25.in"
[ -e "$T_TMP/pdb/$pdb" ] && ok || bad "pattern database $pdb not saved"
[ -e "$T_TMP/pdb/$pdb.4194305.tmp" ] && bad "pdb build: stale temporary file kept" || ok
: >"$T_TMP/pdb/$pdb.4194305.tmp"
expect_status 0 "pdb loaded with a leftover" -- "$SBFS" npuzzle -s 2x5 --pdb-dir "$T_TMP/pdb" "$T_TMP/b25.in"
[ -e "$T_TMP/pdb/$pdb.4194305.tmp" ] && bad "pdb load: stale temporary file kept" || ok

# --- god cut short by Ctrl-C: the distances finished, status 5, no save
# (Ctrl-C is sent once the progress line shows distance 2 under way, so
# that distance 1 is finished however loaded the machine is.)
"$SBFS" god npuzzle 3x4 -j 1 --memory 128M --progress \
    --save "$T_TMP/t33" >"$T_TMP/out" 2>"$T_TMP/err" &
pid=$!
for _ in $(seq 600); do
    tr '\r' '\n' <"$T_TMP/err" | grep -Eq 'depth ([2-9]|[1-9][0-9])' && break
    sleep 0.1
done
kill -INT $pid
wait $pid
got=$?
[ $got = 5 ] && ok || bad "god interrupted: exit $got, want 5"
expect_line "distance 0: 1" "god interrupted: distances so far" "$T_TMP/out"
expect_line "distance 1: 2" "god interrupted: distance 1" "$T_TMP/out"
expect_grep "^sbfs: stopped at distance [0-9]+$" "god interrupted: message" "$T_TMP/err"
grep -q '^total:' "$T_TMP/out" && bad "god interrupted: a total line for a cut table" || ok
"$SBFS" god npuzzle 2x2 --load "$T_TMP/t33" >/dev/null 2>&1 && ok ||
    bad "god interrupted: the saved table was touched"

# --- input is read as a stream, a line at a time: blank lines take no memory
{ cat $P/silly.txt; i=0; while [ $i -lt 3000 ]; do
    echo "                                                                      "; i=$((i + 1)); done; } \
    >"$T_TMP/padded.txt"
expect_status 0 "silly in 64K" -- "$SBFS" solve -q --memory 64K $P/silly.txt
expect_status 0 "silly and 200 KB of blank lines in 64K" -- "$SBFS" solve -q --memory 64K "$T_TMP/padded.txt"
expect_line "solution: 20 moves" "silly and 200 KB of blank lines in 64K: solved" "$T_TMP/out"
{ cat $P/silly.txt; i=0; while [ $i -lt 3000 ]; do echo; i=$((i + 1)); done; echo "0?"; } >"$T_TMP/late.txt"
expect_status 17 "a bad stop line after 3000 blank lines" -- "$SBFS" solve -q --memory 64K "$T_TMP/late.txt"
expect_grep "^sbfs: $T_TMP/late.txt:3007:" "a bad line after 3000 blank lines: its number" "$T_TMP/err"
head -c 3000000 /dev/zero | tr '\0' 1 >"$T_TMP/longline.txt"
expect_status 21 "a line of 3 MB in 64K" -- "$SBFS" solve -q --memory 64K "$T_TMP/longline.txt"
expect_grep "^sbfs: $T_TMP/longline.txt:1:1023: line longer than 1022 characters" "a line of 3 MB: message" "$T_TMP/err"
i=0; while [ $i -lt 2000 ]; do echo "1 2 3 4 5 6 7 8 0"; i=$((i + 1)); done >"$T_TMP/many.in"
expect_status 0 "npuzzle: 2000 instances in 4M" -- "$SBFS" npuzzle --memory 4M "$T_TMP/many.in"
# the input is a stream, read in batches fitted to the budget: any number
# of instances runs in the same room
expect_status 0 "npuzzle: 2000 instances in 200K" -- "$SBFS" npuzzle --memory 200K "$T_TMP/many.in"
expect_same "$(grep -c '^0	$' "$T_TMP/out")" 2000 "npuzzle: 2000 instances in 200K, all answered"
expect_grep "^# 2000 instances: 2000 solved" "npuzzle: 2000 instances in 200K, counted" "$T_TMP/err"
expect_status 4 "npuzzle: not even one instance in 4K" -- "$SBFS" npuzzle --memory 4K "$T_TMP/many.in"
# a bad line stops the run after the lines before it are answered
{ echo "1 2 3 4 5 6 7 0 8"; echo "1 2 3 4 5 6 7 8 8"; echo "1 2 3 4 5 6 7 8 0"; } >"$T_TMP/bad3.in"
expect_status 6 "npuzzle: a bad second line" -- "$SBFS" npuzzle "$T_TMP/bad3.in"
expect_same "$(cat "$T_TMP/out")" "1	r" "npuzzle: the line before the bad one is answered"
expect_grep "^sbfs: $T_TMP/bad3.in:2:" "npuzzle: the bad line named" "$T_TMP/err"
finish
