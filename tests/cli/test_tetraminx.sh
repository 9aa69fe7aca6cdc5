# CLI tests of sbfs tetraminx and sbfs god tetraminx.  Every solution
# printed here is replayed by tests/verify tetraminx, which also checks
# that no shorter solution exists.
. tests/cli/lib.sh
D=tests/cli/tetraminx

# --- usage
expect_status 0 "tetraminx --help" -- "$SBFS" tetraminx --help
expect_grep "tetraminx solve" "help names solve" "$T_TMP/out"
expect_status 0 "tetraminx solve --help" -- "$SBFS" tetraminx solve --help
expect_status 0 "god tetraminx --help" -- "$SBFS" tetraminx god --help
expect_status 2 "no subcommand" -- "$SBFS" tetraminx
expect_status 2 "unknown subcommand" -- "$SBFS" tetraminx twist
expect_status 2 "unknown option" -- "$SBFS" tetraminx solve --bogus
expect_status 2 "random without N" -- "$SBFS" tetraminx random
expect_status 2 "random with a bad N" -- "$SBFS" tetraminx random 12x
expect_status 2 "random with a bad seed" -- "$SBFS" tetraminx random 3 --seed x

# --- the histogram (the 1999 figures: 283888 within 7, ..., 933120 within 11)
expect_file $D/god.out "god tetraminx" -- "$SBFS" god tetraminx
expect_file $D/god.out "tetraminx god" -- "$SBFS" tetraminx god --no-progress
expect_file $D/god.out "god tetraminx, two threads" -- "$SBFS" god tetraminx -j 2
expect_status 4 "memory budget too small, --no-disk" -- "$SBFS" god tetraminx --memory 64K --no-disk
expect_grep "memory budget exhausted" "budget message" "$T_TMP/err"

# --- on disk when the table's 233,280 bytes do not fit: the same histogram,
# with a note unless --disk names the folder, and no file left; a build
# stopped by the disk limit keeps its checkpoint, and --resume ends it
DK="$T_TMP/disk"
mkdir -p "$DK"
expect_file $D/god.out "god tetraminx on disk in 64K" -- "$SBFS" god tetraminx --memory 64K
expect_line "sbfs: the table needs more than the memory budget: it is built on disk, in slices, in a folder under ${TMPDIR:-/tmp}" \
    "on disk: the note" "$T_TMP/err"
expect_file $D/god.out "god tetraminx on disk in 16K, two threads" -- "$SBFS" god tetraminx --memory 16K -j 2 --disk "$DK"
[ -s "$T_TMP/err" ] && bad "on disk with --disk: no note wanted" || ok
expect_file $D/god.out "god tetraminx on disk, --save" -- "$SBFS" god tetraminx --memory 64K --disk "$DK" --save "$T_TMP/tdisk"
"$SBFS" god tetraminx --save "$T_TMP/tmem" > /dev/null
expect_status 0 "saved from disk: the file saved from memory" -- cmp "$T_TMP/tdisk" "$T_TMP/tmem"
expect_same "$(ls -A "$DK")" "" "on disk: no file left"
expect_status 4 "on disk past --disk-limit" -- "$SBFS" god tetraminx --memory 64K --disk "$DK" --disk-limit 10K
expect_line "sbfs: disk limit exhausted: the table's files would pass 10240 bytes" "--disk-limit: message" "$T_TMP/err"
CK="$T_TMP/ck"
mkdir -p "$CK"
expect_status 4 "--checkpoint stopped by the disk limit" -- \
    "$SBFS" god tetraminx --memory 64K --checkpoint "$CK" --disk-limit 500K
[ -f "$CK/run" ] && ok || bad "--checkpoint stopped: no record kept"
expect_file $D/god.out "--resume" -- "$SBFS" god tetraminx --memory 64K --resume "$CK"
expect_status 7 "--resume a folder without a build" -- "$SBFS" god tetraminx --resume "$DK"
expect_line "sbfs: $DK: not a checkpoint this build can resume: no record of a build" "--resume: message" "$T_TMP/err"
expect_status 2 "--no-disk with --disk" -- "$SBFS" god tetraminx --no-disk --disk "$DK"
expect_status 2 "--disk with --load" -- "$SBFS" god tetraminx --disk "$DK" --load "$T_TMP/tmem"
expect_status 2 "a bad --disk-limit" -- "$SBFS" god tetraminx --disk "$DK" --disk-limit lots
expect_status 2 "bad thread count" -- "$SBFS" tetraminx solve -j 0
expect_status 2 "--load without a file" -- "$SBFS" god tetraminx --load
expect_status 2 "--save without a file" -- "$SBFS" god tetraminx --save
expect_line "sbfs: god tetraminx: option '--save' needs a value (TABLE) (try 'sbfs god tetraminx --help')" \
    "--save without a file message" "$T_TMP/err"
