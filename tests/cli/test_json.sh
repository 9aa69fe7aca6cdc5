# CLI tests of --json: every command's output validates against the schema
# committed in docs/sbfs-output.schema.json (checked by tests/cli/jsonschema.py,
# a validator of the subset of JSON Schema the schema uses), the validator
# rejects documents that break it, and the JSON says what the text says:
# the same moves as the text output and solve --moves, the same counts.
. tests/cli/lib.sh
S=docs/sbfs-output.schema.json
P=puzzles
J=$T_TMP/json
mkdir -p "$J"

if ! command -v python3 >/dev/null 2>&1; then
    echo "note: python3 not found: the JSON schema checks are skipped (.ci/run installs it)"
    finish
    exit
fi
check() { # FILE DESCRIPTION: the file's documents all validate
    if python3 tests/cli/jsonschema.py $S "$1" >"$T_TMP/v" 2>&1; then ok; else
        bad "$2: $(head -c 600 "$T_TMP/v")"; fi
}
reject() { # DESCRIPTION DOCUMENT: the validator says no
    printf '%s\n' "$2" >"$T_TMP/neg.json"
    if python3 tests/cli/jsonschema.py $S "$T_TMP/neg.json" >/dev/null 2>&1; then
        bad "schema accepts $1"; else ok; fi
}

# every command, its output kept for the checks below
n=0
run() { # DESCRIPTION -- CMD...: stdout to a new file, which must validate
    what=$1; shift 2
    n=$((n + 1))
    "$@" >"$J/$n.json" 2>"$T_TMP/err"; st=$?
    if [ $st = 0 ]; then ok; else bad "$what: exit $st"; head -n 3 "$T_TMP/err" >&2; fi
    check "$J/$n.json" "$what"
}
for s in 0 1 2 3 4 5; do
    run "solve -s $s silly" -- $SBFS solve --json -s $s $P/silly.txt
    run "solve -s $s --no-bidir silly" -- $SBFS solve --json --no-bidir -s $s $P/silly.txt
    run "explore -s $s silly" -- $SBFS explore --json -s $s $P/silly.txt
done
run "solve klotski (a partial goal)" -- $SBFS solve --json $P/klotski.txt
run "show klotski" -- $SBFS show --json $P/klotski.txt
expect_grep '"shorthand": "313323444004"}, "goals": 1, "goal_full": false}' "show klotski: its start" "$J/$n.json"
printf '1 x 3\n1 = 1\n2 = 1\n120\n210\n' >"$T_TMP/nosol.txt"
run "solve, no solution" -- $SBFS solve --json "$T_TMP/nosol.txt"
expect_grep '"length": null' "no solution: length null" "$J/$n.json"
run "god npuzzle 2x2" -- $SBFS god npuzzle 2x2 --json
run "god npuzzle 3x3" -- $SBFS god npuzzle 3x3 --json
expect_grep '"positions": 181440, "largest_distance": 31}' "god npuzzle 3x3 totals" "$J/$n.json"
run "god tetraminx" -- $SBFS god tetraminx --json
expect_grep '"distances": \[1, 8, 48, 288, 1728, 9896, 51808, 220111, 480467, 166276, 2457, 32\]' \
    "god tetraminx counts" "$J/$n.json"
echo "2 3 4 1 5 x 7 6 8" >"$T_TMP/eight"
run "eight" -- $SBFS eight --json "$T_TMP/eight"
expect_grep '"length": 19,' "eight: 19 moves" "$J/$n.json"
echo "1 2 3 4 5 6 8 7 x" >"$T_TMP/eight-no"
run "eight, unsolvable" -- $SBFS eight --json "$T_TMP/eight-no"
printf '8 1 3 4 0 2 7 6 5\n1 2 3 4 5 6 8 7 0\n1 2 3 4 5 6 7 8 0\n' >"$T_TMP/np"
run "npuzzle" -- $SBFS npuzzle --json -j 1 "$T_TMP/np"
expect_same "$(wc -l <"$J/$n.json" | tr -d ' ')" 3 "npuzzle: one line per instance"
npj=$n
printf "R U R' L' U R\nU\nFFFFFFDDDDDDLLLLLLRRRRRRDRLF\n" >"$T_TMP/tet"
run "tetraminx solve" -- $SBFS tetraminx solve --json "$T_TMP/tet"
tetj=$n
run "tetraminx random" -- $SBFS tetraminx random 5 --seed 1 --json
run "tetraminx random --scramble" -- $SBFS tetraminx random 5 --seed 1 --scramble --json
PF=tests/cli/playfair
run "playfair encrypt" -- $SBFS playfair encrypt -k CRYPTOGRAM --json --show-square $PF/plain.txt
run "playfair decrypt" -- $SBFS playfair decrypt -k CRYPTOGRAM --json $PF/cipher.txt
run "playfair crack" -- $SBFS playfair crack -d $PF/words.txt --json --show-square $PF/cipher.txt
echo "AB CD EF GH IK" >>"$T_TMP/pf"
$SBFS playfair crack -d $PF/words.txt --json "$T_TMP/pf" >"$J/unsolved.json" 2>/dev/null
check "$J/unsolved.json" "playfair crack, unsolved"
expect_grep '"solved": false' "playfair crack: unsolved said" "$J/unsolved.json"
run "playfair random" -- $SBFS playfair random -d $PF/words.txt -n 4 --json
tr -cd 'A-Za-z' <$PF/story.txt | cut -c1-300 >"$T_TMP/story"
$SBFS playfair encrypt -K "MONAR CHYBD EFGIK LPQST UVWXZ" "$T_TMP/story" >"$T_TMP/story.ct"
run "playfair anneal" -- $SBFS playfair anneal --corpus $PF/story.txt --seed 1 --restarts 4 --json "$T_TMP/story.ct"

