#!/bin/sh
# Messages say what the input said: numbers as written, NUL bytes as \0;
# one usage hint; no terminal escapes where there is no terminal; no
# "-1 moves"; and parity decided before any pattern database is built.
. tests/cli/lib.sh
ESC=$(printf '\033')
CR=$(printf '\r')

# numbers quoted as given, never clamped
printf '99999999999999999999 x 4 big\n1 = 1\n1\n1*\n' >"$T_TMP/big.txt"
expect_status 11 "huge board" -- "$SBFS" solve "$T_TMP/big.txt"
expect_line "sbfs: $T_TMP/big.txt:1:1: a 99999999999999999999 x 4 board has more than 256 cells" \
    "huge board: the number as written" "$T_TMP/err"
printf '1 2 3 4 5 6 7 8 123456789012\n' >"$T_TMP/tile.in"
expect_status 6 "huge tile" -- "$SBFS" npuzzle "$T_TMP/tile.in"
expect_line "sbfs: $T_TMP/tile.in:1:17: tile 123456789012 is out of range for a 3x3 board (1..8)" \
    "huge tile: the number as written" "$T_TMP/err"

# NUL bytes shown as \0
printf '2 x 2\n1 = 1\n1\0000\n1*\n' >"$T_TMP/nul1.txt"
expect_status 17 "NUL in a configuration" -- "$SBFS" solve "$T_TMP/nul1.txt"
expect_line "sbfs: $T_TMP/nul1.txt:3:2: illegal character '\\0' in a configuration (use 0, x, 1..9, a..f)" \
    "NUL in a configuration: message" "$T_TMP/err"
printf '2 x 2\n\000 = 1\n10\n1*\n' >"$T_TMP/nul2.txt"
expect_status 12 "NUL as a piece name" -- "$SBFS" solve "$T_TMP/nul2.txt"
expect_line "sbfs: $T_TMP/nul2.txt:2:1: bad piece name '\\0': use 1..9 or a..f" \
    "NUL as a piece name: message" "$T_TMP/err"
printf '2 x 2\n1 = 1\0001\n10\n1*\n' >"$T_TMP/nul3.txt"
expect_status 13 "NUL in a pattern" -- "$SBFS" solve "$T_TMP/nul3.txt"
expect_line "sbfs: $T_TMP/nul3.txt:2:6: bad character '\\0' in the pattern of piece 1 (use 0, 1 and /)" \
    "NUL in a pattern: message" "$T_TMP/err"
printf '1 2\0003 4 5 6 7 8 0\n' >"$T_TMP/nul.in"
expect_status 6 "NUL in an npuzzle line" -- "$SBFS" npuzzle "$T_TMP/nul.in"
expect_line "sbfs: $T_TMP/nul.in:1:3: '2\\03' is not a tile (numbers, 0 or x for the blank)" \
    "NUL in an npuzzle line: message" "$T_TMP/err"
printf '\000 1 2 3 4 5 6 7 8\n' >"$T_TMP/nul0.in"
expect_status 6 "NUL first on an npuzzle line (not a blank line)" -- "$SBFS" npuzzle "$T_TMP/nul0.in"
expect_line "sbfs: $T_TMP/nul0.in:1:1: '\\0' is not a tile (numbers, 0 or x for the blank)" \
    "NUL first on an npuzzle line: message" "$T_TMP/err"
printf '1 2 3\n4 5 \0006\n7 8 x\n' >"$T_TMP/nul.eight"
expect_status 6 "NUL in eight's input" -- "$SBFS" eight "$T_TMP/nul.eight"
expect_line "sbfs: $T_TMP/nul.eight:2:5: '\\06' is not a tile of the 8-puzzle (1..8 or x)" \
    "NUL in eight's input: message" "$T_TMP/err"
printf 'U\000\n' >"$T_TMP/nul.tet"
expect_status 6 "NUL in a scramble" -- "$SBFS" tetraminx solve "$T_TMP/nul.tet"
expect_line "sbfs: $T_TMP/nul.tet:1:2: '\\0' cannot be part of a move (moves are U U' L L' R R' B B')" \
    "NUL in a scramble: message" "$T_TMP/err"

