#!/bin/sh
# Options the GNU way, the same in every command: --opt=value and
# --opt value, -j2 and -j 2, bundled flags (-qv), -- before an operand that
# looks like an option, one usage message per mistake, and a --help that
# lists each command's options, every one of which the parser takes.
. tests/cli/lib.sh
P=puzzles
T=tests/cli/tetraminx

# --- every form gives what the plain form gives
$SBFS solve -q --no-bidir -s 1 --memory 1M $P/silly.txt >"$T_TMP/plain"
expect_file "$T_TMP/plain" "solve --memory=1M" -- $SBFS solve -q --no-bidir -s 1 --memory=1M $P/silly.txt
expect_file "$T_TMP/plain" "solve -s1 -j2" -- $SBFS solve -q --no-bidir -s1 -j2 --memory 1M $P/silly.txt
expect_file "$T_TMP/plain" "solve --style=1 --threads=2" -- $SBFS solve --quiet --no-bidir --style=1 --threads=2 --memory 1M $P/silly.txt
expect_file "$T_TMP/plain" "solve -qs1 (a value at the end of a bundle)" -- $SBFS solve --no-bidir -qs1 --memory 1M $P/silly.txt
expect_file "$T_TMP/plain" "solve -qs 1" -- $SBFS solve --no-bidir -qs 1 --memory 1M $P/silly.txt
expect_file "$T_TMP/plain" "solve: the file first" -- $SBFS solve $P/silly.txt -q --no-bidir -s 1
expect_file "$T_TMP/plain" "solve: - for stdin" -- sh -c "$SBFS solve -q --no-bidir -s 1 - < $P/silly.txt"
# -qv = -q -v: the same stdout, the figures on stderr
expect_file "$T_TMP/plain" "solve -qv" -- $SBFS solve -qv --no-bidir -s 1 $P/silly.txt
expect_grep "^sbfs: style 1, " "solve -qv: figures" "$T_TMP/err"
expect_file "$T_TMP/plain" "solve -vq" -- $SBFS solve -vq --no-bidir -s 1 $P/silly.txt
expect_grep "^sbfs: style 1, " "solve -vq: figures" "$T_TMP/err"
# explore: -q leaves out the farthest boards, nothing else
$SBFS explore $P/silly.txt | grep -E '^(distance|component)' >"$T_TMP/census"
expect_file "$T_TMP/census" "explore -q" -- $SBFS explore -qj1 $P/silly.txt
# the thread count, every spelling
$SBFS god npuzzle 2x3 >"$T_TMP/god"
for j in "-j2" "-j 2" "--threads=2" "--threads 2"; do
    # shellcheck disable=SC2086
    expect_file "$T_TMP/god" "god npuzzle $j" -- $SBFS god npuzzle 2x3 $j
done
printf '1 2 3 4 5 6 7 0 8\n' >"$T_TMP/np.in"
printf '1\tr\n' >"$T_TMP/np.want"
for j in "-j2" "--threads=2" "--jobs 2" "--jobs=2"; do
    # shellcheck disable=SC2086
    expect_file "$T_TMP/np.want" "npuzzle $j" -- $SBFS npuzzle $j "$T_TMP/np.in"
done
expect_file "$T_TMP/np.want" "npuzzle --goal=blank-last --size=3x3 --memory=64M" -- \
    $SBFS npuzzle --goal=blank-last --size=3x3 --memory=64M "$T_TMP/np.in"
$SBFS tetraminx random 5 --seed 7 >"$T_TMP/tr"
expect_file "$T_TMP/tr" "tetraminx random --seed=7" -- $SBFS tetraminx random --seed=7 5
expect_file $T/god.out "god tetraminx -j2 --memory=1M" -- $SBFS god tetraminx -j2 --memory=1M

# --- -- ends the options: a file named like one
cp $P/silly.txt "$T_TMP/-q"
(cd "$T_TMP" && $SBFS solve -q --no-bidir -s 1 -- -q) >"$T_TMP/dash" 2>&1
expect_same "$(cat "$T_TMP/dash")" "$(cat "$T_TMP/plain")" "solve -- -q"
printf 'R U\n' >"$T_TMP/-v"
(cd "$T_TMP" && $SBFS tetraminx solve -v -- -v) >"$T_TMP/dash" 2>&1
expect_same "$(cat "$T_TMP/dash")" "2: U' R'" "tetraminx solve -v -- -v"
mkdir "$T_TMP/none"
(cd "$T_TMP/none" && $SBFS solve -q -- -v) >/dev/null 2>"$T_TMP/err"
expect_line "sbfs: -v: No such file or directory" "solve -- -v: a file, not an option" "$T_TMP/err"

