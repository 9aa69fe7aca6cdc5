/* IDA* (Korf, "Depth-first iterative-deepening: an optimal admissible tree
 * search", 1985).  The depth-first part is written with an explicit stack of
 * move lists rather than recursion, so that the stop flag and the progress
 * report can be checked in one place and the depth is bounded by the caller's
 * max_len, not by the C stack. */
#include "sbfs/ida.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct frame {
    int mv[SB_IDA_MAXMOVES];
    int n, next;
    int h;
} frame;

enum { FOUND = -1, STOPPED = -2, BADMOVES = -3 };

/* One iteration: returns FOUND, STOPPED, or the least f above bound that
 * was cut (INT_MAX if none). */
static int dfs(const sb_ida_model *md, void *m, int h0, int bound, frame *fr, int *path,
               int *len, sb_ida_stats *st, const sb_control *ctl)
{
    int depth = 0, least = INT_MAX;
    if (h0 > bound)
        return h0;
    if (md->is_goal ? md->is_goal(m, h0) : h0 == 0) {
        *len = 0;
        return FOUND;
    }
    fr[0].n = md->moves(m, -1, fr[0].mv);
    if ((unsigned)fr[0].n > SB_IDA_MAXMOVES)
        return BADMOVES;
    fr[0].next = 0;
    fr[0].h = h0;
    st->expanded++;
    for (;;) {
        frame *f = &fr[depth];
        int mv, h, g;
        if (f->next == f->n) {
            /* this node is done: back up */
            if (depth == 0)
                return least;
            depth--;
            md->undo(m, path[depth]);
            continue;
        }
        mv = f->mv[f->next++];
        h = md->apply(m, mv);
        st->generated++;
        if ((st->generated & 0x3fff) == 0 && ctl) {
            if (sb_control_stopped(ctl)) {
                md->undo(m, mv);
                while (depth > 0)
                    md->undo(m, path[--depth]);
                return STOPPED;
            }
            if (ctl->progress) {
                sb_progress_info in = {"ida*", bound, st->generated, 0, 0, 0, 0};
                ctl->progress(ctl->ud, &in);
            }
        }
        g = depth + 1;
        if (g + h > bound) {
            if (g + h < least)
                least = g + h;
            md->undo(m, mv);
            continue;
        }
        path[depth] = mv;
        if (md->is_goal ? md->is_goal(m, h) : h == 0) {
            *len = g;
            /* leave the model where it started */
            md->undo(m, mv);
            while (depth > 0)
                md->undo(m, path[--depth]);
            return FOUND;
        }
        if (g >= bound) { /* h == 0 but not a goal: nothing shorter below */
            md->undo(m, mv);
            if (bound + 1 < least)
                least = bound + 1;
            continue;
        }
        depth++;
        fr[depth].n = md->moves(m, mv, fr[depth].mv);
        /* one compare a node: a count the frame cannot hold ends the search */
        if ((unsigned)fr[depth].n > SB_IDA_MAXMOVES) {
            while (depth > 0)
                md->undo(m, path[--depth]);
            return BADMOVES;
        }
        fr[depth].next = 0;
        fr[depth].h = h;
        st->expanded++;
    }
}

int sb_ida_search(const sb_ida_model *model, int h0, int max_len, int *path, int *len,
                  sb_ida_stats *st, const sb_control *ctl, sb_error *err)
{
    sb_ida_stats local;
    frame *fr;
    int bound = h0, r = INT_MAX;
    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    if (!model || !model->moves || !model->apply || !model->undo || !path || !len)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "ida*: %s is NULL",
                            !model ? "the model" : !path ? "path" : !len ? "len"
                                                                     : "a model callback");
    if (max_len < 0)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "ida*: negative length limit");
    /* one frame per depth 0..max_len: a few kilobytes, not budgeted */
    fr = malloc(sizeof *fr * (size_t)(max_len + 1));
    if (!fr)
        return sb_error_set(err, SB_ENOMEM, 0, 0, "ida*: out of memory");
    while (bound <= max_len) {
        st->iterations++;
        st->bound = bound;
        r = dfs(model, model->ud, h0, bound, fr, path, len, st, ctl);
        if (r == FOUND || r == STOPPED || r == BADMOVES || r == INT_MAX)
            break;
        bound = r;
    }
    free(fr);
    if (r == FOUND)
        return 0;
    if (r == STOPPED)
        return sb_error_set(err, SB_EINTR, 0, 0, "interrupted");
    if (r == BADMOVES)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "ida*: the model listed more than %d moves",
                            SB_IDA_MAXMOVES);
    return sb_error_set(err, SB_ENOTFOUND, 0, 0, "no solution within %d moves", max_len);
}
