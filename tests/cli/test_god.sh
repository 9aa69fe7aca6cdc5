#!/bin/sh
# sbfs god: exact histograms, saved tables, and refusals.
. tests/cli/lib.sh
G=tests/cli/god

expect_file $G/npuzzle_2x2.out "god npuzzle 2x2" -- $SBFS god npuzzle 2x2
expect_file $G/npuzzle_2x3.out "god npuzzle 2x3" -- $SBFS god npuzzle 2x3 -j 2 --no-progress
expect_file $G/npuzzle_3x3.out "god npuzzle 3x3" -- $SBFS god npuzzle 3x3 -j 2
expect_file $G/npuzzle_3x3.out "god npuzzle 3x3, one thread" -- $SBFS god npuzzle -j 1 3x3
expect_line "distance 31: 2" "3x3 farthest" $T_TMP/out
expect_line "total: 181440 positions, largest distance 31" "3x3 total" $T_TMP/out

# wider codes: the same histogram, or a clear refusal when distances pass 14
expect_file $G/npuzzle_3x3.out "3x3 in 8 bits" -- $SBFS god npuzzle 3x3 --bits 8
expect_file $G/npuzzle_2x2.out "2x2 in 4 bits" -- $SBFS god npuzzle 2x2 --bits 4
expect_status 2 "3x3 in 4 bits" -- $SBFS god npuzzle 3x3 --bits 4
expect_line "sbfs: distances pass 14: a 4-bit table cannot hold them" "4-bit message" $T_TMP/err
expect_status 2 "bad --bits" -- $SBFS god npuzzle 3x3 --bits 3
expect_file $G/npuzzle_3x3.out "save 8 bits" -- $SBFS god npuzzle 3x3 --bits 8 --save $T_TMP/t8
expect_file $G/npuzzle_3x3.out "load 8 bits" -- $SBFS god npuzzle 3x3 --load $T_TMP/t8

# save, load back, refuse another size or a damaged file
expect_file $G/npuzzle_3x3.out "save" -- $SBFS god npuzzle 3x3 --save $T_TMP/t33
expect_file $G/npuzzle_3x3.out "load" -- $SBFS god npuzzle 3x3 --load $T_TMP/t33
expect_status 7 "load for another size" -- $SBFS god npuzzle 2x4 --load $T_TMP/t33
expect_line "sbfs: $T_TMP/t33: table is for npuzzle 3x3, not npuzzle 2x4" "mismatch message" $T_TMP/err
expect_status 7 "load an npuzzle table as the Tetraminx's" -- $SBFS god tetraminx --load $T_TMP/t33
expect_line "sbfs: $T_TMP/t33: table is for npuzzle 3x3, not tetraminx" "cross mismatch message" $T_TMP/err
$SBFS god tetraminx --save $T_TMP/tet > /dev/null
expect_status 7 "load the Tetraminx table as an npuzzle's" -- $SBFS god npuzzle 3x3 --load $T_TMP/tet
expect_line "sbfs: $T_TMP/tet: table is for tetraminx, not npuzzle 3x3" "cross mismatch message 2" $T_TMP/err
head -c 20000 $T_TMP/t33 > $T_TMP/cut
expect_status 7 "load a truncated table" -- $SBFS god npuzzle 3x3 --load $T_TMP/cut
expect_grep "truncated" "truncated message" $T_TMP/err
printf 'distance 0: 1\n' > $T_TMP/text
expect_status 7 "load a text file" -- $SBFS god npuzzle 3x3 --load $T_TMP/text
expect_grep "not an sbfs distance table" "not-a-table message" $T_TMP/err
{ printf 'SBFSTBL1npuzzle'; head -c 2000 /dev/zero; } > $T_TMP/v1
expect_status 7 "load a table of format version 1" -- $SBFS god npuzzle 3x3 --load $T_TMP/v1
expect_line "sbfs: $T_TMP/v1: an sbfs distance table in format version 1; this sbfs reads only version 2" "old version message" $T_TMP/err
expect_status 3 "load a missing file" -- $SBFS god npuzzle 3x3 --load $T_TMP/none
expect_status 3 "load a directory" -- $SBFS god npuzzle 3x3 --load $T_TMP
expect_line "sbfs: $T_TMP: Is a directory" "directory message" $T_TMP/err
expect_status 3 "save to a bad path" -- $SBFS god npuzzle 2x2 --save /nonexistent/dir/t
[ -s $T_TMP/out ] && bad "save to a bad path: output on stdout" || ok
if [ -c /dev/full ] && [ -w /dev/full ]; then
    expect_status 3 "stdout full" -- sh -c "$SBFS god npuzzle 2x2 > /dev/full"
    # a failed --save to a device must not unlink the device
    expect_status 3 "save to a full device" -- $SBFS god npuzzle 2x3 --save /dev/full
    expect_line "sbfs: /dev/full: cannot write: No space left on device" "full device message" $T_TMP/err
    [ -c /dev/full ] && ok || bad "save to a full device: /dev/full is gone"
fi
expect_status 3 "save over a directory" -- $SBFS god npuzzle 2x2 --save $T_TMP
expect_line "sbfs: $T_TMP: Is a directory" "save over a directory message" $T_TMP/err