# --- one message a mistake, naming the option, the hint once
usage() { # MESSAGE CMD...: status 2 and exactly this one line on stderr
    u_msg=$1; shift
    expect_status 2 "$*" -- "$@"
    expect_same "$(cat "$T_TMP/err")" "sbfs: $u_msg" "$*: message"
}
usage "solve: unknown option '--frob' (try 'sbfs solve --help')" $SBFS solve --frob
usage "solve: unknown option '-z' (try 'sbfs solve --help')" $SBFS solve -qz $P/silly.txt
usage "solve: unknown option '--frob' (try 'sbfs solve --help')" $SBFS solve --frob=1
usage "explore: unknown option '-x' (try 'sbfs explore --help')" $SBFS explore -x
usage "npuzzle: unknown option '--frob' (try 'sbfs npuzzle --help')" $SBFS npuzzle --frob
usage "eight: unknown option '-q' (try 'sbfs eight --help')" $SBFS eight -q
usage "god npuzzle: unknown option '--fast' (try 'sbfs god npuzzle --help')" $SBFS god npuzzle 3x3 --fast
usage "tetraminx solve: unknown option '--bogus' (try 'sbfs tetraminx solve --help')" $SBFS tetraminx solve --bogus
usage "tetraminx random: unknown option '-q' (try 'sbfs tetraminx random --help')" $SBFS tetraminx random 3 -q
usage "solve: option '--memory' needs a value (SIZE) (try 'sbfs solve --help')" $SBFS solve --memory
usage "solve: option '-s' needs a value (STYLE) (try 'sbfs solve --help')" $SBFS solve -qs
usage "god npuzzle: option '-j' needs a value (N) (try 'sbfs god npuzzle --help')" $SBFS god npuzzle 3x3 -j
usage "npuzzle: option '--goal' needs a value (GOAL) (try 'sbfs npuzzle --help')" $SBFS npuzzle --goal
usage "tetraminx random: option '--seed' needs a value (S) (try 'sbfs tetraminx random --help')" $SBFS tetraminx random 3 --seed
usage "solve: option '--json' takes no value (try 'sbfs solve --help')" $SBFS solve --json=yes
usage "solve: -j wants a number from 1 to 64, not '0' (try 'sbfs solve --help')" $SBFS solve -j0
usage "solve: --threads wants a number from 1 to 64, not '2x' (try 'sbfs solve --help')" $SBFS solve --threads=2x
usage "npuzzle: --jobs wants a number from 1 to 64, not '65' (try 'sbfs npuzzle --help')" $SBFS npuzzle --jobs 65
usage "solve: -s wants a number from 0 to 5, not '6' (try 'sbfs solve --help')" $SBFS solve -s6
usage "solve: unexpected argument 'b' (try 'sbfs solve --help')" $SBFS solve a b
usage "god tetraminx: unexpected argument 'x' (try 'sbfs god tetraminx --help')" $SBFS god tetraminx x
# SLIDING's own form is as SLIDING has it
expect_status 2 "sbfs 0 -q" -- sh -c "$SBFS 0 -q < $P/silly.txt"
expect_line "Usage: sbfs style [verbose]" "sbfs 0 -q: SLIDING's usage line" "$T_TMP/err"

# --- -V and --version
expect_status 0 "-V" -- $SBFS -V
expect_grep '^sbfs [0-9]+\.[0-9]+\.[0-9]+$' "-V text" "$T_TMP/out"
cp "$T_TMP/out" "$T_TMP/V"
expect_file "$T_TMP/V" "--version" -- $SBFS --version