expect_status 2 "god: unknown option" -- "$SBFS" god tetraminx --fast
expect_line "sbfs: god tetraminx: unknown option '--fast' (try 'sbfs god tetraminx --help')" \
    "god: unknown option message" "$T_TMP/err"
expect_status 2 "random: a count past 64 bits" -- "$SBFS" tetraminx random 99999999999999999999
expect_line "sbfs: tetraminx random: N is a count from 0 to 18446744073709551615, not '99999999999999999999' (try 'sbfs tetraminx random --help')" \
    "random: count past 64 bits message" "$T_TMP/err"
expect_status 2 "random: a negative count" -- "$SBFS" tetraminx random -5
expect_line "sbfs: tetraminx random: N is a count from 0 to 18446744073709551615, not '-5' (try 'sbfs tetraminx random --help')" \
    "random: negative count message" "$T_TMP/err"

# --- the worked examples of docs/FORMAT.md and other notation: exact answers
expect_file $D/examples.out "solve examples" -- "$SBFS" tetraminx solve $D/examples.txt
expect_status 0 "verify examples" -- "$VERIFY" tetraminx $D/examples.txt $D/examples.out
expect_file $D/examples-v.out "solve -v examples" -- "$SBFS" tetraminx solve -v $D/examples.txt
expect_status 0 "verify -v examples" -- "$VERIFY" tetraminx $D/examples.txt $D/examples-v.out
expect_line "11: U L U B' R' L' B' R' B R' B'" "antipode at distance 11" $D/examples-v.out
expect_line "6: R' U' L R U' R'" "R U R' L' U R at distance 6" $D/examples-v.out
# from stdin, too
"$SBFS" tetraminx solve -v < $D/examples.txt > "$T_TMP/stdin.out" 2>&1
if cmp -s "$T_TMP/stdin.out" $D/examples-v.out; then ok; else bad "solve from stdin differs"; fi

# --- the verifier itself refuses wrong answers
printf 'U\nU\nR U\n' > "$T_TMP/vp"
printf "U'\nU U\nU' R'\n" > "$T_TMP/vs"
expect_status 1 "verifier: not optimal" -- "$VERIFY" tetraminx "$T_TMP/vp" "$T_TMP/vs"
expect_grep "line 2: not optimal" "verifier names the line" "$T_TMP/err"
printf "U'\nU'\nR' U'\n" > "$T_TMP/vs"
expect_status 1 "verifier: does not solve" -- "$VERIFY" tetraminx "$T_TMP/vp" "$T_TMP/vs"
printf "U'\nU\nU'  R'\n" > "$T_TMP/vs"
expect_status 1 "verifier: double space" -- "$VERIFY" tetraminx "$T_TMP/vp" "$T_TMP/vs"
printf "1: U'\n2: U\n2: U' R'\n" > "$T_TMP/vs"
expect_status 1 "verifier: wrong claimed distance" -- "$VERIFY" tetraminx "$T_TMP/vp" "$T_TMP/vs"

# --- malformed input: the message names file, line and column; what came
# before the bad line was answered
expect_status 6 "bad move" -- "$SBFS" tetraminx solve $D/bad-move.txt
expect_line "sbfs: $D/bad-move.txt:3:3: 'X'' is not a move (moves are U U' L L' R R' B B'; tips u l r b are skipped)" \
    "bad move message" "$T_TMP/err"
printf "R' U'\n\n" > "$T_TMP/want"
if cmp -s "$T_TMP/out" "$T_TMP/want"; then ok; else bad "lines before the bad one"; fi
expect_status 6 "bad colour" -- "$SBFS" tetraminx solve $D/bad-colour.txt
expect_line "sbfs: $D/bad-colour.txt:1:12: 'X' is not a colour: a facelet string uses only F, D, L and R" \
    "bad colour message" "$T_TMP/err"
expect_status 8 "tet that does not exist" -- "$SBFS" tetraminx solve $D/bad-tet.txt
expect_line "sbfs: $D/bad-tet.txt:1:1: the tet at corner U shows D L R (facelets 1 15 19); it must show F, L and R" \
    "bad tet message" "$T_TMP/err"
expect_status 8 "odd permutation" -- "$SBFS" tetraminx solve $D/bad-parity.txt
expect_grep "bad-parity.txt:2:1: the edge permutation is odd" "odd permutation message" "$T_TMP/err"
expect_status 8 "odd flips" -- "$SBFS" tetraminx solve $D/bad-flip.txt
expect_grep "bad-flip.txt:1:1: an odd number of edges is flipped \(1\)" "odd flips message" "$T_TMP/err"
expect_status 3 "missing file" -- "$SBFS" tetraminx solve $D/no-such-file.txt
head -c 70000 /dev/zero | tr '\0' 'U' > "$T_TMP/long"; echo >> "$T_TMP/long"
expect_status 21 "line too long" -- "$SBFS" tetraminx solve "$T_TMP/long"
expect_grep ":1:65537: line longer than 65536 characters" "long line message" "$T_TMP/err"
# Ctrl-C while solve waits for more input: stopped (5), not a read error (3),
# and the line answered before it stays on stdout.
(echo U; sleep 3) | timeout --preserve-status -s INT 1 "$SBFS" tetraminx solve \
    > "$T_TMP/out" 2> "$T_TMP/err"
