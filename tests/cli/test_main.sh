# The sbfs front end itself: help, version, unknown commands.
. tests/cli/lib.sh

expect_status 0 "--help" -- "$SBFS" --help
expect_grep '^usage: sbfs COMMAND' "--help text" "$T_TMP/out"
for c in solve explore god eight npuzzle tetraminx playfair; do
    expect_grep "^  $c " "--help lists $c" "$T_TMP/out"
done
expect_status 0 "--version" -- "$SBFS" --version
expect_grep '^sbfs [0-9]+\.[0-9]+\.[0-9]+$' "--version text" "$T_TMP/out"
expect_status 2 "no arguments" -- "$SBFS"
expect_status 2 "unknown command" -- "$SBFS" frobnicate
expect_line "sbfs: unknown command 'frobnicate' (try 'sbfs --help')" "unknown command message" "$T_TMP/err"
finish
