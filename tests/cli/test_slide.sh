# CLI tests of the sliding-block solver: sbfs solve and SLIDING's own
# command line.  Expected files in tests/cli/slide/ are sbfs's own output,
# checked by hand (the SLIDING listing line by line against Knuth's program's
# output for the silly puzzle); every printed solution is replayed by
# tests/verify slide.
. tests/cli/lib.sh
D=tests/cli/slide
P=puzzles

# SLIDING's command line on the silly puzzle, all styles
for s in 0 1 2 3 4 5; do
    expect_file $D/silly-sliding$s.out "sbfs $s < silly" -- sh -c "$SBFS $s < $P/silly.txt"
done
expect_file $D/silly-sliding0-quiet.out "sbfs 0 -1 < silly" -- sh -c "$SBFS 0 -1 < $P/silly.txt"
expect_file $D/silly-sliding0-verbose.out "sbfs 0 1 < silly" -- sh -c "$SBFS 0 1 < $P/silly.txt"

# sbfs solve: full output for silly (both ways, the default), level counts
# of the search from the start for every bundled puzzle
for s in 0 1 2 3 4 5; do
    expect_file $D/silly-s$s.out "solve -s $s silly" -- $SBFS solve -s $s $P/silly.txt
    for p in silly shift klotski eight-judge eight-sample; do
        expect_file $D/$p-s$s-q.out "solve -q --no-bidir -s $s $p" -- $SBFS solve -q --no-bidir -s $s $P/$p.txt
    done
done

# every solution replays, found both ways and one way; both give one length
for s in 0 1 2 3 4 5; do
    for p in silly shift klotski eight-judge eight-sample; do
        $SBFS solve -s $s $P/$p.txt > "$T_TMP/sol" 2>&1
        expect_status 0 "verify $p style $s" -- "$VERIFY" slide $s $P/$p.txt "$T_TMP/sol"
        $SBFS solve --no-bidir -s $s $P/$p.txt > "$T_TMP/sol1" 2>&1
        expect_status 0 "verify $p style $s, one way" -- "$VERIFY" slide $s $P/$p.txt "$T_TMP/sol1"
        expect_same "$(tail -n 1 "$T_TMP/sol")" "$(tail -n 1 "$T_TMP/sol1")" "$p style $s: both ways as long as one way"
    done
done

# partial goals are searched one way; to the configuration that search
# reached (the last board's shorthand from --json), both ways are as long
for s in 0 1 2 3 4 5; do
    for p in shift klotski; do
        $SBFS solve --json -s $s $P/$p.txt > "$T_TMP/json"
        last=$(grep -o '"shorthand": "[0-9a-f]*"' "$T_TMP/json" | tail -n 1 | cut -d'"' -f4)
        { sed '$d' $P/$p.txt; echo "$last"; } > "$T_TMP/full.txt"
        $SBFS solve -s $s "$T_TMP/full.txt" > "$T_TMP/sol"
        expect_status 0 "$p style $s to its last board, both ways: replays" -- "$VERIFY" slide $s "$T_TMP/full.txt" "$T_TMP/sol"
        expect_grep '^backward 0: 1$' "$p style $s to its last board: searched both ways" "$T_TMP/sol"
        expect_grep "\"length\": $(tail -n 1 "$T_TMP/sol" | cut -d' ' -f2)," "$p style $s: both ways as long as one way" "$T_TMP/json"
    done
done

# one thread or two: the same output, byte for byte (counts and path)
for p in shift eight-judge; do
    for b in "" --no-bidir; do
        $SBFS solve -j 1 $b $P/$p.txt > "$T_TMP/j1"
        $SBFS solve -j 2 $b $P/$p.txt > "$T_TMP/j2"
        expect_status 0 "$p $b: -j 1 and -j 2 agree" -- cmp "$T_TMP/j1" "$T_TMP/j2"
    done
done