[ $? = 5 ] && ok || bad "Ctrl-C while reading: exit status"
expect_line "U'" "Ctrl-C while reading: the answer so far" "$T_TMP/out"
expect_line "sbfs: interrupted" "Ctrl-C while reading: message" "$T_TMP/err"
expect_status 3 "a directory as input" -- "$SBFS" tetraminx solve "$T_TMP"
expect_line "sbfs: $T_TMP: Is a directory" "directory as input message" "$T_TMP/err"

# --- random positions: legal, solved optimally, uniform
if [ "${SBFS_SANITIZED:-0}" = 1 ]; then n=100; else n=400; fi
expect_status 0 "random" -- "$SBFS" tetraminx random $n --seed 7
cp "$T_TMP/out" "$T_TMP/rand"
[ "$(grep -cE '^[FDLR]{24}DRLF$' "$T_TMP/rand")" = $n ] && ok || bad "random: $n facelet strings"
"$SBFS" tetraminx solve -v "$T_TMP/rand" > "$T_TMP/rand.sol" 2>&1 && ok || bad "solve random"
expect_status 0 "verify random" -- "$VERIFY" tetraminx "$T_TMP/rand" "$T_TMP/rand.sol"
# the same seed, the same positions; as scrambles they solve the same way
"$SBFS" tetraminx random $n --seed 7 > "$T_TMP/rand2"
cmp -s "$T_TMP/rand" "$T_TMP/rand2" && ok || bad "random: same seed, same stream"
"$SBFS" tetraminx random $n --seed 7 --scramble > "$T_TMP/scr"
"$SBFS" tetraminx solve -v "$T_TMP/scr" > "$T_TMP/scr.sol" 2>&1
cmp -s "$T_TMP/scr.sol" "$T_TMP/rand.sol" && ok || bad "random --scramble: not the same positions"
expect_status 0 "verify scrambles" -- "$VERIFY" tetraminx "$T_TMP/scr" "$T_TMP/scr.sol"
# a scramble is an optimal one: as long as the solution
awk '{ n += NF } END { print n }' "$T_TMP/scr" > "$T_TMP/a"
sed 's/^[0-9]*:/ /' "$T_TMP/scr.sol" | awk '{ n += NF } END { print n }' > "$T_TMP/b"
cmp -s "$T_TMP/a" "$T_TMP/b" && ok || bad "random --scramble: scramble lengths"
# Uniformity: the colour of facelet 1 (tet U's twist, 3 ways) and of
# facelets 2 and 24 (the edge in place U-R and its flip, 12 ways) split the
# positions into 36 cells of equal size.  Chi-square, 35 degrees of freedom,
# 0.1% critical value 66.6.
"$SBFS" tetraminx random 36000 --seed 12345 > "$T_TMP/many"
awk '{ c[substr($0, 1, 2) substr($0, 24, 1)]++; n++ }
     END { k = 0; for (x in c) k++; e = n / 36; for (x in c) chi += (c[x] - e) ^ 2 / e;
           printf "%d cells, %s\n", k, (chi < 66.6 ? "uniform" : "not uniform " chi) }' \
    "$T_TMP/many" > "$T_TMP/chi"
expect_line "36 cells, uniform" "random: chi-square over 36 cells" "$T_TMP/chi"

# --- the table saved and loaded
expect_status 0 "god --save" -- "$SBFS" tetraminx god --save "$T_TMP/tet.tbl"
expect_file $D/god.out "god --load" -- "$SBFS" tetraminx god --load "$T_TMP/tet.tbl"
expect_file $D/examples.out "solve --load" -- "$SBFS" tetraminx solve --load "$T_TMP/tet.tbl" $D/examples.txt
printf 'XXXX' | dd of="$T_TMP/tet.tbl" bs=1 seek=100000 conv=notrunc 2>/dev/null
expect_status 7 "damaged table refused" -- "$SBFS" tetraminx solve --load "$T_TMP/tet.tbl" $D/examples.txt
expect_grep "checksum mismatch" "damaged table message" "$T_TMP/err"
expect_status 7 "foreign file refused" -- "$SBFS" tetraminx god --load $D/examples.txt
expect_status 3 "missing table" -- "$SBFS" tetraminx god --load "$T_TMP/none.tbl"

finish
