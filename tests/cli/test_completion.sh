# The shell completions (completions/sbfs.bash, completions/_sbfs) know
# every command and every option that the commands' --help lists: option
# by option, per command, in both; and bash completes as it should.
. tests/cli/lib.sh
B=completions/sbfs.bash
Z=completions/_sbfs

# options a --help lists: -x and --name words at the start of its lines
help_opts() {
    $SBFS $1 --help 2>&1 | grep -oE '^ +(-[a-zA-Z0-9], )?--[a-z0-9-]+' | tr -d ',' | tr ' ' '\n' | grep . | sort -u
}
# the same command's list in the zsh file: from "CMD) opts=(" to ")"
zsh_opts() {
    awk -v c="$1" 'index($0, c ") opts=(") || index($0, "\"" c "\"") && index($0, "opts=(") {on = 1}
        on {print; if (index($0, ")") && !index($0, "opts=(") || index($0, ") ;;") > index($0, "opts=(")) on = 0}' $Z |
        sed 's/.*opts=(//; s/) ;;.*//' | tr ' ' '\n' | grep '^-' | sort -u
}

for c in solve show explore convert verify eight npuzzle "god npuzzle" "god tetraminx" "tetraminx solve" \
         "tetraminx random" "playfair encrypt" "playfair decrypt" "playfair crack" "playfair anneal" \
         "playfair random"; do
    help_opts "$c" > "$T_TMP/help"
    expect_grep '^--help$' "$c --help lists options" "$T_TMP/help"
    bash -c ". $B; _sbfs_opts '$c'" | tr ' ' '\n' | grep . | sort -u > "$T_TMP/bash"
    missing=$(comm -23 "$T_TMP/help" "$T_TMP/bash" | tr '\n' ' ')
    expect_same "$missing" "" "bash: options of $c missing"
    { zsh_opts "$c"; echo -h; echo --help; } | sort -u > "$T_TMP/zsh"
    missing=$(comm -23 "$T_TMP/help" "$T_TMP/zsh" | tr '\n' ' ')
    expect_same "$missing" "" "zsh: options of $c missing"
done

# every command of sbfs --help, in both
$SBFS --help | awk '/^commands:/{on = 1; next} on && /^  [a-z]/{print $1} /^$/{on = 0}' > "$T_TMP/cmds"
expect_same "$(wc -l < "$T_TMP/cmds" | tr -d ' ')" 10 "commands listed"
for c in $(cat "$T_TMP/cmds"); do
    expect_grep "compgen -W \"([a-z]+ )*$c( |\$)" "bash: command $c" $B
    expect_grep "compadd -- ([a-z]+ )*$c( |\$)" "zsh: command $c" $Z
done

# bash, as a user at the keyboard: COMP_WORDS in, COMPREPLY out
complete_words() {
    bash -c ". $B; COMP_WORDS=($1); COMP_CWORD=$2; _sbfs; echo \"\${COMPREPLY[*]}\""
}
expect_same "$(complete_words 'sbfs ver' 1)" "verify" "bash: a command"
expect_same "$(complete_words 'sbfs solve --st' 2)" "--style" "bash: an option"
expect_same "$(complete_words 'sbfs solve --format ""' 3)" "auto sliding grid rush" "bash: --format values"
expect_same "$(complete_words 'sbfs playfair cr' 2)" "crack" "bash: a subcommand"
expect_same "$(complete_words 'sbfs playfair crack --dic' 3)" "--dictionary" "bash: a subcommand option"
expect_same "$(complete_words 'sbfs verify -s ""' 3)" "0 1 2 3 4 5" "bash: styles"
expect_same "$(complete_words 'sbfs verify tet' 2)" "tetraminx" "bash: verify tetraminx"
if command -v zsh >/dev/null 2>&1; then
    expect_status 0 "zsh reads _sbfs" -- zsh -n $Z
else
    echo "note: zsh is not installed: _sbfs is checked as text only"
fi
finish