# usage errors
expect_status 0 "help" -- $SBFS god --help
expect_grep "usage: sbfs god npuzzle RxC" "help text" $T_TMP/out
expect_status 0 "npuzzle help" -- $SBFS god npuzzle --help
expect_status 2 "no puzzle" -- $SBFS god
expect_status 2 "unknown puzzle" -- $SBFS god cube
expect_line "sbfs: god: unknown puzzle 'cube' (known: npuzzle RxC, tetraminx) (try 'sbfs god --help')" \
    "unknown puzzle message" $T_TMP/err
expect_status 2 "no size" -- $SBFS god npuzzle
expect_status 2 "bad size" -- $SBFS god npuzzle 3by3
expect_status 2 "too big a board" -- $SBFS god npuzzle 5x4
expect_status 2 "a side of 1" -- $SBFS god npuzzle 1x5
expect_status 2 "bad -j" -- $SBFS god npuzzle 3x3 -j 0
expect_status 2 "bad option" -- $SBFS god npuzzle 3x3 --fast
expect_status 2 "bad memory" -- $SBFS god npuzzle 3x3 --memory lots
expect_status 4 "budget too small" -- $SBFS god npuzzle 3x3 --memory 10K --no-disk
expect_line "sbfs: npuzzle 3x3: the table needs 45360 bytes (2 bits for each of 181440 positions), more than the memory budget of 10240 bytes (see --memory)" \
    "budget message" $T_TMP/err
expect_status 4 "4x4 does not fit" -- $SBFS god npuzzle 4x4 --memory 1G

# tables on disk: larger than --memory, built a slice at a time, the same
# histogram and the same saved file as in memory, nothing left behind
D=$T_TMP/disk
mkdir "$D"
expect_file $G/npuzzle_3x3.out "3x3 on disk in 20K" -- $SBFS god npuzzle 3x3 --memory 20K
expect_line "sbfs: the table needs more than the memory budget: it is built on disk, in slices, in a folder under ${TMPDIR:-/tmp}" \
    "on disk: the note" $T_TMP/err
expect_file $G/npuzzle_3x3.out "3x3 on disk in 8K, one thread" -- $SBFS god npuzzle 3x3 --memory 8K -j 1 --disk "$D"
[ -s $T_TMP/err ] && bad "on disk with --disk: no note wanted" || ok
expect_file $G/npuzzle_3x3.out "3x3 on disk in 40K, two threads" -- $SBFS god npuzzle 3x3 --memory 40K -j 2 --disk "$D"
expect_file $G/npuzzle_2x4.out "2x4 in memory" -- $SBFS god npuzzle 2x4
expect_file $G/npuzzle_2x4.out "2x4 on disk in 4K" -- $SBFS god npuzzle 2x4 --memory 4K -j 2 --disk "$D"
expect_file $G/npuzzle_3x3.out "3x3 on disk, -v" -- $SBFS god npuzzle 3x3 --memory 20K -v --disk "$D"
expect_grep "^sbfs: table on disk: 6 slices, [0-9]+ bytes of files at most$" "on disk -v: slices and files" $T_TMP/err
expect_file $G/npuzzle_3x3.out "save from disk" -- $SBFS god npuzzle 3x3 --memory 20K --disk "$D" --save $T_TMP/td
expect_status 0 "saved from disk: the file saved from memory" -- cmp $T_TMP/td $T_TMP/t33
expect_file $G/npuzzle_3x3.out "load in a budget smaller than the table" -- $SBFS god npuzzle 3x3 --memory 20K --load $T_TMP/td
TMPDIR="$D" $SBFS god npuzzle 3x3 --memory 20K >/dev/null 2>$T_TMP/err
expect_line "sbfs: the table needs more than the memory budget: it is built on disk, in slices, in a folder under $D" \
    "on disk: TMPDIR" $T_TMP/err
expect_same "$(ls -A "$D")" "" "on disk: no file left"
# the 11-puzzle on disk in 16M, a quarter of its 60 MB table: 18 positions at
# distance 53, as in memory.  About 20 s of CPU; skipped under the sanitizers.
if [ "${SBFS_SANITIZED:-0}" = 0 ]; then
    expect_file $G/npuzzle_3x4.out "3x4 on disk in 16M" -- $SBFS god npuzzle 3x4 --memory 16M --disk "$D"
    expect_line "distance 53: 18" "3x4 on disk: farthest" $T_TMP/out
    expect_same "$(ls -A "$D")" "" "3x4 on disk: no file left"