# JSON: the whole document for a short solution
expect_file $D/silly-s5.json "solve --json -s 5 silly" -- $SBFS solve --json -s 5 $P/silly.txt
# the verifier rejects a tampered solution
$SBFS solve -s 0 $P/silly.txt | sed 's/^move 3: .*/move 3: 3@r5c1 up/' > "$T_TMP/bad"
expect_status 1 "verify rejects a wrong move" -- "$VERIFY" slide 0 $P/silly.txt "$T_TMP/bad"
$SBFS solve -s 2 $P/silly.txt > "$T_TMP/sol2"
expect_status 1 "verify rejects a style-2 move in style 0" -- "$VERIFY" slide 0 $P/silly.txt "$T_TMP/sol2"

# the verifier rejects a solution that ends off the goal: SHIFT's last move
# dropped, the claim adjusted, so that every move left is legal
$SBFS solve -s 0 $P/shift.txt | sed -e '/^move 116: /d' -e 's/^solution: 116 moves$/solution: 115 moves/' > "$T_TMP/short"
expect_status 1 "verify rejects a solution ending off the goal" -- "$VERIFY" slide 0 $P/shift.txt "$T_TMP/short"
expect_line "verify_slide: the last board matches no stop line" "off-goal message" "$T_TMP/err"

# goals: several stop lines, '.' and '*' (docs/FORMAT.md); the silly puzzle
# with a second, partial way to stop, which is the nearer one
G=$D/silly-goals.txt
expect_file $D/silly-goals-sliding0.out "sbfs 0 < silly-goals" -- sh -c "$SBFS 0 < $G"
for s in 0 1 2 3 4 5; do
    expect_file $D/silly-goals-s$s.out "solve -s $s silly-goals" -- $SBFS solve -s $s $G
    expect_status 0 "verify silly-goals style $s" -- "$VERIFY" slide $s $G $D/silly-goals-s$s.out
done
# the same file with the partial line first: the same answers
{ sed -n '1,5p' $G; sed -n '7p' $G; sed -n '6p' $G; } > "$T_TMP/swapped.txt"
expect_status 0 "stop lines in the other order" -- $SBFS solve -q -s 0 "$T_TMP/swapped.txt"
expect_line "solution: 6 moves" "stop lines in the other order" "$T_TMP/out"
# only the full line: SLIDING's 20 moves, and the verifier holds to it
sed '$d' $G > "$T_TMP/fullonly.txt"
expect_status 1 "verify: the partial line was the one reached" -- "$VERIFY" slide 0 "$T_TMP/fullonly.txt" $D/silly-goals-s0.out

# the independent census of the Klotski component (25955 configurations),
# pinned for styles 0-2: what a census by sbfs itself must reproduce
for s in 0 1 2; do
    expect_file $D/klotski-census$s.out "census klotski style $s" -- "$VERIFY" slide census $s $P/klotski.txt
done
# and in styles 3-5, where sets of blocks move: explore agrees with it
for s in 3 4 5; do
    $SBFS explore -s $s $P/klotski.txt | grep -E '^(distance|component)' > "$T_TMP/explore"
    "$VERIFY" slide census $s $P/klotski.txt > "$T_TMP/census"
    expect_status 0 "explore klotski style $s agrees with the census" -- cmp "$T_TMP/explore" "$T_TMP/census"
    [ $s != 3 ] || expect_line "component: 25955 configurations, largest distance 105" "census klotski style 3" "$T_TMP/census"
done
expect_status 2 "census: styles 0-5 only" -- "$VERIFY" slide census 6 $P/klotski.txt

# boards with many empty cells and few pieces (hints wider than 32 bits in
# style 0) solve in every style: one piece on 2 x 5, and the 2x2 block
# with two 1x1 under Klotski's goal
printf '2 x 5 k\n1 = 1\n1\n01\n' > "$T_TMP/one.txt"
printf '5 x 4 k\n1 = 11/11\n2 = 1\n01000022\n.............1*\n' > "$T_TMP/two.txt"
for s in 0 1 2 3 4 5; do
    expect_status 0 "one piece on 2 x 5, style $s" -- $SBFS solve -s $s "$T_TMP/one.txt"
    expect_line "solution: 1 move" "one piece on 2 x 5, style $s" "$T_TMP/out"
    cp "$T_TMP/out" "$T_TMP/sol"
    expect_status 0 "one piece on 2 x 5, style $s: replays" -- "$VERIFY" slide $s "$T_TMP/one.txt" "$T_TMP/sol"
