/* sbfs STYLE [VERBOSE] < puzzle: SLIDING's own command line, kept as
 * SLIDING has it (two numbers, the puzzle on standard input, no options).
 * Its output is SLIDING's (Knuth, SLIDING, "Breadth-first search" and "The answer"),
 * configurations listed in SLIDING's shorthand, then the summary line of
 * sbfs solve. */
#include "slide.h"

#include <stdlib.h>

typedef struct sliding_out {
    const sb_slide *sl;
    int verbose;
    int shown;     /* the highest distance whose header was printed */
    uint64_t seen; /* configurations found at that distance so far */
} sliding_out;

static void close_level(sliding_out *o)
{
    if (o->verbose > 0)
        return;
    if (o->shown == 0)
        printf(".\n");
    else
        printf(" and %llu more.\n", (unsigned long long)(o->seen - 1));
}

/* Each configuration as the hashed engine finds it: the first of each
 * distance (all of them when verbose), SLIDING's listing. */
static void sliding_new(void *ud, const uint64_t *key, int level, uint64_t index, uint64_t from)
{
    sliding_out *o = ud;
    while (o->shown < level) {
        close_level(o);
        printf("*** Distance %d:\n", ++o->shown);
        o->seen = 0;
    }
    if (o->seen++ == 0 || o->verbose > 0) {
        cli_slide_shorthand(o->sl, key);
        if (o->verbose > 0)
            printf(" (%llu=#%llx, from #%llx)\n", (unsigned long long)index, (unsigned long long)index,
                   (unsigned long long)from);
        /* a listing nobody can read is not worth the search: stop it, and
         * let main report the write error */
        if (cli_output_failed())
            cli_request_stop();
    }
}

int cmd_sliding(int argc, char **argv)
{
    int style, verbose = 0;
    char *end;
    if (argc < 2 || argc > 3)
        goto usage;
    style = (int)strtol(argv[1], &end, 10);
    if (*end || end == argv[1])
        goto usage;
    if (argc == 3) {
        verbose = (int)strtol(argv[2], &end, 10);
        if (*end || end == argv[2])
            goto usage;
    }
    if (style < 0 || style > 5) {
        fprintf(stderr, "sbfs: Sorry, the style should be between 0 and 5, not %d!\n", style);
        return cli_status(SB_EUSAGE);
    }
    sb_error err;
    sb_error_clear(&err);
    size_t budget;
    cli_memory_budget(NULL, &budget, &err);
    sb_mem mem;
    sb_mem_init(&mem, budget);
    sb_slide_puzzle *pz = malloc(sizeof *pz);
    if (!pz)
        return cli_status(SB_ENOMEM);
    int st = cli_slide_load(NULL, pz, stdout, 1, SB_SLIDE_AUTO);
    if (st) {
        free(pz);
        return st;
    }
    sb_slide *sl;
    sb_search *srch = NULL;
    sb_keymodel m;
    sb_control ctl;
    cli_progress prog;
    int rc = sb_slide_new(&sl, pz, style, &mem, &err);
    if (rc) {
        free(pz);
        return cli_fail("-", &err);
    }
    printf("Starting configuration:\n");
    cli_slide_board(sl, sb_slide_key(sl, SB_SLIDE_START));
    printf("\nStopping configuration:\n");
    for (int g = 0; g < pz->ngoals; g++) { /* free cells drawn as '.' */
        char buf[SB_SLIDE_BOARD_MAX];
        sb_slide_goal_text(pz, g, buf);
        printf("%s%s", g ? "or:\n" : "", buf);
    }
    printf("\n(using moves of style %d)\n", style);
    printf("*** Distance 0:\n");
    sb_slide_model(sl, 0, &m);
    sliding_out o = {sl, verbose, 0, 0};
    sb_search_opts so = {0, sliding_new, &o, NULL, 0, NULL, 0, 0};
    rc = sb_search_new(&srch, SB_ENGINE_HASHED, &m, &so, &mem, &err);
    if (!rc) {
        cli_control_init(&ctl, &prog, -1);
        rc = sb_search_run(srch, sb_slide_key(sl, SB_SLIDE_START), sb_slide_key(sl, SB_SLIDE_STOP), SB_SEARCH_FIRST, &ctl, &err);
        cli_control_done(&ctl, &prog);
    }
    const sb_search_info *in = sb_search_result(srch);
    if (!rc && in->found) {
        int D = in->length;
        if (D == 0) {
            printf("\nYou're joking: That puzzle is solved in zero moves!\n");
        } else {
            printf("... Solution!\n");
            if (verbose >= 0) {
                int kw = m.key_words;
                uint64_t *path = malloc((size_t)(D + 1) * (size_t)kw * sizeof *path);
                if (!path)
                    rc = sb_error_set(&err, SB_ENOMEM, 0, 0, "out of memory");
                else
                    rc = sb_search_path(srch, path, NULL, &err);
                for (int d = D - 1; d >= 1 && !rc; d--) {
                    printf("\n%d:\n", d);
                    cli_slide_board(sl, path + (size_t)d * kw);
                }
                free(path);
            }
        }
        if (!rc)
            printf("solution: %d move%s\n", D, D == 1 ? "" : "s");
    } else if (!rc) {
        /* the last level found nothing new: its header, then the verdict */
        while (o.shown < in->nlevels[0]) {
            close_level(&o);
            printf("*** Distance %d:\n", ++o.shown);
        }
        printf("no solution: %llu configurations reachable\n", (unsigned long long)in->states);
    } else {
        printf("\n");
    }
    sb_search_free(srch);
    sb_slide_free(sl);
    free(pz);
    if (rc == SB_EINTR && cli_output_failed())
        return 0; /* stopped for a write error, which main reports */
    if (rc)
        return cli_fail(rc == SB_EINTR ? NULL : "-", &err);
    return 0;
usage:
    fprintf(stderr, "Usage: sbfs style [verbose]\n");
    return cli_status(SB_EUSAGE);
}
