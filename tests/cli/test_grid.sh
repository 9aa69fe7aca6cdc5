# Grids: every bundled puzzle, converted to a grid, gives the same level
# counts and solution lengths as its SLIDING form in every style; grid
# solutions replay (against the grid converted back); convert round-trips
# exactly; a bad grid is an error naming file, line and column.
. tests/cli/lib.sh
P=puzzles
for p in silly shift klotski eight-sample; do
    $SBFS convert $P/$p.txt > "$T_TMP/$p.grid"
    $SBFS convert "$T_TMP/$p.grid" > "$T_TMP/$p.sl"
    expect_file "$T_TMP/$p.grid" "$p: grid -> sliding -> grid exact" -- $SBFS convert "$T_TMP/$p.sl"
    expect_file "$T_TMP/$p.sl" "$p: sliding -> grid -> sliding exact" -- $SBFS convert --to sliding "$T_TMP/$p.grid"
    for s in 0 1 2 3 4 5; do
        [ $p = eight-sample ] && [ $s -gt 2 ] && continue
        $SBFS solve -q --no-bidir -s $s $P/$p.txt > "$T_TMP/a"
        expect_file "$T_TMP/a" "$p style $s: grid and SLIDING forms alike" -- $SBFS solve -q --no-bidir -s $s "$T_TMP/$p.grid"
        $SBFS solve -s $s "$T_TMP/$p.grid" > "$T_TMP/sol"
        expect_status 0 "$p style $s: the grid's solution verifies" -- "$VERIFY" slide $s "$T_TMP/$p.sl" "$T_TMP/sol"
    done
done
# the format given by hand
expect_status 0 "--format grid" -- $SBFS explore -q --format grid "$T_TMP/silly.grid"
expect_status 10 "--format sliding on a grid" -- $SBFS explore --format sliding "$T_TMP/silly.grid"
# standard input, and SLIDING's own command line, read grids too
expect_status 0 "a grid on stdin" -- sh -c "$SBFS solve -q - < $T_TMP/klotski.grid"
expect_status 0 "sbfs 1 < grid" -- sh -c "$SBFS 1 < $T_TMP/silly.grid"
# errors name the line and column
printf 'grid\nAB\nA!\ngoal:\n??\n' > "$T_TMP/bad.grid"
expect_status 17 "bad character" -- $SBFS solve "$T_TMP/bad.grid"
expect_line "sbfs: $T_TMP/bad.grid:3:2: illegal character '!' in a picture (use letters, digits, ., # or x)" "bad character message" "$T_TMP/err"
printf 'grid\nAAB\ngoal:\nA??\n' > "$T_TMP/bad2.grid"
expect_status 19 "shape in the goal" -- $SBFS convert "$T_TMP/bad2.grid"
expect_line "sbfs: $T_TMP/bad2.grid:4:1: A has another shape here than in the start" "shape message" "$T_TMP/err"
expect_status 2 "--to frob" -- $SBFS convert --to frob "$T_TMP/silly.grid"
finish
