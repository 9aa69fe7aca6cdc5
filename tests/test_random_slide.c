/* The random differential test of the sliding-block searches: puzzles
 * drawn by tests/slide_gen.h, each solved in all six styles by every
 * engine and every way the command line runs them, and compared with the
 * independent oracle of tests/slide_oracle.h (tests/slide_diff.h says
 * what is compared).  Also the puzzles that once went wrong, pinned.
 *
 *   SBFS_RANDOM_N     puzzles to draw (default 2000, 250 under sanitizers)
 *   SBFS_RANDOM_SEED  the first seed (default 1); puzzle i uses seed + i
 *
 * A disagreement prints the puzzle and its seed, so that it can be run
 * again alone with SBFS_RANDOM_SEED=that SBFS_RANDOM_N=1. */
#include "harness.h"

#include <stdlib.h>
#include <unistd.h>
#include "slide_diff.h"
#include "slide_gen.h"
#include "../src/slide/slide_internal.h"
#include "../src/search/stateset.h" /* a plain key set for the generator check */

/* The oracle's component size past which a puzzle-style is skipped, and
 * the superpieces it may list for one board and direction. */
#define LIMIT 2000
#define MAXSETS 4096

static sd_stats st;

/* Lines of a text one at a time, for sb_slide_parse_lines. */
static int next_line(void *ud, const char **s, size_t *n, sb_error *err)
{
    const char **p = ud;
    (void)err;
    if (!**p)
        return 0;
    *s = *p;
    *n = strcspn(*p, "\n");
    *p += *n + ((*p)[*n] == '\n');
    return 1;
}

/* The reader that takes a line at a time (what the command line uses)
 * reads the puzzle as the one that takes the whole text does. */
static void same_reading(const char *what, const char *text)
{
    static sb_slide_puzzle a, b;
    sb_error ea, eb;
    const char *p = text;
    int ra = sb_slide_parse(&a, text, strlen(text), &ea), rb = sb_slide_parse_lines(&b, next_line, &p, &eb);
    if (ra != rb || (ra ? ea.line != eb.line || ea.col != eb.col : memcmp(&a, &b, sizeof a) != 0))
        T_FAIL_AT("%s: read line by line, the puzzle differs:\n%s", what, text);
    else
        t_passed++;
}

/* Compare one puzzle in styles from..to-1; 1 when all agreed. */
static int compare_styles(const char *what, const char *text, int from, int to, long limit)
{
    static so_puzzle P;
    static sd c;
    const char *e = so_parse(&P, text);
    if (e) {
        T_FAIL_AT("%s: the oracle cannot read it (%s):\n%s", what, e, text);
        return 0;
    }
    int ok = 1;
    same_reading(what, text);
    for (int s = from; s < to; s++)
        if (sd_compare(&c, &P, text, s, limit, MAXSETS, &st) < 0) {
            T_FAIL_AT("%s: %s\n%s", what, c.msg, text);
            ok = 0;
        } else {
            t_passed++;
        }
    return ok;
}

static int compare_all(const char *what, const char *text)
{
    return compare_styles(what, text, 0, 6, LIMIT);
}

/* The length the sorted-level engine finds in `style`, searching as
 * `sbfs solve` does, and the bits of hints its model uses. */
static int solve_length(const char *text, int style, int *hint_bits)
{
    static sb_slide_puzzle pz;
    sb_error err;
    sb_mem mem;
    sb_slide sl;
    sb_search *lv;
    sb_keymodel m;
    sb_mem_init(&mem, 0);
    if (sb_slide_parse(&pz, text, strlen(text), &err) || sb_slide_init(&sl, &pz, style, &mem, &err))
        return -100;
    *hint_bits = sl.hint_bits;
    sb_slide_model(&sl, SB_SLIDE_HINTS, &m);
    int len = -200;
    if (!sb_search_new(&lv, SB_ENGINE_LEVELS, &m, NULL, &mem, &err)) {
        if (!sb_search_run(lv, sl.start, sl.stop, pz.goal_full ? SB_SEARCH_BIDIR : 0, NULL, &err))
            len = sb_search_result(lv)->length;
        sb_search_free(lv);
    }
    sb_slide_fini(&sl);
    return len;
}

/* Boards with many empty cells and few pieces have more hint bits than a
 * search engine once took (36 here, 32 allowed): style 0 refused them. */