done
set -- 5 3 2 5 3 2
for s in 0 1 2 3 4 5; do
    expect_status 0 "2x2 and two 1x1, style $s" -- $SBFS solve -s $s "$T_TMP/two.txt"
    expect_line "solution: $1 moves" "2x2 and two 1x1, style $s" "$T_TMP/out"
    cp "$T_TMP/out" "$T_TMP/sol"
    expect_status 0 "2x2 and two 1x1, style $s: replays" -- "$VERIFY" slide $s "$T_TMP/two.txt" "$T_TMP/sol"
    shift
done

# sbfs explore: the same census (distance lines and the component line),
# on one thread and on two, and in a budget that holds a few levels only
for s in 0 1 2; do
    for j in 1 2; do
        $SBFS explore -s $s -j $j $P/klotski.txt > "$T_TMP/explore"
        grep -E '^(distance|component)' "$T_TMP/explore" > "$T_TMP/census"
        expect_status 0 "explore klotski style $s -j $j agrees with the census" -- \
            cmp "$T_TMP/census" $D/klotski-census$s.out
    done
done
expect_status 0 "explore in 40K" -- $SBFS explore --memory 40K $P/klotski.txt
expect_line "component: 25955 configurations, largest distance 167" "explore in 40K: the component" "$T_TMP/out"
$SBFS explore $P/klotski.txt > "$T_TMP/explore"
expect_line "farthest (4 at distance 167, the first 3 shown):" "explore: the farthest" "$T_TMP/explore"
expect_file $D/silly-explore-s5.json "explore --json -s 5 silly" -- $SBFS explore --json -s 5 $P/silly.txt
# Ctrl-C: status 5, the levels so far, what was stopped
timeout --preserve-status -s INT 0.3 $SBFS explore bench/klotski-distinct.txt > "$T_TMP/out" 2> "$T_TMP/err"
expect_same "$?" 5 "explore interrupted: status 5"
expect_grep "^sbfs: stopped (at|after) distance [0-9]+$" "explore interrupted: message" "$T_TMP/err"
expect_grep "^distance 20: [0-9]+$" "explore interrupted: the levels so far" "$T_TMP/out"
expect_status 2 "explore: unknown option" -- $SBFS explore --frob $P/klotski.txt
expect_status 0 "explore --help" -- $SBFS explore --help
expect_grep "^usage: sbfs explore" "explore --help" "$T_TMP/out"

# stdin, start == stop, no solution
expect_status 0 "solve from stdin" -- sh -c "$SBFS solve -q - < $P/eight-sample.txt"
expect_line "solution: 19 moves" "solve from stdin" "$T_TMP/out"
printf '2 x 2\n1 = 1\n1\n1\n' > "$T_TMP/same.txt"
expect_status 0 "start is stop" -- $SBFS solve "$T_TMP/same.txt"
expect_line "solution: 0 moves" "start is stop" "$T_TMP/out"
expect_status 0 "start is stop, SLIDING form" -- sh -c "$SBFS 0 < $T_TMP/same.txt"
expect_line "You're joking: That puzzle is solved in zero moves!" "zero moves" "$T_TMP/out"
expect_line "solution: 0 moves" "zero moves summary" "$T_TMP/out"
printf '1 x 3\n1 = 1\n2 = 1\n12\n21\n' > "$T_TMP/none.txt"
expect_status 0 "no solution" -- $SBFS solve "$T_TMP/none.txt"
expect_line "no solution: 3 configurations reachable" "no solution" "$T_TMP/out"
expect_status 0 "no solution, SLIDING form" -- sh -c "$SBFS 0 < $T_TMP/none.txt"
expect_line "*** Distance 2:" "no solution, SLIDING form" "$T_TMP/out"
expect_line "no solution: 3 configurations reachable" "no solution, SLIDING form" "$T_TMP/out"
# a board of 256 cells (16 x 16): SLIDING's limit works
{ echo "16 x 16 big"; echo "1 = 11/11"; echo "2 = 1"; printf '12\n'; printf '%0238d12\n' 0; } > "$T_TMP/big.txt"
expect_status 0 "16 x 16 board" -- $SBFS solve -q "$T_TMP/big.txt"
expect_line "solution: 45 moves" "16 x 16 board" "$T_TMP/out"