# the JSON and the text agree: moves, counts
for s in 0 2 5; do
    $SBFS solve -s $s $P/silly.txt >"$T_TMP/text"
    expect_status 0 "style $s: the text solution replays" -- "$VERIFY" slide $s $P/silly.txt "$T_TMP/text"
    sed -n 's/^move [0-9]*: //p' "$T_TMP/text" >"$T_TMP/text-moves"
    $SBFS solve -s $s --moves $P/silly.txt >"$T_TMP/moves"
    $SBFS solve -s $s --json $P/silly.txt | grep -o '"text": "[^"]*"' | cut -d'"' -f4 >"$T_TMP/json-moves"
    expect_status 0 "style $s: --moves is the text's move list" -- cmp "$T_TMP/text-moves" "$T_TMP/moves"
    expect_status 0 "style $s: the JSON moves are the text's" -- cmp "$T_TMP/text-moves" "$T_TMP/json-moves"
done
expect_same "$(cat "$T_TMP/moves" | wc -l | tr -d ' ')" 2 "style 5 --moves: two lines"
expect_same "$($SBFS solve --moves "$T_TMP/nosol.txt" 2>/dev/null | wc -c | tr -d ' ')" 0 "--moves, no solution: nothing"
# a move of several blocks lists them all, each with where it ends
expect_grep '"pieces": \[\{"piece": "3", "from": \[5, 1\], "to": \[2, 4\]\}, \{"piece": "3", "from": \[5, 2\], "to": \[2, 5\]\}\]' \
    "style 5: both blocks of the first move" "$J/16.json"
expect_grep '"direction": "path", "steps": \["right", "right", "right", "up", "up", "up"\]' \
    "style 5: the steps of a turning path" "$J/16.json"
$SBFS npuzzle -j 1 "$T_TMP/np" 2>/dev/null >"$T_TMP/np-out"
expect_status 0 "npuzzle: the text answers replay" -- "$VERIFY" npuzzle "$T_TMP/np" "$T_TMP/np-out"
cut -f2 "$T_TMP/np-out" >"$T_TMP/np-text"
grep -o '"moves": \[.*' "$J/$npj.json" | grep -o '"text": "[a-z]"' | cut -d'"' -f4 | tr -d '\n' >"$T_TMP/np-json"
expect_same "$(cat "$T_TMP/np-json")" "$(head -n 1 "$T_TMP/np-text")" "npuzzle: the JSON moves are the text's"
expect_grep '"piece": "2", "from": \[2, 3\], "to": \[2, 2\], "direction": "left"' "npuzzle: the first move's tile" "$J/$npj.json"
$SBFS tetraminx solve "$T_TMP/tet" >"$T_TMP/tet-text"
expect_status 0 "tetraminx: the text answers replay" -- "$VERIFY" tetraminx "$T_TMP/tet" "$T_TMP/tet-text"
for l in 1 2 3; do
    sed -n "${l}p" "$J/$tetj.json" | grep -o '"text": "[^"]*"' | cut -d'"' -f4 | tr '\n' ' ' | sed 's/ $//' >"$T_TMP/tl"
    expect_same "$(cat "$T_TMP/tl")" "$(sed -n "${l}p" "$T_TMP/tet-text")" "tetraminx line $l: the JSON moves are the text's"
done
expect_grep '"line": 2, "facelets": "RRFFFRDDDDDDLFFFLLLLRRRLDRLF", "length": 1, "moves": \[\{"text": "U'"'"'", "piece": "U", "direction": "counterclockwise"\}\]' \
    "tetraminx: U is undone by U'" "$J/$tetj.json"

# the validator can fail: documents that break the schema
reject "a missing key" '{"command": "god", "puzzle": "tetraminx", "distances": [1]}'
reject "a string for a count" '{"command": "god", "puzzle": "tetraminx", "distances": ["1"], "complete": true}'
reject "true for a number" '{"command": "god", "puzzle": "tetraminx", "distances": [true], "complete": true}'
reject "an unknown key" '{"command": "god", "puzzle": "tetraminx", "distances": [1], "complete": true, "x": 1}'
reject "an unknown command" '{"command": "frob"}'
reject "a repeated key" '{"command": "god", "command": "god", "puzzle": "tetraminx", "distances": [1], "complete": true}'
reject "a bad direction" '{"command": "eight", "tiles": [1,2,3,4,5,6,7,0,8], "solvable": true, "length": 1, "moves": [{"text": "r", "piece": "8", "from": [3, 3], "to": [3, 2], "direction": "west", "steps": ["left"]}]}'
reject "a cell from 0" '{"command": "eight", "tiles": [1,2,3,4,5,6,7,0,8], "solvable": true, "length": 1, "moves": [{"text": "r", "piece": "8", "from": [0, 3], "to": [3, 2], "direction": "left", "steps": ["left"]}]}'
reject "bad facelets" '{"command": "tetraminx random", "facelets": "FFFFFFDDDDDDLLLLLLRRRRRRFFFF"}'
reject "not JSON" '{"command": "god",'
printf '{"command": "god", "puzzle": "npuzzle 2x2", "distances": [1], "complete": false}\n' >"$T_TMP/pos.json"
expect_status 0 "the validator accepts a good document" -- python3 tests/cli/jsonschema.py $S "$T_TMP/pos.json"
finish