static void test_wide_hints(void)
{
    const char *one = "2 x 5 k\n1 = 1\n1\n01\n";
    const char *klotski = "5 x 4 the 2x2 and two 1x1\n1 = 11/11\n2 = 1\n01000022\n.............1*\n";
    int bits;
    for (int s = 0; s < 6; s++) {
        CHECK_INT(solve_length(one, s, &bits), 1);
        if (s == 0)
            CHECK(bits > 32);
    }
    static const int klen[6] = {5, 3, 2, 5, 3, 2};
    for (int s = 0; s < 6; s++) {
        CHECK_INT(solve_length(klotski, s, &bits), klen[s]);
        if (s == 0)
            CHECK(bits > 32);
    }
    compare_all("one piece on 2 x 5", one);
    compare_all("the 2x2 and two 1x1 on 5 x 4", klotski);
}

/* The bundled small puzzles and hand-made corner cases go through the
 * same comparison. */
static void test_fixed(void)
{
    static const char *const texts[] = {
        "5 x 5 (a silly example)\n1 = 111/01\n2 = 101/111\n3 = 1\n1xx200000000033\n000xx00033001002\n",
        "3 x 3 apart\n1 = 101\n2 = 1\n3 = 11\n1203\n3*\n",
        "3 x 4 mixed\n1 = 1\n2 = 11\n3 = 1/1\n1x23001\n.x.....1*\n",
        "1 x 3 none\n1 = 1\n2 = 1\n12\n21\n",
        "2 x 2 same\n1 = 1\n1\n1\n",
        "2 x 3 packed\n1 = 1\n111111\n111111\n",
        "3 x 3 several\n1 = 1\n2 = 11\n12\n00000012\n.1*\n*\n",
        "4 x 4 leading zeros\n1 = 0/011/1\n2 = 1\n012\n.....1*\n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
        compare_all("fixed", texts[i]);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf = malloc(1 << 16);
    size_t n = f && buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
    if (f)
        fclose(f);
    if (buf)
        buf[n] = 0;
    return buf;
}

/* The bundled puzzles larger than the random ones, whole. */
static void test_bundled(void)
{
    char *shift = read_file("puzzles/shift.txt"), *eight = read_file("puzzles/eight-sample.txt");
    CHECK(shift && shift[0] && eight && eight[0]);
    if (shift && shift[0])
        compare_styles("shift", shift, 0, t_sanitized() ? 1 : 6, 0);
    if (eight && eight[0] && !t_sanitized())
        compare_styles("eight", eight, 0, 1, 0);
    free(shift);
    free(eight);
}

/* The oracle itself: its superpieces (unions of closures) move exactly as
 * every subset of blocks tried one by one does, on boards of at most 10
 * blocks met in the random puzzles. */
static void self_check_board(const so_puzzle *P, int style, const char *b)
{
    so_census fast, slow;
    so_blocks B;
    char in[SO_MAXN] = {0};
    if (so_split(P, b, &B) < 0 || B.nb > 10)
        return;
    memset(&fast, 0, sizeof fast);
    memset(&slow, 0, sizeof slow);
    fast.P = slow.P = P;
    if (so_expand(P, style, b, 0, so_add, &fast)) {
        T_FAIL_AT("oracle: expand failed");
        return;
    }
    for (unsigned m = 1; m < 1u << B.nb; m++) {
        for (int k = 0; k < B.nb; k++)
            in[k] = m >> k & 1;
        so_translations(P, style, b, &B, in, so_add, &slow);
    }
    int same = fast.n == slow.n;
    for (long i = 0; same && i < fast.n; i++)
        same = so_find(&slow, fast.boards + i * P->N) >= 0;
    if (same)
        t_passed++;
    else
        T_FAIL_AT("oracle: %ld superpiece moves, every subset gives %ld", fast.n, slow.n);
    so_census_free(&fast);
    so_census_free(&slow);
}

static void self_check(const char *text)
{
    static so_puzzle P;
    so_census z;
    int names[SO_MAXN], ids[SO_MAXN];
    char b[SO_MAXN];
    if (so_parse(&P, text) || so_fill(&P, P.start, names, ids))
        return;
    so_board(&P, names, b);
    for (int style = 3; style < 6; style++) {
        if (so_run_census(&z, &P, style, b, NULL, 200, MAXSETS) == NULL)
            for (long i = 0; i < z.n && i < 20; i++)
                self_check_board(&P, style, z.boards + i * P.N);
        so_census_free(&z);
    }
}

/* ---- the fast move generator on axis-locked pieces ---- */

typedef struct nbrs {
    int kw, n;
    uint64_t k[512 * 4];
} nbrs;

static void nbrs_emit(void *ctx, const uint64_t *key)
{
    nbrs *q = ctx;
    if (q->n < 512)
        memcpy(q->k + (size_t)q->n * q->kw, key, (size_t)q->kw * sizeof *key);
    q->n++;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Styles 0-2 of a puzzle with locked kinds: on every configuration of a
 * breadth-first walk of up to 300 (made by the general generator), the
 * fast path (sl.fast, and the hinted style 0) lists the same neighbours
 * in the same order as the general one, the hinted one the same set. */
static void fast_locked(const char *what, const char *text)
{
    static sb_slide_puzzle pz;
    static nbrs qa, qb;
    sb_error err;
    for (int style = 0; style < 3; style++) {
        sb_mem mem;
        sb_slide sl;
        sb_stateset set;
        sb_mem_init(&mem, 0);
        if (sb_slide_parse(&pz, text, strlen(text), &err) || sb_slide_init(&sl, &pz, style, &mem, &err))
            return;
        if (!sl.fast || sb_stateset_init(&set, sl.key_words, &mem, &err)) {
            sb_slide_fini(&sl);
            return;
        }
        int added, ok = 1;
        sb_stateset_add(&set, sl.start, &added, &err);
        qa.kw = qb.kw = sl.key_words;
        for (uint64_t i = 0; i < set.n && i < 300 && ok; i++) {
            uint64_t key[4];
            memcpy(key, sb_stateset_key(&set, i), (size_t)sl.key_words * sizeof *key);
            qa.n = qb.n = 0;
            sl.fast = 1;
            sb_slide_expand(&sl, key, nbrs_emit, &qa);
            sl.fast = 0;
            sb_slide_expand(&sl, key, nbrs_emit, &qb);
            ok = qa.n == qb.n && qa.n <= 512 && !memcmp(qa.k, qb.k, (size_t)qa.n * sl.key_words * 8);
            if (ok && sl.hint_bits) { /* the same set with hints, hints cleared */
                uint64_t mask = ~(uint64_t)0 >> sl.hint_bits;
                sl.fast = 1;
                qa.n = 0;
                sb_slide_expand_hinted(&sl, key, nbrs_emit, &qa);
                for (int j = 0; j < qa.n && j < 512; j++)
                    qa.k[j] &= mask;
                qsort(qa.k, (size_t)(qa.n < 512 ? qa.n : 512), 8, cmp_u64);
                qsort(qb.k, (size_t)(qb.n < 512 ? qb.n : 512), 8, cmp_u64);
                ok = qa.n == qb.n && !memcmp(qa.k, qb.k, (size_t)qa.n * 8);
            }
            for (int j = 0; j < qb.n && j < 512 && set.n < 300; j++)
                sb_stateset_add(&set, qb.k + (size_t)j * sl.key_words, &added, &err);
        }
        if (ok)
            t_passed++;
        else
            T_FAIL_AT("%s: style %d: the fast generator differs from the general one on locked pieces:\n%s",
                      what, style, text);
        sb_stateset_free(&set);
        sb_slide_fini(&sl);
    }
}

static long env_long(const char *name, long def)
{
    const char *s = getenv(name);
    return s && *s ? strtol(s, NULL, 10) : def;
}

static void test_random(void)
{
    long n = env_long("SBFS_RANDOM_N", t_sanitized() ? 250 : 2000);
    long seed = env_long("SBFS_RANDOM_SEED", 1);
    static char text[SG_MAXTEXT];
    sg_info cover = {0}, in;
    long drawn = 0, full = 0, nearly_empty = 0, xboards = 0, tiny = 0, big = 0;
    for (long i = 0; i < n; i++) {
        sg_src r = {(uint64_t)(seed + i), NULL, 0, 0};
        while (sg_puzzle(&r, text, &in)) /* no block: draw again */
            ;
        drawn++;
        char what[64];
        snprintf(what, sizeof what, "seed %ld", seed + i);
        compare_all(what, text);
        if (i % 10 == 0)
            self_check(text);
        if (in.locked)
            fast_locked(what, text);
        cover.disconnected += in.disconnected;
        cover.locked += in.locked > 0;
        cover.unused_kind += in.unused_kind;
        cover.walked += in.walked;
        cover.placed += in.placed;
        cover.at_start += in.at_start;
        full += in.empty == 0;
        nearly_empty += in.empty >= 3 * in.cells / 4;
        xboards += in.xcells > 0;
        tiny += in.cells <= 3;
        big += in.cells >= 30;
        cover.kinds += in.kinds == 6;
        cover.blocks += in.blocks >= 8;
    }
    printf("random: %ld puzzles, %ld puzzle-styles compared (%ld skipped as too large), "
           "%ld configurations; solved %ld, in 0 moves %ld, unsolvable %ld, both ways %ld; "
           "runs in the least budget %ld, that dropped levels %ld; hints %ld (wider than 32 bits %ld); "
           "partial stops %ld, several %ld\n",
           drawn, st.compared, st.skipped, st.configs, st.solved, st.zero, st.unsolved, st.bidir,
           st.budgets, st.dropped, st.hinted, st.wide, st.partial, st.several);
    printf("random: puzzle-styles also run with levels on disk %ld\n", st.disk);
    if (st.disk > 0)
        t_passed++;
    else
        T_FAIL_AT("no puzzle-style was run with levels on disk");
    printf("random: puzzles with pieces in parts %d, unused kinds %d, six kinds %d, 8+ blocks %d, "
           "full boards %ld, nearly empty %ld, x cells %ld, up to 3 cells %ld, 30+ cells %ld, "
           "walked stops %d, placed stops %d, the start as a stop %d, axis locks %d\n",
           cover.disconnected, cover.unused_kind, cover.kinds, cover.blocks, full, nearly_empty, xboards,
           tiny, big, cover.walked, cover.placed, cover.at_start, cover.locked);
    if (n < 200)
        return;
    /* the generator reaches every case it is meant to */
    CHECK(cover.disconnected > 0 && cover.unused_kind > 0 && cover.kinds > 0 && cover.blocks > 0);
    CHECK(full > 0 && nearly_empty > 0 && xboards > 0 && tiny > 0 && big > 0);
    CHECK(cover.walked > 0 && cover.placed > 0 && cover.at_start > 0 && cover.locked > 0);
    CHECK(st.solved > 0 && st.zero > 0 && st.unsolved > 0 && st.bidir > 0);
    CHECK(st.dropped > 0 && st.wide > 0 && st.partial > 0 && st.several > 0);
    CHECK(st.skipped < st.compared / 3); /* most puzzles are small enough to compare */
}

/* test_random_slide --emit DIR N SEED: write N random puzzles whose
 * components are small in every style to DIR/NNN.txt, for the command-line
 * tests (tests/cli/test_random.sh). */
static int emit(const char *dir, long n, long seed)
{
    static char text[SG_MAXTEXT], path[4096];
    static so_puzzle P;
    sg_info in;
    for (long i = 0, made = 0; made < n; i++) {
        sg_src r = {(uint64_t)(seed + i), NULL, 0, 0};
        if (sg_puzzle(&r, text, &in) || so_parse(&P, text))
            continue;
        int names[SO_MAXN], ids[SO_MAXN], small = 1;
        char b[SO_MAXN];
        so_fill(&P, P.start, names, ids);
        so_board(&P, names, b);
        for (int s = 0; s < 6 && small; s++) {
            so_census z;
            small = so_run_census(&z, &P, s, b, NULL, 500, MAXSETS) == NULL;
            so_census_free(&z);
        }
        if (!small)
            continue;
        snprintf(path, sizeof path, "%s/%03ld.txt", dir, made++);
        FILE *f = fopen(path, "w");
        if (!f || fputs(text, f) < 0 || fclose(f)) {
            perror(path);
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && !strcmp(argv[1], "--emit"))
        return emit(argv[2], atol(argv[3]), atol(argv[4]));
    /* the engine with levels on disk keeps them in a folder of its own */
    const char *t = getenv("TMPDIR");
    char disk[512];
    snprintf(disk, sizeof disk, "%s/sbfs-random.XXXXXX", t && *t ? t : "/tmp");
    sd_disk_dir = mkdtemp(disk);
    if (!sd_disk_dir)
        T_FAIL_AT("cannot make a folder for levels on disk");
    RUN(test_wide_hints);
    RUN(test_fixed);
    RUN(test_bundled);
    RUN(test_random);
    if (sd_disk_dir)
        rmdir(sd_disk_dir);
    return TEST_END();
}
