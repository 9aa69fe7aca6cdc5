# Helpers for CLI tests (sourced by tests/cli/test_*.sh).  $SBFS is the binary
# under test, $VERIFY the independent solution checker, $SBFS_TOP the tree.
# Each check adds to the counts; finish prints "N passed, N failed".
t_pass=0; t_fail=0
T_TMP=$(mktemp -d); trap 'rm -rf "$T_TMP"' EXIT
# caches (pattern databases, quadgram statistics) in the test's own folder
XDG_CACHE_HOME=$T_TMP/cache; export XDG_CACHE_HOME
ok() { t_pass=$((t_pass + 1)); }
bad() { t_fail=$((t_fail + 1)); echo "FAIL: $*" >&2; }

# expect_status WANT DESCRIPTION -- CMD...: the command exits with WANT.
expect_status() {
    want=$1; what=$2; shift 3
    "$@" >"$T_TMP/out" 2>"$T_TMP/err"; got=$?
    if [ "$got" = "$want" ]; then ok; else
        bad "$what: exit $got, want $want"; head -n 5 "$T_TMP/err" >&2; fi
}
# expect_file EXPECTED DESCRIPTION -- CMD...: stdout equals the file.
expect_file() {
    want=$1; what=$2; shift 3
    "$@" >"$T_TMP/out" 2>"$T_TMP/err"
    if cmp -s "$T_TMP/out" "$want"; then ok; else
        bad "$what: output differs from $want"; diff "$want" "$T_TMP/out" | head -n 20 >&2; fi
}
# expect_line TEXT DESCRIPTION FILE: FILE holds the exact line TEXT.
expect_line() {
    if grep -qxF -- "$1" "$3"; then ok; else bad "$2: no line '$1' in output"; fi
}
# expect_grep REGEX DESCRIPTION FILE: some line of FILE matches REGEX.
expect_grep() {
    if grep -qE -- "$1" "$3"; then ok; else bad "$2: nothing matches /$1/"; fi
}
finish() { echo "$t_pass passed, $t_fail failed"; [ "$t_fail" = 0 ]; }
# expect_same GOT WANT DESCRIPTION: two strings are equal.
expect_same() {
    if [ "$1" = "$2" ]; then ok; else bad "$3: '$1' is not '$2'"; fi
}