# input errors: exit status and one-line message naming line and column
err() { # status, message, input (printf format)
    printf "$3" > "$T_TMP/in.txt"
    expect_status "$1" "error $1" -- $SBFS solve "$T_TMP/in.txt"
    expect_line "sbfs: $T_TMP/in.txt:$2" "error $1 message" "$T_TMP/err"
}
err 10 "1:3: the first line must be ROWS x COLS" '5 5 oops\n1 = 1\n1\n1\n'
err 11 "1:1: a 17 x 16 board has more than 256 cells" '17 x 16\n1 = 1\n1\n1\n'
err 12 "2:1: bad piece name 'g': use 1..9 or a..f" '2 x 2\ng = 1\n1\n1\n'
err 13 "2:6: bad character '2' in the pattern of piece 1 (use 0, 1 and /)" '2 x 2\n1 = 12\n1\n1\n'
err 14 "2:5: piece 1 is empty" '2 x 2\n1 = 00/0\n1\n1\n'
err 15 "4:3: piece 1 at row 2 column 1 fills row 2 column 2 twice" '2 x 2\n1 = 11/01\n2 = 1/1\n021\n021\n'
err 16 "3:5: the configuration runs past the end of the 2 x 2 board" '2 x 2\n1 = 1\n00000\n1\n'
err 17 "3:2: illegal character 'z' in a configuration (use 0, x, 1..9, a..f)" '2 x 2\n1 = 1\n0z1\n1\n'
err 18 "3:1: the puzzle has no pieces" '2 x 2\n1 = 1\n000\n1\n'
err 19 "4:1: start holds 1 of piece 1, stop holds 2" '2 x 2\n1 = 1\n1\n11\n'
err 20 "4:1: the stop line is missing" '2 x 2\n1 = 1\n1\n'
err 22 "3:3: piece 5 was never defined" '2 x 2\n1 = 1\n005\n1\n'
# stop-line errors: '.' and '*' out of place, past the end, filled twice,
# more pieces than the start, an x cell in one only, too many stop lines
err 17 "3:1: '.' may appear only in a stop line, not in the start" '2 x 2\n1 = 1\n.1\n1\n'
err 17 "4:1: '*' must be the last character of a stop line" '2 x 2\n1 = 1\n1\n*1\n'
err 17 "5:2: illegal character '?' in a configuration (use 0, x, 1..9, a..f)" '2 x 2\n1 = 1\n1\n.1\n0?\n'
err 16 "5:5: the configuration runs past the end of the 2 x 2 board" '2 x 2\n1 = 1\n1\n....\n.....\n'
err 15 "5:3: piece 1 at row 2 column 1 fills row 2 column 2 twice" '2 x 2\n1 = 11/01\n2 = 1/1\n1\n.21*\n'
err 22 "4:2: piece 5 was never defined" '2 x 2\n1 = 1\n1\n.5\n'
err 19 "5:3: the stop line names more of piece 1 than the 1 the start holds" '2 x 2\n1 = 1\n2 = 1\n12\n.11*\n'
err 19 "5:2: the stop line names piece 2, which the start does not hold" '2 x 2\n1 = 1\n2 = 1\n11\n.2*\n'
err 19 "4:2: row 1 column 2 is x in only one of start and stop" '2 x 2\n1 = 1\n1\n.x*\n'
err 19 "4:1: row 1 column 2 is x in only one of start and stop" '2 x 2\n1 = 1\n1x\n.\n'
err 19 "5:1: start holds 1 of piece 1, stop holds 2" '2 x 2\n1 = 1\n1\n.1*\n11\n'
{ printf '2 x 2\n1 = 1\n1\n'; for i in $(seq 33); do echo '1*'; done; } > "$T_TMP/many.txt"
expect_status 11 "error 11, stop lines" -- $SBFS solve "$T_TMP/many.txt"
expect_line "sbfs: $T_TMP/many.txt:36:1: more than 32 stop lines" "error 11 stop lines message" "$T_TMP/err"
{ printf '2 x 2\n1 = 1\n'; printf '%01100d\n' 0; } > "$T_TMP/long.txt"
expect_status 21 "error 21" -- $SBFS solve "$T_TMP/long.txt"
expect_line "sbfs: $T_TMP/long.txt:3:1023: line longer than 1022 characters" "error 21 message" "$T_TMP/err"
# the same errors through SLIDING's command line
expect_status 15 "SLIDING form error" -- sh -c "printf '2 x 2\n1 = 11/01\n2 = 1/1\n021\n021\n' | $SBFS 0"
expect_line "sbfs: <stdin>:4:3: piece 1 at row 2 column 1 fills row 2 column 2 twice" "SLIDING form message" "$T_TMP/err"
# redefinition: a warning, and the search goes on
printf '2 x 2\n1 = 1\n1 = 11\n1\n01\n' > "$T_TMP/redef.txt"
expect_status 0 "redefinition" -- $SBFS solve -q "$T_TMP/redef.txt"
expect_line "sbfs: $T_TMP/redef.txt:3:1: warning: piece 1 is defined again (line 2); the new definition is ignored" "redefinition warning" "$T_TMP/err"
expect_status 0 "redefinition, SLIDING form" -- sh -c "$SBFS 0 < $T_TMP/redef.txt"
expect_line "Warning: Redefinition of piece 1 is being ignored." "SLIDING's warning" "$T_TMP/out"
expect_status 3 "missing file" -- $SBFS solve "$T_TMP/nope.txt"

