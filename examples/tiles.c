/* tiles: optimal solutions of sliding-tile positions with the easy API.
 *
 *   tiles < POSITIONS
 *
 * One position a line ("2 3 4 1 5 x 7 6 8"; 4, 9, 16 or 25 tiles); prints
 * "LENGTH<TAB>MOVES" per line (the blank's moves u d l r towards 1 2 ...
 * then the blank), or "unsolvable", as `sbfs npuzzle` does. */
#include <sbfs/easy.h>

#include <stdio.h>

int main(void)
{
    char line[512];
    int lineno = 0;
    while (fgets(line, sizeof line, stdin)) {
        lineno++;
        sb_np_result res;
        sb_error err;
        if (sb_easy_npuzzle_solve(line, SB_NP_BLANK_LAST, NULL, &res, &err)) {
            fprintf(stderr, "line %d, column %d: %s\n", lineno, err.col, err.msg);
            return 1;
        }
        if (res.length < 0)
            printf("unsolvable\n");
        else
            printf("%d\t%s\n", res.length, res.moves);
    }
    return 0;
}
