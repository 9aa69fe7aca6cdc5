/* slide_diff: one sliding-block puzzle in one style, solved by every
 * search sbfs has and checked against tests/slide_oracle.h.
 *
 * The oracle walks the whole component of the start (and of the goal when
 * the goal is one configuration) and notes the first distance holding a
 * goal.  Then, as the command line runs them:
 *   - the hashed engine stopping at the first goal found, as `sbfs STYLE`
 *     does: the same length, every level before it the same size;
 *   - the sorted-level engine from the start, on one thread and on two;
 *   - the same both ways (when the goal is one configuration);
 *   - the census (no goal) on one thread and on two;
 *   - one of these (one way, both ways, census, in turn) again in the
 *     smallest memory budget it finishes in, to make it drop levels and
 *     rebuild the path from checkpoints;
 * must all give the oracle's length and level sizes, and every path they
 * give is replayed by the oracle, board by board: it starts at the start,
 * each board is one move of the style from the one before, and the last
 * matches a stop line.  Paths of the sorted-level engine do not depend on
 * threads or budget, so those are compared key by key as well. */
#ifndef SBFS_SLIDE_DIFF_H
#define SBFS_SLIDE_DIFF_H

#include <stdarg.h>

#include "sbfs/sbfs.h"
#include "slide_oracle.h"
#include "../src/slide/slide_internal.h"

/* What the comparisons covered (added up over calls). */
typedef struct sd_stats {
    long compared;     /* puzzle-styles compared */
    long skipped;      /* the oracle gave up: too many configurations */
    long solved, unsolved, zero;
    long bidir;        /* searched both ways */
    long dropped;      /* budget runs that dropped levels and finished */
    long budgets;      /* runs in the smallest budget that finishes */
    long hinted, wide; /* models with hints; with more than 32 bits of them */
    long partial, several; /* puzzles with a partial stop line; several */
    long configs;      /* configurations the oracle counted */
    long disk;         /* puzzle-styles compared with levels on disk too */
} sd_stats;

typedef struct sd_run {
    int rc, found, length, dropped;
    int nlev[2];
    uint64_t *cnt[2];
    uint64_t *path; /* (length + 1) keys */
    uint64_t states;
    int kw;
    size_t peak;
    uint64_t disk_peak;
} sd_run;

typedef struct sd {
    int style;
    const so_puzzle *P;
    so_goal goals[SO_MAXGOALS];
    so_census fwd, back; /* back: from the goal, when it is one configuration */
    sb_slide_puzzle pz;
    char msg[1024];
} sd;

