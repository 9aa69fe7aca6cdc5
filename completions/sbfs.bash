# bash completion for sbfs: its commands, their subcommands and options,
# the values of options that take a word from a fixed set, and files.
# Installed as share/bash-completion/completions/sbfs.

_sbfs_opts() {
    # the options of one command, as its --help lists them
    case $1 in
    solve) echo "-s --style -j --threads -q --quiet -v --verbose --json --moves --html --svg --no-bidir
                 --memory --disk --disk-limit --spill --checkpoint --resume --format --progress --no-progress -h --help" ;;
    show) echo "--html --svg --json -h --help" ;;
    explore) echo "-s --style -j --threads -q --quiet -v --verbose --json --memory --disk --disk-limit --spill
                   --checkpoint --resume --format --progress --no-progress -h --help" ;;
    convert) echo "--format --to -h --help" ;;
    verify) echo "-s --style -q --quiet --format -h --help" ;;
    eight) echo "--json -h --help" ;;
    npuzzle) echo "-g --goal -s --size -j --threads -v --verbose --pdb --pdb-dir --no-cache --verify-cache
                   --memory --progress --no-progress --json --html -h --help" ;;
    "god npuzzle") echo "--save --load --memory --disk --disk-limit --no-disk --checkpoint --resume -j --threads --bits --progress --no-progress --json
                         -v --verbose -h --help" ;;
    "god tetraminx" | "tetraminx god") echo "--save --load --memory -j --threads --disk --disk-limit --no-disk --checkpoint --resume --progress --no-progress --json -h --help" ;;
    "tetraminx solve") echo "-v --verbose --stats --load --memory -j --threads --progress --no-progress
                             --json --html -h --help" ;;
    "tetraminx random") echo "--seed --scramble --load --memory -j --threads --progress --no-progress
                              --json -h --help" ;;
    "playfair encrypt") echo "-k --keyword -K --key-square --square --pad --show-square --json -h --help" ;;
    "playfair decrypt") echo "-k --keyword -K --key-square --square --show-square --json -h --help" ;;
    "playfair crack") echo "-d --dictionary --square --show-square --stats --json -h --help" ;;
    "playfair anneal") echo "--corpus --seed --time -j --threads --patience --restarts --temperature --no-cache --stats --json -h --help" ;;
    "playfair random") echo "-d --dictionary -n --count --seed --words --square --pad --letters --text
                             --json -h --help" ;;
    *) echo "-h --help" ;;
    esac
}

_sbfs() {
    local cur prev cmd i
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "solve show explore convert verify god eight npuzzle tetraminx playfair
                                 -h --help -V --version" -- "$cur"))
        return
    fi
    cmd=${COMP_WORDS[1]}
    case $cmd in
    god | tetraminx | playfair)
        if [ "$COMP_CWORD" -eq 2 ]; then
            case $cmd in
            god) COMPREPLY=($(compgen -W "npuzzle tetraminx -h --help" -- "$cur")) ;;
            tetraminx) COMPREPLY=($(compgen -W "solve random god -h --help" -- "$cur")) ;;
            playfair) COMPREPLY=($(compgen -W "encrypt decrypt crack anneal random -h --help" -- "$cur")) ;;
            esac
            return
        fi
        cmd="$cmd ${COMP_WORDS[2]}" ;;
    esac
    case $prev in
    -s | --style)
        [ "$cmd" = npuzzle ] || { COMPREPLY=($(compgen -W "0 1 2 3 4 5" -- "$cur")); return; } ;;
    --format) COMPREPLY=($(compgen -W "auto sliding grid rush" -- "$cur")); return ;;
    --to) COMPREPLY=($(compgen -W "sliding grid" -- "$cur")); return ;;
    -g | --goal) COMPREPLY=($(compgen -W "blank-last blank-first" -- "$cur")); return ;;
    --square) COMPREPLY=($(compgen -W "columns rows random" -- "$cur")); return ;;
    --disk | --spill | --checkpoint | --resume | --pdb-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --html | --svg | --save | --load | -d | --dictionary | --corpus | --text)
        COMPREPLY=($(compgen -f -- "$cur")); return ;;
    -j | --threads | --memory | --disk-limit | -k | --keyword | -K | --key-square | --pad | --seed | --time | \
        --patience | --restarts | --temperature | -n | --count | --words | --letters | --bits | --pdb)
        return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_sbfs_opts "$cmd")" -- "$cur"))
    elif [ "$cmd" = verify ] && [ "$COMP_CWORD" -eq 2 ]; then
        COMPREPLY=($(compgen -W tetraminx -- "$cur") $(compgen -f -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _sbfs sbfs
