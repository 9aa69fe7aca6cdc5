# The programs of examples/, built against the library by make test: their
# exact output, every solution they print replayed by the independent
# checkers, and a bad puzzle reported by line and column.
. tests/cli/lib.sh
X=$SBFS_BUILD/examples
D=tests/cli/examples

expect_file $D/silly-s5.out "slide_solve silly, style 5" -- "$X/slide_solve" puzzles/silly.txt 5
expect_status 0 "its moves replay" -- "$VERIFY" slide 5 puzzles/silly.txt $D/silly-s5.out
expect_file $D/rush-hour-s1.out "slide_solve Rush Hour, style 1" -- "$X/slide_solve" puzzles/rush-hour.txt 1
expect_line "solution: 51 moves" "the hardest Rush Hour position" $D/rush-hour-s1.out
expect_status 0 "its moves replay" -- "$VERIFY" slide 1 puzzles/rush-hour.txt $D/rush-hour-s1.out
"$X/slide_solve" puzzles/klotski.txt 2 > "$T_TMP/k2"
expect_line "solution: 81 moves" "Klotski in style 2" "$T_TMP/k2"
expect_status 0 "its moves replay" -- "$VERIFY" slide 2 puzzles/klotski.txt "$T_TMP/k2"
# a grid picture reads as its SLIDING form does
$SBFS convert puzzles/klotski.txt > "$T_TMP/grid.txt"
"$X/slide_solve" "$T_TMP/grid.txt" 2 > "$T_TMP/g2"
expect_line "solution: 81 moves" "Klotski as a grid" "$T_TMP/g2"
expect_status 1 "a bad puzzle" -- "$X/slide_solve" $D/bad.txt
expect_line "$D/bad.txt:3:2: illegal character 'z' in a configuration (use 0, x, 1..9, a..f)" \
    "the bad puzzle's message" "$T_TMP/err"

expect_file $D/tiles.out "tiles" -- "$X/tiles" < $D/tiles.in
expect_status 0 "its answers replay" -- "$VERIFY" npuzzle $D/tiles.in $D/tiles.out

expect_file $D/tetraminx.out "tetraminx" -- "$X/tetraminx" < $D/tetraminx.in
expect_status 0 "its answers replay" -- "$VERIFY" tetraminx $D/tetraminx.in $D/tetraminx.out

expect_file $D/playfair.out "playfair (C++)" -- "$X/playfair" tests/cli/playfair/words.txt < $D/cipher.txt
grep -v '	-	-$' $D/playfair.out > "$T_TMP/found"
expect_status 0 "its answers replay" -- "$VERIFY" playfair tests/cli/playfair/words.txt < "$T_TMP/found"
expect_line "5 verified, 0 unsolved" "every answer checked" "$T_TMP/out"
finish