# --- each command's help lists its options (the table's, in order), and
# the parser takes every one of them: a sample of each, then --help
listed() { # the options of a help text, one a line: "-j --threads", "--json"
    sed -nE 's/^  (-[A-Za-z]), (--[a-z-]+).*/\1 \2/p; s/^      (--[a-z-]+).*/\1/p; s/^  (-[A-Za-z])( .*)?$/\1/p' "$1"
}
helps() { # COMMAND(S) -- WANT-LINES -- SAMPLE ARGUMENTS
    cmd=""
    while [ "$1" != -- ]; do cmd="$cmd $1"; shift; done
    shift; h_want=$1; shift 2
    # shellcheck disable=SC2086
    expect_status 0 "$cmd --help" -- $SBFS $cmd --help
    listed "$T_TMP/out" >"$T_TMP/listed"
    expect_same "$(cat "$T_TMP/listed")" "$h_want" "$cmd --help: the options of its table"
    expect_grep "^usage: sbfs$cmd " "$cmd --help: usage line" "$T_TMP/out"
    cp "$T_TMP/out" "$T_TMP/help"
    # shellcheck disable=SC2086
    expect_file "$T_TMP/help" "$cmd: every option parses" -- $SBFS $cmd "$@" --help
}
helps solve -- "-s --style
-j --threads
-q --quiet
-v --verbose
--json
--moves
--html
--svg
--no-bidir
--memory
--disk
--disk-limit
--spill
--checkpoint
--resume
--format
--progress
--no-progress
-h --help" -- -s1 --style=2 -j1 --threads 2 -q --quiet -v --verbose --json --moves --html x --svg=x --no-bidir \
    --memory 1M --disk /tmp --disk-limit 1G --spill /tmp --format auto --progress --no-progress
helps show -- "--html
--svg
--json
-h --help" -- --html x --svg=x --json
helps explore -- "-s --style
-j --threads
-q --quiet
-v --verbose
--json
--memory
--disk
--disk-limit
--spill
--checkpoint
--resume
--format
--progress
--no-progress
-h --help" -- -s1 --style=2 -j1 --threads 2 -q --quiet -v --verbose --json --memory 1M --disk /tmp --disk-limit 1G --spill=/tmp --format=sliding --progress --no-progress --no-bidir
helps convert -- "--format
--to
-h --help" -- --format grid --to sliding
helps god npuzzle -- "--save
--load
--memory
-j --threads
--disk
--disk-limit
--no-disk
--checkpoint
--resume
--bits
--progress
--no-progress
--json
-v --verbose
-h --help" -- --save=x --load x --memory 1M -j1 --threads=2 --disk /tmp --disk-limit 1G --no-disk \
    --checkpoint x --resume=x --bits 4 --progress --no-progress --json -v
helps god tetraminx -- "--save
--load
--memory
-j --threads
--progress
--no-progress
--disk
--disk-limit
--no-disk
--checkpoint
--resume
--json
-h --help" -- --save=x --load x --memory 1M -j1 --threads=2 --progress --no-progress --disk /tmp --disk-limit 1G \
    --no-disk --checkpoint x --resume=x --json
helps tetraminx solve -- "-v --verbose
--stats
--load
--memory
-j --threads
--progress
--no-progress
--json
--html
-h --help" -- -v --verbose --stats --load x --memory=1M -j1 --threads 2 --progress --no-progress --json --html x
helps tetraminx random -- "--seed
--scramble
--load
--memory
-j --threads
--progress
--no-progress
--json
-h --help" -- --seed=1 --scramble --load x --memory=1M -j1 --threads 2 --progress --no-progress --json
helps npuzzle -- "-g --goal
-s --size
-j --threads
-v --verbose
--pdb
--pdb-dir
--no-cache
--verify-cache
--memory
--progress
--no-progress
--json
--html
-h --help" -- -g blank-first --goal=blank-last -s3x3 --size 3x3 -j1 --threads=2 --jobs 2 -v --verbose \
    --pdb 78 --pdb-dir x --no-cache --memory 1M --progress --no-progress --json --html x
helps eight -- "--json
-h --help" -- --json
# -h as well as --help, also inside a bundle
expect_status 0 "solve -h" -- $SBFS solve -h
expect_grep "^usage: sbfs solve " "solve -h" "$T_TMP/out"
expect_status 0 "solve -qh" -- $SBFS solve -qh
expect_grep "^usage: sbfs solve " "solve -qh" "$T_TMP/out"
finish
