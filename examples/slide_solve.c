/* slide_solve: the shortest solution of a sliding-block puzzle with the
 * easy API.
 *
 *   slide_solve PUZZLE [STYLE]
 *
 * PUZZLE is a file in any of sbfs's puzzle formats (SLIDING's, a grid, a
 * Rush Hour line); STYLE is SLIDING's move style, 0 by default.  Prints
 * "move K: TEXT" per move, as `sbfs solve` does, each followed by where
 * the blocks went, then the last board and "solution: N moves". */
#include <sbfs/easy.h>

#include <stdio.h>
#include <stdlib.h>

/* The whole file in a NUL-terminated buffer, or NULL. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0, got;
    if (!f)
        return NULL;
    do {
        if (n + 4096 + 1 > cap) {
            char *t = realloc(buf, cap = 2 * (n + 4096 + 1));
            if (!t) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = t;
        }
        got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
    } while (got);
    fclose(f);
    buf[n] = 0;
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: slide_solve PUZZLE [STYLE]\n");
        return 2;
    }
    size_t len;
    char *text = slurp(argv[1], &len);
    if (!text) {
        perror(argv[1]);
        return 1;
    }
    sb_easy_slide sol;
    sb_error err;
    int rc = sb_easy_slide_solve(text, len, argc == 3 ? atoi(argv[2]) : 0, &sol, &err);
    free(text);
    if (rc) {
        fprintf(stderr, "%s:%d:%d: %s\n", argv[1], err.line, err.col, err.msg);
        return 1;
    }
    if (sol.length < 0) {
        printf("no solution (%llu configurations searched)\n", (unsigned long long)sol.configurations);
        sb_easy_slide_free(&sol);
        return 0;
    }
    for (int k = 0; k < sol.length; k++) {
        const sb_easy_move *m = &sol.moves[k];
        printf("move %d: %s\n", k + 1, m->text);
        for (int b = 0; b < m->nblocks; b++)
            printf("    %c from row %d column %d to row %d column %d by %s\n", m->block[b].name, m->block[b].row,
                   m->block[b].col, m->block[b].row + m->drow, m->block[b].col + m->dcol, m->steps);
    }
    printf("last board:\n%s", sol.boards[sol.length]);
    printf("solution: %d moves\n", sol.length);
    sb_easy_slide_free(&sol);
    return 0;
}