fi
# refusals: a folder that is not there, the disk limit, bits other than 2
expect_status 3 "--disk to a folder that is not there" -- $SBFS god npuzzle 3x3 --memory 20K --disk $T_TMP/none
expect_line "sbfs: cannot make a folder in $T_TMP/none: No such file or directory" "--disk: no folder message" $T_TMP/err
[ -s $T_TMP/out ] && bad "--disk to a folder that is not there: output on stdout" || ok
expect_status 4 "past --disk-limit" -- $SBFS god npuzzle 3x3 --memory 20K --disk "$D" --disk-limit 100K
expect_line "sbfs: disk limit exhausted: the table's files would pass 102400 bytes" "--disk-limit message" $T_TMP/err
expect_status 4 "--disk-limit below the table" -- $SBFS god npuzzle 3x3 --memory 20K --disk-limit 40K
expect_same "$(ls -A "$D")" "" "past --disk-limit: no file left"
expect_status 2 "bad --disk-limit" -- $SBFS god npuzzle 3x3 --memory 20K --disk-limit lots
expect_status 2 "bad --disk-limit, the table in memory" -- $SBFS god npuzzle 2x3 --disk-limit lots
expect_status 2 "--no-disk and --disk" -- $SBFS god npuzzle 3x3 --no-disk --disk "$D"
expect_status 4 "8 bits do not go on disk" -- $SBFS god npuzzle 3x3 --memory 20K --bits 8
expect_grep "only 2-bit tables go on disk" "8 bits message" $T_TMP/err
expect_status 4 "budget too small even on disk" -- $SBFS god npuzzle 3x3 --memory 2K -j 2
expect_line "sbfs: the memory budget of 2048 bytes is too small even for a table on disk (2 threads)" \
    "budget too small even on disk: message" $T_TMP/err
# Ctrl-C: status 5, the progress line, the files removed
timeout -k 5 --preserve-status -s INT 2 $SBFS god npuzzle 3x4 --memory 16M --disk "$D" --progress \
    >$T_TMP/out 2>$T_TMP/err
expect_same "$?" 5 "on disk, Ctrl-C: status"
expect_grep '^table \(on disk\) depth [0-9]+: [0-9.kM]+ of 239500800 \([0-9]+%\), [0-9.kM]+/s, mem [0-9.kM]+B, disk [0-9.kM]+B' \
    "on disk, progress line" $T_TMP/err
expect_same "$(ls -A "$D")" "" "on disk, Ctrl-C: no file left"

# checkpoints: a build stopped by Ctrl-C or a kill keeps its files, and
# --resume takes it up to the same histogram; another board's build or a
# damaged record is refused
CK=$T_TMP/ck
timeout -k 5 --preserve-status -s INT 2 $SBFS god npuzzle 3x4 --memory 16M --checkpoint "$CK" \
    >$T_TMP/out 2>$T_TMP/err
expect_same "$?" 5 "checkpoint, Ctrl-C: status"
[ -f "$CK/run" ] && ok || bad "checkpoint, Ctrl-C: no record kept"
expect_status 2 "--checkpoint and --resume" -- $SBFS god npuzzle 3x4 --checkpoint "$CK" --resume "$CK"
expect_status 2 "--checkpoint in 8 bits" -- $SBFS god npuzzle 3x4 --checkpoint "$CK" --bits 8
expect_line "sbfs: god npuzzle: tables on disk hold 2 bits a position, not 8 (try 'sbfs god npuzzle --help')" \
    "--checkpoint in 8 bits: message" $T_TMP/err
expect_status 2 "--checkpoint over a stopped build" -- $SBFS god npuzzle 3x4 --memory 16M --checkpoint "$CK"
expect_line "sbfs: $CK holds a stopped build: resume it, or remove it" "--checkpoint over a stopped build: message" \
    $T_TMP/err
expect_status 7 "--resume as another board" -- $SBFS god npuzzle 3x3 --resume "$CK"
expect_line "sbfs: $CK: not a checkpoint this build can resume: it is of another puzzle or size" \
    "--resume as another board: message" $T_TMP/err
cp -r "$CK" $T_TMP/ck2
printf 'x' | dd of=$T_TMP/ck2/run bs=1 seek=70 conv=notrunc 2>/dev/null
expect_status 7 "--resume a damaged record" -- $SBFS god npuzzle 3x4 --memory 16M --resume $T_TMP/ck2
expect_line "sbfs: $T_TMP/ck2: not a checkpoint this build can resume: its record is damaged" \
    "--resume a damaged record: message" $T_TMP/err
expect_status 7 "--resume a folder without a build" -- $SBFS god npuzzle 3x4 --memory 16M --resume "$D"
if [ "${SBFS_SANITIZED:-0}" = 0 ]; then
    # killed outright a little later, then taken up to the end
    $SBFS god npuzzle 3x4 --memory 16M --resume "$CK" >/dev/null 2>&1 &
    sleep 3; kill -9 $! 2>/dev/null; wait $! 2>/dev/null
    expect_file $G/npuzzle_3x4.out "--resume after a kill" -- $SBFS god npuzzle 3x4 --memory 16M --resume "$CK"
    expect_same "$(ls -A "$CK")" "" "--resume: the files removed at the end"
fi

# -v: the same table on stdout, the figures on stderr
$SBFS god npuzzle 2x3 >"$T_TMP/god23"
expect_file "$T_TMP/god23" "god -v: the same output" -- $SBFS god npuzzle 2x3 -v
expect_grep "^sbfs: 360 positions, [0-9.]+ s, [0-9]+ positions/s, memory [0-9]+ bytes \([0-9.]+ bytes/position\)$" \
    "god -v: the figures" "$T_TMP/err"
finish
