/* tetraminx: optimal Tetraminx solutions with the easy API.
 *
 *   tetraminx < POSITIONS
 *
 * One position a line, a scramble ("R U R' L' U R") or a 28-letter facelet
 * string; prints "LENGTH: MOVES" per line, as `sbfs tetraminx solve -v`
 * does. */
#include <sbfs/easy.h>

#include <stdio.h>
#include <string.h>

int main(void)
{
    char line[256];
    int lineno = 0;
    while (fgets(line, sizeof line, stdin)) {
        lineno++;
        line[strcspn(line, "\n")] = 0;
        sb_easy_tetraminx res;
        sb_error err;
        if (sb_easy_tetraminx_solve(line, &res, &err)) {
            fprintf(stderr, "line %d, column %d: %s\n", lineno, err.col, err.msg);
            return 1;
        }
        printf("%d: %s\n", res.length, res.text);
    }
    return 0;
}
