/* Unit tests of the IDA* engine on a toy model of its own: a walker on the
 * integers 0..99 with steps +1, -1 and +7, the goal at G, h = an admissible
 * bound (distance/7 rounded up).  Checks: shortest lengths against a BFS
 * here, the model left at its start, no path within max_len, the stop flag. */
#include "harness.h"
#include "../src/search/ida.h"

typedef struct walker {
    int x, goal;
    int applied, undone;
    int blind; /* h = 0 throughout: a slow search, for the stop flag */
} walker;

static const int step[3] = {1, -1, 7};

static int h_of(const walker *w)
{
    int d = w->goal - w->x;
    if (w->blind)
        return 0;
    if (d < 0)
        return -d; /* only -1 steps go down */
    return (d + 6) / 7;
}

static int w_moves(void *m, int last, int *out)
{
    walker *w = m;
    int k = 0;
    for (int i = 0; i < 3; i++) {
        int y = w->x + step[i];
        if (y < 0 || y > 99 || (last == 0 && i == 1) || (last == 1 && i == 0))
            continue;
        out[k++] = i;
    }
    return k;
}

static int w_apply(void *m, int mv)
{
    walker *w = m;
    w->x += step[mv];
    w->applied++;
    return h_of(w);
}

static void w_undo(void *m, int mv)
{
    walker *w = m;
    w->x -= step[mv];
    w->undone++;
}

static int w_goal(void *m, int h)
{
    (void)h;
    return ((walker *)m)->x == ((walker *)m)->goal;
}

static int bfs(int from, int to)
{
    int dist[100], q[100], head = 0, tail = 0;
    for (int i = 0; i < 100; i++)
        dist[i] = -1;
    dist[from] = 0;
    q[tail++] = from;
    while (head < tail) {
        int x = q[head++];
        for (int i = 0; i < 3; i++) {
            int y = x + step[i];
            if (y >= 0 && y <= 99 && dist[y] < 0)
                dist[y] = dist[x] + 1, q[tail++] = y;
        }
    }
    return dist[to];
}

static void test_lengths(void)
{
    sb_ida_model md = {w_moves, w_apply, w_undo, w_goal, NULL, 0};
    int path[64], len, agree = 0, tried = 0;
    sb_ida_stats st;
    sb_error e;
    for (int from = 0; from < 100; from += 3)
        for (int to = 0; to < 100; to += 11) {
            walker w = {from, to, 0, 0, 0};
            int x = from;
            if (bfs(from, to) > 63)
                continue;
            tried++;
            md.ud = &w;
            if (sb_ida_search(&md, h_of(&w), 63, path, &len, &st, NULL, &e) != 0)
                continue;
            for (int i = 0; i < len; i++)
                x += step[path[i]];
            agree += len == bfs(from, to) && x == to && w.x == from && w.applied == w.undone &&
                     st.bound == len;
        }
    CHECK_INT(agree, tried);
    CHECK(tried > 300);
}

static void test_limits(void)
{
    walker w = {90, 0, 0, 0, 0};
    sb_ida_model md = {w_moves, w_apply, w_undo, w_goal, &w, 0};
    int path[128], len = -1;
    sb_error e;
    volatile sig_atomic_t stop = 1;
    sb_control ctl = {NULL, NULL, &stop};
    /* 90 steps down are needed: not within 60 */
    CHECK_INT(sb_ida_search(&md, h_of(&w), 60, path, &len, NULL, NULL, &e), SB_ENOTFOUND);
    CHECK_INT(w.x, 90);
    /* the start is the goal */
    w.goal = 90;
    CHECK_INT(sb_ida_search(&md, 0, 10, path, &len, NULL, NULL, &e), 0);
    CHECK_INT(len, 0);
    /* a raised stop flag ends a long search with SB_EINTR, model restored */
    w.goal = 0;
    w.blind = 1;
    CHECK_INT(sb_ida_search(&md, 0, 120, path, &len, NULL, &ctl, &e), SB_EINTR);
    CHECK_INT(w.x, 90);
    CHECK_INT(w.applied, w.undone);
}

/* Parallel IDA* against the single thread: the same path, the same
 * counts, for 1..4 threads, on every start/goal pair the walker allows
 * (short ones, too shallow to split; long ones, split several moves deep;
 * goals met while the tree is being split); and the stop flag. */
static void test_threads(void)
{
    int same = 0, tried = 0;
    for (int from = 0; from < 100; from += 7)
        for (int to = 0; to < 100; to += 9) {
            int path1[64], len1 = -1, rc1;
            sb_ida_stats st1;
            sb_error e;
            walker w = {from, to, 0, 0, 0};
            sb_ida_model md = {w_moves, w_apply, w_undo, w_goal, &w, sizeof w};
            if (bfs(from, to) > 40)
                continue;
            rc1 = sb_ida_search(&md, h_of(&w), 63, path1, &len1, &st1, NULL, &e);
            for (int t = 2; t <= 4; t++) {
                int path[64], len = -2, ok;
                sb_ida_stats st;
                int rc = sb_ida_search_mt(&md, h_of(&w), 63, t, path, &len, &st, NULL, &e);
                tried++;
                ok = rc == rc1 && w.x == from && st.generated == st1.generated &&
                     st.expanded == st1.expanded && st.iterations == st1.iterations &&
                     st.bound == st1.bound;
                if (ok && rc == 0)
                    ok = len == len1 && memcmp(path, path1, sizeof(int) * (size_t)len) == 0;
                same += ok;
            }
        }
    CHECK_INT(same, tried);
    CHECK(tried > 300);
    {
        walker w = {90, 0, 0, 0, 1};
        sb_ida_model md = {w_moves, w_apply, w_undo, w_goal, &w, sizeof w};
        int path[128], len;
        sb_error e;
        volatile sig_atomic_t stop = 1;
        sb_control ctl = {NULL, NULL, &stop};
        CHECK_INT(sb_ida_search_mt(&md, 0, 120, 2, path, &len, NULL, &ctl, &e), SB_EINTR);
        CHECK_INT(w.x, 90);
    }
}

int main(void)
{
    RUN(test_lengths);
    RUN(test_threads);
    RUN(test_limits);
    return TEST_END();
}