# the usage hint, once
expect_status 2 "solve: unknown option" -- "$SBFS" solve --frob
expect_line "sbfs: solve: unknown option '--frob' (try 'sbfs solve --help')" \
    "solve: one hint" "$T_TMP/err"
expect_status 2 "explore: unknown option" -- "$SBFS" explore --frob
expect_line "sbfs: explore: unknown option '--frob' (try 'sbfs explore --help')" \
    "explore: one hint" "$T_TMP/err"
for c in "solve --frob" "god cube" "npuzzle --frob" "tetraminx frob" "playfair frob" "frob"; do
    # shellcheck disable=SC2086
    "$SBFS" $c >/dev/null 2>"$T_TMP/err"
    n=$(grep -o "(try 'sbfs" "$T_TMP/err" | wc -l)
    expect_same "$n" 1 "'sbfs $c': usage hints"
done

# no terminal escapes when stderr is no terminal: the notes of a pattern
# database build, and a progress line asked for with --progress
head -n 1 tests/cli/npuzzle/board2x5.in >"$T_TMP/b25.in"
expect_status 0 "npuzzle building a database" -- "$SBFS" npuzzle -s 2x5 --pdb-dir "$T_TMP/pdb" "$T_TMP/b25.in"
expect_grep "^sbfs: building pattern database npuzzle-2x5-" "npuzzle: build note" "$T_TMP/err"
grep -q "[$ESC$CR]" "$T_TMP/err" && bad "npuzzle: escapes on stderr" || ok
timeout -k 5 --preserve-status -s INT 2.5 "$SBFS" god npuzzle 3x4 -j 1 --memory 128M --progress \
    >/dev/null 2>"$T_TMP/err"
expect_grep "depth [0-9]+: " "god --progress: progress lines" "$T_TMP/err"
grep -q "[$ESC$CR]" "$T_TMP/err" && bad "god --progress: escapes on stderr" || ok

# an unsolvable instance: no "-1 moves" anywhere
printf '2 1 3 4 5 6 7 8 0\n' >"$T_TMP/u.in"
expect_status 0 "npuzzle unsolvable" -- "$SBFS" npuzzle "$T_TMP/u.in"
expect_line "unsolvable" "npuzzle unsolvable: answer" "$T_TMP/out"
expect_line "# 1: line 1, unsolvable" "npuzzle unsolvable: statistics" "$T_TMP/err"
grep -q -- "-1 moves" "$T_TMP/err" && bad "npuzzle unsolvable: -1 moves" || ok
expect_status 0 "npuzzle -v unsolvable" -- "$SBFS" npuzzle -v "$T_TMP/u.in"
expect_line "# 1: line 1, unsolvable" "npuzzle -v unsolvable: statistics" "$T_TMP/out"
grep -q -- "-1 moves" "$T_TMP/out" && bad "npuzzle -v unsolvable: -1 moves" || ok
printf '2 1 3\n4 5 6\n7 8 x\n' >"$T_TMP/u.eight"
expect_file /dev/stdin "eight unsolvable" -- "$SBFS" eight "$T_TMP/u.eight" <<EOF
unsolvable
EOF

# parity before pattern databases: an unsolvable 4x4 builds none (here the
# 1 MB budget could not even hold them)
printf '2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n' >"$T_TMP/u16.in"
expect_status 0 "unsolvable 4x4 in 1M" -- "$SBFS" npuzzle --memory 1M --pdb-dir "$T_TMP/pdb16" "$T_TMP/u16.in"
expect_line "unsolvable" "unsolvable 4x4: answer" "$T_TMP/out"
grep -q "pattern database" "$T_TMP/err" && bad "unsolvable 4x4: a database was built" || ok
[ -n "$(ls "$T_TMP/pdb16" 2>/dev/null)" ] && bad "unsolvable 4x4: files in the cache" || ok
finish
