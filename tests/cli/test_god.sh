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
expect_status 4 "budget too small" -- $SBFS god npuzzle 3x3 --memory 10K
expect_grep "more than the memory budget" "budget message" $T_TMP/err
expect_status 4 "4x4 does not fit" -- $SBFS god npuzzle 4x4 --memory 1G
# -v: the same table on stdout, the figures on stderr
$SBFS god npuzzle 2x3 >"$T_TMP/god23"
expect_file "$T_TMP/god23" "god -v: the same output" -- $SBFS god npuzzle 2x3 -v
expect_grep "^sbfs: 360 positions, [0-9.]+ s, [0-9]+ positions/s, memory [0-9]+ bytes \([0-9.]+ bytes/position\)$" \
    "god -v: the figures" "$T_TMP/err"
finish