static inline int sd_fail(sd *c, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(c->msg, sizeof c->msg, "style %d: ", c->style);
    va_start(ap, fmt);
    vsnprintf(c->msg + n, sizeof c->msg - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static inline void sd_run_free(sd_run *r)
{
    free(r->cnt[0]);
    free(r->cnt[1]);
    free(r->path);
    memset(r, 0, sizeof *r);
}

/* The board the oracle would draw for a key, from the library's anchors
 * and the oracle's own shapes; -1 when the anchors do not make a board. */
static inline int sd_board(sd *c, const sb_slide *sl, const uint64_t *key, char *b)
{
    const so_puzzle *P = c->P;
    unsigned char a[SB_SLIDE_MAXCELLS];
    sb_slide_unpack(sl, key, a);
    for (int i = 0; i < P->N; i++)
        b[i] = P->xcell[i] ? 'x' : '0';
    for (int i = 0; i < P->N; i++) {
        int v = a[i];
        if (!v)
            continue;
        if (v > 15 || !P->kdef[v])
            return -1;
        for (int t = 0; t < P->kn[v]; t++) {
            int r = i / P->C + P->kr[v][t], col = i % P->C + P->kc[v][t];
            if (r < 0 || r >= P->R || col < 0 || col >= P->C || b[r * P->C + col] != '0')
                return -1;
            b[r * P->C + col] = so_name(v);
        }
    }
    return 0;
}

/* A path of length+1 keys, replayed by the oracle. */
static inline int sd_check_path(sd *c, const sb_slide *sl, const uint64_t *keys, int length, const char *who)
{
    char prev[SO_MAXN], cur[SO_MAXN];
    so_blocks B;
    for (int d = 0; d <= length; d++) {
        if (sd_board(c, sl, keys + (size_t)d * sl->key_words, cur))
            return sd_fail(c, "%s: board %d of the path is not a configuration", who, d);
        if (d == 0 && memcmp(cur, c->fwd.boards, (size_t)c->P->N))
            return sd_fail(c, "%s: the path does not begin at the start", who);
        if (d) {
            const char *e = so_is_move(c->P, c->style, prev, cur);
            if (e)
                return sd_fail(c, "%s: move %d: %s", who, d, e);
        }
        memcpy(prev, cur, sizeof prev);
    }
    if (so_split(c->P, cur, &B) < 0 || !so_is_goal(c->P, c->goals, cur, &B))
        return sd_fail(c, "%s: the last board of the path matches no stop line", who);
    return 0;
}

/* A search through sbfs/search.h as the command line runs it: `sbfs
 * solve` and `sbfs explore` (census) on the sorted-level engine with the
 * model's hints, `sbfs STYLE` on the hashed engine without them; flags,
 * threads, and a budget (0 none) that the model's tables count against
 * too.  The path found is replayed by the oracle. */
static inline int sd_search_in(sd *c, int engine, unsigned flags, int threads, size_t budget, const char *disk,
                               sd_run *out)
{
    sb_mem mem;
    sb_slide sl;
    sb_search *s;
    sb_keymodel m;
    sb_search_opts o = {threads, NULL, NULL, disk, 0, NULL, 0, 0};
    sb_error err;
    memset(out, 0, sizeof *out);
    sb_mem_init(&mem, disk ? 0 : budget);
    out->rc = sb_slide_init(&sl, &c->pz, c->style, &mem, &err);
    if (out->rc)
        return 0;
    if (disk) /* levels on disk: the budget is what the model's tables leave */
        mem.limit = mem.used + budget;
    out->kw = sl.key_words;
    if (engine == SB_ENGINE_LEVELS)
        sb_slide_model(&sl, SB_SLIDE_HINTS, &m);
    else
        sb_slide_model(&sl, 0, &m);
    out->rc = sb_search_new(&s, engine, &m, &o, &mem, &err);
    if (out->rc) {
        sb_slide_fini(&sl);
        return out->rc == SB_ENOMEM ? 0 : sd_fail(c, "sb_search_new refused the model: %s", err.msg);
    }
    out->rc = sb_search_run(s, sl.start, sl.stop, flags, NULL, &err);
    const sb_search_info *in = sb_search_result(s);
    for (int side = 0; side < 2; side++) {
        out->nlev[side] = in->nlevels[side];
        out->cnt[side] = malloc(sizeof(uint64_t) * (size_t)(out->nlev[side] + 1));
        for (int d = 0; d < out->nlev[side] && out->cnt[side]; d++)
            out->cnt[side][d] = sb_search_level(s, side, d);
    }
    out->found = in->found;
    out->length = in->length;
    out->dropped = in->dropped;
    out->states = in->states;
    int bad = 0;
    if (!out->rc && in->found && !(flags & SB_SEARCH_CENSUS)) {
        out->path = malloc(sizeof(uint64_t) * (size_t)(in->length + 1) * (size_t)sl.key_words);
        out->rc = out->path ? sb_search_path(s, out->path, NULL, &err) : SB_ENOMEM;
        if (!out->rc)
            bad = sd_check_path(c, &sl, out->path, in->length,
                                engine == SB_ENGINE_HASHED ? "hashed"
                                : disk                     ? "levels on disk"
                                : flags & SB_SEARCH_BIDIR  ? "levels, both ways"
                                                           : "levels");
    }
    out->peak = mem.peak;
    out->disk_peak = in->disk_peak;
    sb_search_free(s);
    sb_slide_fini(&sl);
    if (!bad && disk && mem.peak > mem.limit)
        bad = sd_fail(c, "levels on disk: %zu bytes of memory, over the budget of %zu", mem.peak, mem.limit);
    return bad;
}

static inline int sd_search(sd *c, int engine, unsigned flags, int threads, size_t budget, sd_run *out)
{
    return sd_search_in(c, engine, flags, threads, budget, NULL, out);
}

/* Where the engine with levels on disk keeps them (NULL: not compared),
 * and the memory it is given beyond the model's tables. */
static const char *sd_disk_dir;
#define SD_DISK_BUDGET ((size_t)256 << 10)

/* Level sizes of side s of r against the oracle's census z: all levels
 * (whole = 1) or as many as r has. */
static inline int sd_counts(sd *c, const sd_run *r, int s, const so_census *z, int whole, const char *who)
{
    if (whole && r->nlev[s] != z->nlev)
        return sd_fail(c, "%s: %d levels, the oracle %d", who, r->nlev[s], z->nlev);
    if (r->nlev[s] > z->nlev)
        return sd_fail(c, "%s: %d levels, more than the oracle's %d", who, r->nlev[s], z->nlev);
    for (int d = 0; d < r->nlev[s]; d++)
        if (r->cnt[s][d] != (uint64_t)so_level_size(z, d))
            return sd_fail(c, "%s: %llu configurations at distance %d%s, the oracle %ld", who,
                           (unsigned long long)r->cnt[s][d], d, s ? " from the goal" : "",
                           so_level_size(z, d));
    return 0;
}

/* A solving run against the oracle: the length, then the level sizes. */
static inline int sd_solved(sd *c, const sd_run *r, int bidir, const char *who)
{
    int g = c->fwd.goal;
    if (r->rc)
        return sd_fail(c, "%s: status %d", who, r->rc);
    if (r->found != (g >= 0) || (g >= 0 && r->length != g))
        return sd_fail(c, "%s: length %d, the oracle %d", who, r->length, g);
    if (!bidir) { /* every level up to the goal's, or all of them */
        int want = g >= 0 ? g + 1 : c->fwd.nlev;
        if (sd_counts(c, r, 0, &c->fwd, 0, who))
            return -1;
        return r->nlev[0] == want ? 0 : sd_fail(c, "%s: %d levels, the oracle %d", who, r->nlev[0], want);
    }
    if (sd_counts(c, r, 0, &c->fwd, 0, who) || sd_counts(c, r, 1, &c->back, 0, who))
        return -1;
    if (g < 0 && r->nlev[0] != c->fwd.nlev && r->nlev[1] != c->back.nlev)
        return sd_fail(c, "%s: no solution, yet neither side walked its whole component", who);
    return 0;
}

static inline int sd_same_path(sd *c, const sd_run *a, const sd_run *b, const char *who)
{
    if (a->found && b->found &&
        memcmp(a->path, b->path, sizeof(uint64_t) * (size_t)(a->length + 1) * (size_t)a->kw))
        return sd_fail(c, "%s: a different path", who);
    return 0;
}

/* The hashed engine as `sbfs STYLE` runs it, stopping at the first goal
 * found: the oracle's length, every level before the goal's the same
 * size (that one is cut short), and a path it replays. */
static inline int sd_hashed(sd *c)
{
    sd_run r;
    int g = c->fwd.goal;
    int bad = sd_search(c, SB_ENGINE_HASHED, SB_SEARCH_FIRST, 1, 0, &r);
    if (!bad && r.rc)
        bad = sd_fail(c, "hashed: status %d", r.rc);
    if (!bad && (r.found != (g >= 0) || (g >= 0 && r.length != g)))
        bad = sd_fail(c, "hashed: length %d, the oracle %d", r.length, g);
    int levels = g >= 0 ? g : c->fwd.nlev; /* complete levels */
    for (int d = 0; !bad && d < levels; d++)
        if (d >= r.nlev[0] || r.cnt[0][d] != (uint64_t)so_level_size(&c->fwd, d))
            bad = sd_fail(c, "hashed: %llu configurations at distance %d, the oracle %ld",
                          d < r.nlev[0] ? (unsigned long long)r.cnt[0][d] : 0ULL, d, so_level_size(&c->fwd, d));
    if (!bad && g < 0 && (r.nlev[0] != c->fwd.nlev || r.states != (uint64_t)c->fwd.n))
        bad = sd_fail(c, "hashed: %d levels, the oracle %d", r.nlev[0], c->fwd.nlev);
    sd_run_free(&r);
    return bad;
}

/* The sorted-level engine in the smallest budget it finishes in (found
 * by bisection between nothing and what it used with none, to 1/32 of
 * that): there it drops the most levels and rebuilds the path from the
 * fewest checkpoints, and it must agree with `full`, path and all. */
static inline int sd_budgets(sd *c, unsigned flags, const sd_run *full, sd_stats *st)
{
    size_t lo = 0, hi = full->peak, step = full->peak / 32 + 1;
    while (hi - lo > step) { /* lo fails, hi finishes */
        size_t mid = lo + (hi - lo) / 2;
        sd_run r;
        if (sd_search(c, SB_ENGINE_LEVELS, flags, 1, mid, &r)) {
            sd_run_free(&r);
            return -1;
        }
        if (r.rc == SB_ENOMEM)
            lo = mid;
        else
            hi = mid;
        sd_run_free(&r);
    }
    sd_run r;
    if (sd_search(c, SB_ENGINE_LEVELS, flags, 1, hi, &r)) {
        sd_run_free(&r);
        return -1;
    }
    int bad = flags & SB_SEARCH_CENSUS ? (r.rc ? sd_fail(c, "census in a budget: status %d", r.rc)
                             : sd_counts(c, &r, 0, &c->fwd, 1, "census in a budget"))
                     : sd_solved(c, &r, (flags & SB_SEARCH_BIDIR) != 0, "levels in a budget") ||
                           sd_same_path(c, full, &r, "levels in a budget");
    st->dropped += r.dropped > 0 && !bad;
    st->budgets++;
    sd_run_free(&r);
    return bad ? -1 : 0;
}

/* Compare every engine with the oracle on one puzzle (text) in one style.
 * limit and maxsets bound the oracle's work (0: none).  Returns 0 when all
 * agree, 1 when the puzzle was skipped (the oracle cannot read it, or gave
 * up), -1 with c->msg when something disagrees; a puzzle the oracle reads
 * must be accepted by the library. */
static inline int sd_compare(sd *c, const so_puzzle *P, const char *text, int style, long limit, long maxsets,
                             sd_stats *st)
{
    sb_error err;
    int names[SO_MAXN], ids[SO_MAXN];
    char start[SO_MAXN], goal[SO_MAXN];
    c->style = style;
    c->P = P;
    c->msg[0] = 0;
    memset(&c->fwd, 0, sizeof c->fwd);
    memset(&c->back, 0, sizeof c->back);
    if (sb_slide_parse(&c->pz, text, strlen(text), &err))
        return sd_fail(c, "the library refused the puzzle: %d:%d: %s", err.line, err.col, err.msg);
    for (int g = 0; g < P->ngoals; g++)
        if (so_fill_goal(P, P->goal[g], &c->goals[g]))
            return 1;
    if (so_fill(P, P->start, names, ids))
        return 1;
    so_board(P, names, start);
    if (so_run_census(&c->fwd, P, style, start, c->goals, limit, maxsets)) {
        so_census_free(&c->fwd);
        st->skipped++;
        return 1;
    }
    if (c->pz.goal_full) {
        if (so_fill(P, P->goal[0], names, ids))
            return sd_fail(c, "the library reads one whole stop configuration, the oracle does not");
        so_board(P, names, goal);
        if (so_run_census(&c->back, P, style, goal, NULL, limit, maxsets)) {
            so_census_free(&c->fwd);
            so_census_free(&c->back);
            st->skipped++;
            return 1;
        }
    }
    int bad = sd_hashed(c);
    sd_run one, two, both1, both2, cen1, cen2;
    memset(&one, 0, sizeof one);
    two = both1 = both2 = cen1 = cen2 = one;
    unsigned bi = c->pz.goal_full ? SB_SEARCH_BIDIR : 0;
    if (!bad)
        bad = sd_search(c, SB_ENGINE_LEVELS, 0, 1, 0, &one) || sd_solved(c, &one, 0, "levels, one thread");
    if (!bad)
        bad = sd_search(c, SB_ENGINE_LEVELS, 0, 2, 0, &two) || sd_solved(c, &two, 0, "levels, two threads") ||
              sd_same_path(c, &one, &two, "levels, two threads");
    if (!bad && bi)
        bad = sd_search(c, SB_ENGINE_LEVELS, bi, 1, 0, &both1) || sd_solved(c, &both1, 1, "levels both ways, one thread");
    if (!bad && bi)
        bad = sd_search(c, SB_ENGINE_LEVELS, bi, 2, 0, &both2) || sd_solved(c, &both2, 1, "levels both ways, two threads") ||
              sd_same_path(c, &both1, &both2, "levels both ways, two threads");
    if (!bad)
        bad = sd_search(c, SB_ENGINE_LEVELS, SB_SEARCH_CENSUS, 1, 0, &cen1) ||
              (cen1.rc ? sd_fail(c, "census: status %d", cen1.rc) : sd_counts(c, &cen1, 0, &c->fwd, 1, "census"));
    if (!bad)
        bad = sd_search(c, SB_ENGINE_LEVELS, SB_SEARCH_CENSUS, 2, 0, &cen2) ||
              (cen2.rc ? sd_fail(c, "census, two threads: status %d", cen2.rc)
                       : sd_counts(c, &cen2, 0, &c->fwd, 1, "census, two threads"));
    /* one search in the least budget, the kind taken in turn */
    int which = (int)(st->compared % 3);
    if (!bad && which == 1 && !bi)
        which = 0;
    if (!bad)
        bad = which == 0   ? sd_budgets(c, 0, &one, st)
              : which == 1 ? sd_budgets(c, bi, &both1, st)
                           : sd_budgets(c, SB_SEARCH_CENSUS, &cen1, st);
    /* levels on disk, in 256 KB, for one puzzle-style in eight: one way,
     * both ways, the census, the same counts and paths as in memory */
    if (!bad && sd_disk_dir && st->compared % 8 == 0) {
        sd_run d;
        bad = sd_search_in(c, SB_ENGINE_LEVELS, 0, 1, SD_DISK_BUDGET, sd_disk_dir, &d) ||
              sd_solved(c, &d, 0, "levels on disk") || sd_same_path(c, &one, &d, "levels on disk");
        sd_run_free(&d);
        if (!bad && bi) {
            bad = sd_search_in(c, SB_ENGINE_LEVELS, bi, 1, SD_DISK_BUDGET, sd_disk_dir, &d) ||
                  sd_solved(c, &d, 1, "levels on disk, both ways") ||
                  sd_same_path(c, &both1, &d, "levels on disk, both ways");
            sd_run_free(&d);
        }
        if (!bad) {
            bad = sd_search_in(c, SB_ENGINE_LEVELS, SB_SEARCH_CENSUS, 1, SD_DISK_BUDGET, sd_disk_dir, &d) ||
                  (d.rc ? sd_fail(c, "census on disk: status %d", d.rc)
                        : sd_counts(c, &d, 0, &c->fwd, 1, "census on disk"));
            if (!bad && !d.disk_peak)
                bad = sd_fail(c, "census on disk: no file written");
            sd_run_free(&d);
        }
        st->disk += !bad;
    }
    if (!bad) {
        sb_mem mem;
        sb_slide sl;
        sb_mem_init(&mem, 0);
        if (!sb_slide_init(&sl, &c->pz, style, &mem, &err)) {
            st->hinted += sl.hint_bits > 0;
            st->wide += sl.hint_bits > 32;
            sb_slide_fini(&sl);
        }
        st->compared++;
        st->configs += c->fwd.n;
        st->solved += c->fwd.goal > 0;
        st->zero += c->fwd.goal == 0;
        st->unsolved += c->fwd.goal < 0;
        st->bidir += bi != 0;
        st->several += P->ngoals > 1;
        for (int g = 0; g < P->ngoals; g++)
            if (strpbrk(P->goal[g], ".*")) {
                st->partial++;
                break;
            }
    }
    sd_run_free(&one);
    sd_run_free(&two);
    sd_run_free(&both1);
    sd_run_free(&both2);
    sd_run_free(&cen1);
    sd_run_free(&cen2);
    so_census_free(&c->fwd);
    so_census_free(&c->back);
    return bad ? -1 : 0;
}

#endif