# a memory budget too small for two levels: status 4, the levels made so far
expect_status 4 "memory budget" -- $SBFS solve -q --no-bidir --memory 200K $P/eight-judge.txt
expect_grep "^sbfs: memory budget exhausted: 204800 bytes cannot hold distances 16 and 17 " "memory budget message" "$T_TMP/err"
expect_line "distance 16: 4193" "memory budget: the levels so far" "$T_TMP/out"
expect_status 1 "memory budget: no level past the stop" -- grep -q "^distance 18:" "$T_TMP/out"
# a budget too small for every level but enough for two: old levels are
# dropped, and the path is rebuilt from checkpoints: the same output
$SBFS solve --no-bidir $P/eight-judge.txt > "$T_TMP/full"
expect_status 0 "budget with dropped levels" -- $SBFS solve -v --no-bidir --memory 1M $P/eight-judge.txt
cp "$T_TMP/out" "$T_TMP/small"
expect_grep "levels dropped for the budget" "budget: levels were dropped" "$T_TMP/err"
expect_status 0 "budget: same output as without" -- cmp "$T_TMP/full" "$T_TMP/small"
expect_status 0 "budget: the rebuilt path replays" -- "$VERIFY" slide 0 $P/eight-judge.txt "$T_TMP/small"
expect_status 0 "budget, both ways" -- $SBFS solve -v --memory 200K $P/eight-judge.txt
cp "$T_TMP/out" "$T_TMP/small"
expect_grep "levels dropped for the budget" "budget, both ways: levels were dropped" "$T_TMP/err"
expect_status 0 "budget, both ways: the path replays" -- "$VERIFY" slide 0 $P/eight-judge.txt "$T_TMP/small"

# command lines
expect_status 0 "solve --help" -- $SBFS solve --help
expect_grep "^usage: sbfs solve" "solve --help" "$T_TMP/out"
expect_status 2 "bad style" -- $SBFS solve -s 6 $P/silly.txt
expect_status 2 "unknown option" -- $SBFS solve --frobnicate $P/silly.txt
expect_status 2 "SLIDING style out of range" -- sh -c "$SBFS 7 < $P/silly.txt"
expect_line "sbfs: Sorry, the style should be between 0 and 5, not 7!" "style message" "$T_TMP/err"
expect_status 2 "SLIDING usage" -- sh -c "$SBFS 0 zz < $P/silly.txt"
finish
