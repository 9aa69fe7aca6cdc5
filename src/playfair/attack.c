/* The dictionary attack on Playfair.
 *
 * The question.  A ciphertext of n letters (n even) was made by preparing a
 * message of dictionary words (J read as I, an X inserted inside a would-be
 * pair of equal letters, an X to complete the last pair) and enciphering it
 * with the matrix of a dictionary keyword.  Which keyword, which words?
 *
 * The score.  Every keyword "explains" a text if single letters are words,
 * and a real word list has all 26 of them, so being splittable into words
 * proves nothing.  We take the reading with the fewest words.  That is the
 * most probable reading when the words of a message are drawn independently
 * and uniformly from a dictionary of N words: a reading of k words has
 * probability N^-k, so fewer words is better by a factor N for each word,
 * and two readings with equally many words are equally probable.  That last
 * fact is why ties are reported, never broken silently: two plaintexts with
 * the same fewest number of words (from two matrices, or two splits of the
 * same letters, or two dictionary spellings differing in I and J) make the
 * answer "ambiguous".
 *
 * The search.  Finding the keyword means refuting every other one: proving
 * that its matrix needs more words than the best.  A deciphered text that
 * needs k words has its letters cut into k pieces, each piece a dictionary
 * word; in particular each piece is a substring of a dictionary word, and so
 * is each window of four letters inside a piece.  Call a string "4-local" if
 * all of its substrings of length <= 4 occur inside dictionary words.  The
 * least number of 4-local pieces a text can be cut into is a lower bound on
 * its number of words, and because 4-locality is inherited by substrings
 * the greedy cut (extend the current piece while its last four letters occur
 * in the dictionary, cut otherwise) attains that least number.  Greedy cuts
 * need only the last three letters of the current piece and a bitmap of the
 * dictionary's four-letter substrings (five bits a letter: 2^20 bits =
 * 128 KB), and they work letter by letter, so a bound on the words of a
 * whole text grows as its pairs are deciphered.  Random letters (what a wrong matrix gives) need a
 * cut every two or three letters (16 pieces for 40 random letters, against
 * 26 words for the best real parse of them); real words run to eight or
 * nine letters.
 *
 * Best-first over all matrices.  Every matrix has a bound (0: not started).
 * A sweep with limit g takes, in memory order, each matrix whose bound is at
 * most g and deciphers it pair by pair until its bound passes g, or its text
 * ends: the exact parse below then gives its true number of words c >= its
 * bound, and its reading is weighed against the answer so far (spelled
 * there and then: no reading is parsed again to be weighed).  The next
 * sweep's limit is the least bound left.  Once the least c is below every
 * bound left, no matrix can do better than c words and every matrix that
 * does exactly as well has been weighed: the answer and its ties are known
 * exactly.  The first limit is a guess (a word for every ten letters, plus
 * one) so that most matrices are refuted in one visit; a matrix is never
 * deciphered from the start twice, because its state (pairs done, the
 * piece's last letters, the bound) travels with it in the live list between
 * sweeps.
 *
 * The screen.  Before any matrix is deciphered pair by pair, screen.c
 * gives every matrix a cheaper lower bound (bad trigrams, window of 32
 * letters after window), sixteen or more matrices at a time in vector
 * registers; only the matrices it cannot refute at the first limit enter
 * the search (about 2% of them), the others wait outside with their bound
 * and join when the limit reaches it.  The first sweep runs behind the
 * screen chunk by chunk, so the records of the kept matrices are still in
 * the cache when they are deciphered.
 *
 * Inserted X's.  In the deciphered letters an X in the second place of a pair
 * may be an inserted one if the letters around it are equal (TH EX E... may
 * be THEE) or if it ends the text (padding).  The exact parse tries both
 * readings.  The bound treats such an X as a free cut: the pieces on its two
 * sides may merge, so it counts one piece fewer than the greedy cuts of the
 * two sides would, which never overestimates either reading.
 *
 * The exact parse of a whole deciphered text is a shortest path over the n+1
 * boundaries between letters: an edge for every dictionary word that starts
 * at a boundary (found by walking a trie of the J-folded dictionary, taking
 * or skipping each removable X inside the word), and an edge of cost 0 over
 * a removable X between words.  Counting the shortest paths (up to 2) tells
 * whether the reading of that matrix is unique. */
#include "pf_internal.h"
#include "../core/internal.h"
#include "../core/pool.h"

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The first sweep's limit is letters / GUESS_DIV + 1 (up to GUESS_LONG
 * letters).  Measured on random
 * messages of 1-8 words of the system list: 6 and 8 refute too little in
 * the first sweep, 14 and more need extra sweeps; 10 was fastest. */
#define GUESS_DIV 10
/* Above 64 letters the screen looks window after window until a matrix's
 * bound passes the limit, so a limit below the answer costs a join (and
 * the next windows of the matrices that join) per sweep, one above it only
 * the extra windows: a word for every eight letters was fastest on 5-40
 * word messages (7.3 to 10 letters a word, with the X's), also once the
 * windows went on where they stopped (9 and 10 were slower). */
#define GUESS_DIV_LONG 8
#define GUESS_LONG 64

/* Offsets in sb_playfair.gram of the strings of 1, 2, 3, 4 letters, each
 * string read as a number with five bits per letter (so that appending a
 * letter is a shift and an or, and dropping the oldest of four a mask). */
#define GOFF(len) ((len) == 0 ? 0u : (len) == 1 ? 32u : (len) == 2 ? 1056u : 33824u)
static const unsigned goff[4] = {GOFF(0), GOFF(1), GOFF(2), GOFF(3)};

typedef struct pf_node {
    int32_t child, sibling; /* first child, next sibling: -1 if none */
    int32_t word;           /* first dictionary word ending here, -1 if none */
    uint8_t letter;         /* letter index on the edge into this node */
    uint8_t variants;       /* distinct spellings ending here (I/J), max 2 */
} pf_node;

/* The trie once built, laid out breadth first: a node's children are
 * consecutive, in letter order, so the child for letter x is found with a
 * popcount instead of a walk along siblings scattered in memory. */
typedef struct pf_tnode {
    int32_t first;    /* index of the first child */
    uint32_t mask;    /* bit x: a child for letter x */
    int32_t word;     /* first dictionary word ending here, -1 if none */
    uint32_t variants; /* distinct spellings ending here (I/J), max 2 */
} pf_tnode;

/* A matrix still in the search and the state of its greedy cut.  The
 * entries sit in a dense array that each sweep reads and compacts in
 * order, so the state of a matrix travels with it. */
typedef struct pf_live {
    uint32_t mat;   /* the matrix */
    uint16_t bound; /* greedy pieces so far (0: not started) */
    uint16_t k;     /* pairs deciphered */
    uint16_t win;   /* last (up to 3) letters of the current piece, base 32 */
    uint8_t len;    /* letters of the current piece, capped at 3; 0: the
                       next letter begins a piece already counted */
    uint8_t prev;   /* first letter of the last pair deciphered */
    uint8_t pend;   /* second letter of the last pair is an X not yet fed */
    uint8_t pad[3];
} pf_live;

_Static_assert(sizeof(pf_live) == 16, "four entries a cache line");

/* Matrices screened and then searched at a time: their records (64 KB)
 * are still in the cache when the search deciphers the few the screen
 * kept. */
#define CHUNK 1024

/* The first look of a message is shared out in chunks: each thread takes
 * the next chunk not yet taken (an atomic counter), screens it and marks it
 * screened; the caller's thread also searches the screened chunks, in
 * order.  A fixed split would make the caller wait whenever the other
 * thread starts late (waking a sleeping thread costs 0.1 ms or more on a
 * busy machine, as much as 15 chunks) or runs slower; taking chunks as they
 * come lets the caller screen what the other has not reached.
 *
 * Once the search has found a reading of c words, a chunk screened after
 * that is screened at limit c instead of the first guess (glim), as the
 * search itself then goes no further than c: a matrix needs only a bound
 * above c to be out, and a chunk screened earlier at the higher guess has
 * kept nothing that ties or beats c which the lower limit would drop.  So
 * the answers are those of one thread; the counts (pairs deciphered, texts
 * parsed) are too with one thread, while with two they depend on which
 * chunks the helper screened before the answer turned up. */
typedef struct pf_chunk {
    atomic_int done; /* screened: nkept and minout are set (release) */
    unsigned minout; /* least bound of the matrices screened out */
    size_t nkept;    /* matrices kept, in the chunk's slot of pf_job.kept */
} pf_chunk;

/* The slots of the kept matrices: CHUNK + 16 a chunk, since the vector
 * screen stores 16 numbers at a time past the last kept one. */
#define SLOT (CHUNK + 16)

/* The later looks at the matrices that join the search (pf_screen_more)
 * are shared out the same way, PIECE of them a task when they are many. */
#define PIECE (CHUNK / 2)

typedef struct pf_job {
    pf_screen sc;        /* the message; rec, nmat, lower for all matrices */
    int level;           /* pf_screen_run's level, or PF_SCREEN_OFF */
    int more;            /* 0: the first look by chunks; 1: later looks by pieces */
    size_t nchunk;       /* chunks of matrices (chunk[] has 2 * nchunk entries) */
    size_t ntask;        /* tasks of this job: nchunk, or the pieces */
    size_t nmore;        /* later looks: the matrices in sc.alive */
    atomic_size_t next;  /* the next task to take */
    atomic_uint glim;    /* the least words of a reading found (first look) */
    pf_chunk *chunk;     /* per task */
    uint32_t *kept;      /* chunk c's kept matrices at c * SLOT, from c * CHUNK */
} pf_job;

/* A second thread that takes chunks of the first look with the caller's;
 * between jobs it spins a while, then sleeps (helper_idle).  state is the
 * handshake: the caller
 * posts a job (IDLE -> POSTED) and ends it either by taking it back before
 * the helper has begun (POSTED -> IDLE: the caller did every chunk) or by
 * waiting for RUNNING -> DONE; only then does it touch the job again. */
typedef struct pf_helper {
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    atomic_int state;    /* HELP_* */
    atomic_int sleeping; /* waiting on cv: the caller must signal it */
    pf_job *job;
} pf_helper;

enum { HELP_IDLE, HELP_POSTED, HELP_RUNNING, HELP_DONE, HELP_QUIT };

/* A word being read: begun at boundary j0, at trie node `at`, x of its
 * letters so far X's that could be inserted ones. */
typedef struct pf_wstate {
    int32_t j0, at, x;
} pf_wstate;

struct sb_playfair {
    sb_mem own, *mem;
    char *pool;               /* the distinct words, upper case, NUL-ended */
    size_t poolsz;
    uint32_t *woff;           /* offset of each word in pool */
    size_t nwords;
    pf_node *node;            /* the trie of J-folded words while it is built */
    size_t nnode, nodecap;
    pf_tnode *trie;           /* the same trie, packed (node 0 the root) */
    /* Which strings of 0..4 letters occur inside dictionary words, one
     * bitmap: bit GOFF(len) + (string in base 32) for the strings of len+1
     * letters.  The 25 bits for len 0 are all set (any letter may begin a
     * piece). */
    uint8_t gram[(GOFF(3) + (1u << 20) + 7) / 8];
    uint32_t *key;            /* word index of the first keyword of each matrix */
    size_t nmat;
    uint16_t enc[625], dec[625];
    /* dec on the record's cells (row << 3 | col): (a << 6 | b) -> a' << 8 | b' */
    uint16_t dec64[4096];
    /* Each distinct matrix as a 64-byte record (pf_screen_record: the cell
     * of each letter, the letter of each cell), 16 blank ones after. */
    void *recraw;
    size_t recrawsz;
    uint8_t *rec;
    /* The screen (screen.c): the dictionary's trigrams, and which
     * implementation runs (PF_SCREEN_*). */
    uint8_t tri[PF_TRI_BYTES];
    unsigned span; /* letters a word covers at most: its own and its X's */
    int screen;
    uint8_t screenwork[PF_SCREEN_WORK];
    /* scratch of one crack */
    uint8_t *ct, *pt;         /* cipher letters, deciphered letters */
    int32_t *cost, *kx, *bj, *bw; /* exact parse: per boundary */
    pf_live *live;            /* matrices still in the search, in order */
    pf_job job;               /* the first look, shared out by chunks */
    pf_helper *help;          /* the helper thread, once started */
    int threads;              /* threads a crack may use: 1 or 2 */
    uint32_t *kept;           /* the ones the screen kept of a chunk */
    uint8_t *lower;           /* each matrix's screen bound */
    uint8_t *seen;            /* the screen's windows that bound covers */
    pf_wstate *walks[2];      /* exact()'s words open at a letter, at the next */
    size_t walkcap[2];
    uint8_t *ways;
    size_t cap;               /* letters the scratch arrays hold */
    char *out, *alt;          /* the answer, a rival's reading */
    size_t outcap;
};

static int grow(sb_playfair *pf, void **p, size_t *have, size_t need, size_t elt, sb_error *err)
{
    size_t n = *have ? *have : 16;
    void *q;
    if (need <= *have)
        return 0;
    while (n < need)
        n *= 2;
    q = sb_mem_realloc(pf->mem, *p, *have * elt, n * elt, err);
    if (!q)
        return SB_ENOMEM;
    *p = q, *have = n;
    return 0;
}

static inline int bit(const uint8_t *b, unsigned i)
{
    return b[i >> 3] >> (i & 7) & 1;
}

static inline void setbit(uint8_t *b, unsigned i)
{
    b[i >> 3] |= (uint8_t)(1u << (i & 7));
}

static int32_t find_child(const pf_node *nd, int32_t at, unsigned x)
{
    for (int32_t c = nd[at].child; c >= 0; c = nd[c].sibling)
        if (nd[c].letter == x)
            return c;
    return -1;
}

static inline int32_t trie_child(const pf_tnode *t, int32_t at, unsigned x)
{
    uint32_t m = t[at].mask;
    if (!(m >> x & 1))
        return -1;
    return t[at].first + __builtin_popcount(m & ((1u << x) - 1));
}

/* Lay the built trie out again breadth first (pf_tnode). */
static int trie_pack(sb_playfair *pf, sb_error *err)
{
    size_t head = 0, tail = 1;
    int32_t *order = malloc(pf->nnode * sizeof *order);
    if (!order || !(pf->trie = sb_mem_alloc(pf->mem, pf->nnode * sizeof *pf->trie, err))) {
        free(order);
        return order ? SB_ENOMEM : sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
    }
    order[0] = 0;
    for (; head < tail; head++) {
        const pf_node *o = &pf->node[order[head]];
        int32_t kid[25];
        uint32_t mask = 0;
        for (int32_t c = o->child; c >= 0; c = pf->node[c].sibling)
            mask |= 1u << pf->node[c].letter, kid[pf->node[c].letter] = c;
        pf->trie[head] = (pf_tnode){(int32_t)tail, mask, o->word, o->variants};
        for (unsigned x = 0; x < 25; x++)
            if (mask >> x & 1)
                order[tail++] = kid[x];
    }
    free(order);
    sb_mem_free(pf->mem, pf->node, pf->nodecap * sizeof *pf->node);
    pf->node = NULL, pf->nodecap = 0;
    return 0;
}

/* Add word w (letters idx[0..len-1]) to the trie.  A second word with the
 * same J-folded letters is a second spelling unless it is the same word. */
static int trie_add(sb_playfair *pf, const uint8_t *idx, size_t len, uint32_t w, sb_error *err)
{
    int32_t at = 0;
    for (size_t i = 0; i < len; i++) {
        int32_t c = find_child(pf->node, at, idx[i]);
        if (c < 0) {
            if (grow(pf, (void **)&pf->node, &pf->nodecap, pf->nnode + 1, sizeof *pf->node, err))
                return SB_ENOMEM;
            c = (int32_t)pf->nnode++;
            pf->node[c] = (pf_node){-1, pf->node[at].child, -1, idx[i], 0};
            pf->node[at].child = c;
        }
        at = c;
    }
    if (pf->node[at].word < 0) {
        pf->node[at].word = (int32_t)w, pf->node[at].variants = 1;
    } else if (strcmp(pf->pool + pf->woff[pf->node[at].word], pf->pool + pf->woff[w]) != 0) {
        pf->node[at].variants = 2;
    }
    return 0;
}

static uint64_t mat_hash(const uint8_t *c)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < 25; i++)
        h = (h ^ c[i]) * 0x100000001b3ULL;
    return h ^ h >> 29;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Task c of the job: screen chunk c into its slot, or look again at piece
 * c of the joining matrices (kept in place, at its start); mark it done. */
static void job_task(pf_job *jb, size_t c)
{
    pf_screen s = jb->sc;
    pf_chunk *ch = &jb->chunk[c];
    size_t c0 = c * CHUNK, c1 = c0 + CHUNK < jb->sc.nmat ? c0 + CHUNK : jb->sc.nmat;
    if (jb->more) {
        size_t p0 = c * PIECE, np = jb->nmore - p0 < PIECE ? jb->nmore - p0 : PIECE;
        s.alive = jb->sc.alive + p0, ch->minout = UINT_MAX;
        ch->nkept = pf_screen_more(&s, jb->level, np, &ch->minout);
        atomic_store_explicit(&ch->done, 1, memory_order_release);
        return;
    }
    s.rec = jb->sc.rec + 64 * c0, s.nmat = c1 - c0, s.lower = jb->sc.lower + c0, s.seen = jb->sc.seen + c0;
    s.alive = jb->kept + c * SLOT;
    unsigned gl = atomic_load_explicit(&jb->glim, memory_order_relaxed);
    if (gl < s.g)
        s.g = gl;
    if (jb->level != PF_SCREEN_OFF) {
        ch->nkept = pf_screen_run(&s, jb->level, &ch->minout);
    } else {
        for (size_t i = 0; i < c1 - c0; i++)
            s.alive[i] = (uint32_t)i;
        ch->nkept = c1 - c0, ch->minout = UINT_MAX;
    }
    atomic_store_explicit(&ch->done, 1, memory_order_release);
}

/* The helper between jobs: asleep until a job is posted or it is told to
 * quit, after spinning a while (HELP_SPIN seconds): a crack of many
 * messages posts the next job within that time, and a sleeping thread
 * wakes late, so that the caller screens the first chunks alone.  The spin
 * yields the core every 64 turns, in case another process wants it:
 * spinning without that cost 10 to 20 ms a hundred messages when another
 * process kept a core busy. */
#define HELP_SPIN 2e-4

static int helper_idle(pf_helper *h)
{
    double t0 = sb_now();
    int st;
    for (unsigned i = 1;; i++) {
        st = atomic_load(&h->state);
        if (st == HELP_POSTED || st == HELP_QUIT)
            return st;
        if (i % 64)
            cpu_relax();
        else if (sb_now() - t0 < HELP_SPIN)
            sched_yield();
        else
            break;
    }
    pthread_mutex_lock(&h->mu);
    atomic_store(&h->sleeping, 1);
    while ((st = atomic_load(&h->state)) != HELP_POSTED && st != HELP_QUIT)
        pthread_cond_wait(&h->cv, &h->mu);
    atomic_store(&h->sleeping, 0);
    pthread_mutex_unlock(&h->mu);
    return st;
}

static void *helper_main(void *arg)
{
    pf_helper *h = arg;
    for (;;) {
        int st = helper_idle(h);
        size_t c;
        if (st == HELP_QUIT)
            break;
        if (!atomic_compare_exchange_strong(&h->state, &st, HELP_RUNNING))
            continue; /* taken back: the caller did every chunk */
        while ((c = atomic_fetch_add(&h->job->next, 1)) < h->job->ntask)
            job_task(h->job, c);
        atomic_store_explicit(&h->state, HELP_DONE, memory_order_release);
    }
    return NULL;
}

/* The helper, started on first use; NULL (one thread) if it cannot be. */
static pf_helper *helper(sb_playfair *pf)
{
    pf_helper *h = pf->help;
    if (h || pf->threads < 2)
        return h;
    if (!(h = calloc(1, sizeof *h)))
        return NULL;
    atomic_init(&h->state, HELP_IDLE);
    atomic_init(&h->sleeping, 0);
    h->job = &pf->job;
    if (pthread_mutex_init(&h->mu, NULL) != 0)
        goto nomutex;
    if (pthread_cond_init(&h->cv, NULL) != 0)
        goto nocond;
    if (pthread_create(&h->th, NULL, helper_main, h) != 0)
        goto nothread;
    return pf->help = h;
nothread:
    pthread_cond_destroy(&h->cv);
nocond:
    pthread_mutex_destroy(&h->mu);
nomutex:
    free(h);
    pf->threads = 1;
    return NULL;
}

/* Set the helper's state to st (POSTED or QUIT), waking it if it sleeps.
 * Both sides write their flag, then read the other's (sequentially
 * consistent): either the helper sees st before it sleeps, or the caller
 * sees that it sleeps and signals under the mutex. */
static void helper_tell(pf_helper *h, int st)
{
    atomic_store(&h->state, st);
    if (atomic_load(&h->sleeping)) {
        pthread_mutex_lock(&h->mu);
        pthread_cond_broadcast(&h->cv);
        pthread_mutex_unlock(&h->mu);
    }
}

/* Wait for a flag the other thread sets soon (it is screening a chunk):
 * spin, yielding now and then in case it waits for this core. */
static void await_flag(atomic_int *f, int v)
{
    for (unsigned i = 1; atomic_load_explicit(f, memory_order_acquire) != v; i++) {
        if (i % 256 == 0)
            sched_yield();
        else
            cpu_relax();
    }
}

/* End the helper's part in the job: take it back if not begun, else wait
 * until it has finished its last chunk. */
static void helper_end(pf_helper *h)
{
    int st = HELP_POSTED;
    if (atomic_compare_exchange_strong(&h->state, &st, HELP_IDLE))
        return;
    await_flag(&h->state, HELP_DONE);
    atomic_store_explicit(&h->state, HELP_IDLE, memory_order_relaxed);
}

static void helper_stop(pf_helper *h)
{
    helper_tell(h, HELP_QUIT);
    pthread_join(h->th, NULL);
    pthread_cond_destroy(&h->cv);
    pthread_mutex_destroy(&h->mu);
    free(h);
}

int sb_playfair_threads(sb_playfair *pf, int n)
{
    if (!pf)
        return SB_EUSAGE;
    if (pf->help && n < 2)
        helper_stop(pf->help), pf->help = NULL;
    pf->threads = n < 2 ? 1 : 2;
    return pf->threads;
}

/* Free the arrays whose size depends on the matrices alone (those that
 * scratch takes once); any of them may be missing. */
static void free_fixed(sb_playfair *pf)
{
    sb_mem *m = pf->mem;
    sb_mem_free(m, pf->live, pf->nmat * sizeof *pf->live);
    sb_mem_free(m, pf->job.kept, pf->job.nchunk * SLOT * sizeof *pf->job.kept);
    sb_mem_free(m, pf->job.chunk, 2 * pf->job.nchunk * sizeof *pf->job.chunk);
    sb_mem_free(m, pf->kept, (pf->nmat + 16) * sizeof *pf->kept);
    sb_mem_free(m, pf->lower, pf->nmat + 1);
    sb_mem_free(m, pf->seen, pf->nmat + 1);
    pf->live = NULL, pf->job.kept = NULL, pf->job.chunk = NULL, pf->kept = NULL;
    pf->lower = NULL, pf->seen = NULL;
}

void sb_playfair_free(sb_playfair *pf)
{
    sb_mem *m;
    if (!pf)
        return;
    if (pf->help)
        helper_stop(pf->help);
    m = pf->mem;
    sb_mem_free(m, pf->pool, pf->poolsz);
    sb_mem_free(m, pf->woff, pf->nwords * sizeof *pf->woff);
    sb_mem_free(m, pf->node, pf->nodecap * sizeof *pf->node);
    sb_mem_free(m, pf->trie, pf->trie ? pf->nnode * sizeof *pf->trie : 0);
    sb_mem_free(m, pf->recraw, pf->recrawsz);
    sb_mem_free(m, pf->key, pf->key ? pf->nwords * sizeof *pf->key : 0);
    sb_mem_free(m, pf->ct, pf->cap);
    sb_mem_free(m, pf->pt, pf->cap);
    sb_mem_free(m, pf->ways, pf->cap + 2);
    int32_t **arr[] = {&pf->cost, &pf->kx, &pf->bj, &pf->bw};
    for (size_t i = 0; i < sizeof arr / sizeof *arr; i++)
        sb_mem_free(m, *arr[i], (pf->cap + 2) * sizeof(int32_t));
    free_fixed(pf);
    for (int i = 0; i < 2; i++)
        sb_mem_free(m, pf->walks[i], pf->walkcap[i] * sizeof *pf->walks[i]);
    sb_mem_free(m, pf->out, pf->outcap);
    sb_mem_free(m, pf->alt, pf->outcap);
    free(pf);
}

sb_playfair *sb_playfair_new(const char *const *words, size_t n, sb_mem *mem, sb_error *err)
{
    return sb_playfair_new_square(words, n, SB_PLAYFAIR_COLUMNS, mem, err);
}

sb_playfair *sb_playfair_new_square(const char *const *words, size_t n, int order, sb_mem *mem, sb_error *err)
{
    sb_playfair *pf;
    size_t total = 0, at = 0, slots, span;
    int32_t *table = NULL;
    uint8_t idx[256];
    if (!words && n) {
        sb_error_set(err, SB_EUSAGE, 0, 0, "sb_playfair_new: words is NULL");
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        if (!words[i]) {
            sb_error_set(err, SB_EUSAGE, i + 1 > INT_MAX ? 0 : (int)(i + 1), 0,
                         "sb_playfair_new: word %zu is NULL", i + 1);
            return NULL;
        }
    pf = calloc(1, sizeof *pf);
    if (!pf) {
        sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
        return NULL;
    }
    if (order != SB_PLAYFAIR_COLUMNS && order != SB_PLAYFAIR_ROWS) {
        free(pf);
        sb_error_set(err, SB_EUSAGE, 0, 0, "square: order %d is neither columns nor rows", order);
        return NULL;
    }
    sb_mem_init(&pf->own, 0);
    pf->mem = mem ? mem : &pf->own;
    pf_pair_tables(pf->enc, pf->dec);
    for (unsigned a = 0; a < 25; a++)
        for (unsigned b = 0; b < 25; b++) {
            unsigned d = pf->dec[a * 25 + b], d0 = d >> 8, d1 = d & 255;
            pf->dec64[(a / 5 << 3 | a % 5) << 6 | (b / 5 << 3 | b % 5)] =
                (uint16_t)((d0 / 5 << 3 | d0 % 5) << 8 | (d1 / 5 << 3 | d1 % 5));
        }
    for (unsigned c = 0; c < 25; c++)
        setbit(pf->gram, GOFF(0) + c);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(words[i]);
        if (len == 0 || len > 255) {
            sb_error_set(err, SB_EINPUT, (int)(i + 1 < INT_MAX ? i + 1 : INT_MAX), 0,
                         len ? "dictionary word longer than 255 letters" : "empty dictionary word");
            goto fail;
        }
        for (size_t j = 0; j < len; j++) {
            unsigned char c = (unsigned char)words[i][j];
            if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) {
                sb_error_set(err, SB_EINPUT, (int)(i + 1 < INT_MAX ? i + 1 : INT_MAX), (int)j + 1,
                             "dictionary word holds '%c', not a letter", c);
                goto fail;
            }
        }
        total += len + 1;
    }
    if (n == 0) {
        sb_error_set(err, SB_EINPUT, 0, 0, "empty dictionary");
        goto fail;
    }
    if (n >= INT32_MAX / 2) {
        sb_error_set(err, SB_EINPUT, 0, 0, "dictionary too large");
        goto fail;
    }
    /* Words in upper case, the trie, the substring bitmaps. */
    if (!(pf->pool = sb_mem_alloc(pf->mem, total, err)))
        goto fail;
    pf->poolsz = total;
    if (!(pf->woff = sb_mem_alloc(pf->mem, n * sizeof *pf->woff, err)))
        goto fail;
    pf->nwords = n;
    if (grow(pf, (void **)&pf->node, &pf->nodecap, 1024, sizeof *pf->node, err))
        goto fail;
    pf->node[0] = (pf_node){-1, -1, -1, 0, 0};
    pf->nnode = 1;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(words[i]);
        char *w = pf->pool + at;
        pf->woff[i] = (uint32_t)at;
        for (size_t j = 0; j < len; j++) {
            char c = words[i][j];
            w[j] = (char)(c >= 'a' ? c - 'a' + 'A' : c);
            idx[j] = (uint8_t)pf_index(c);
        }
        w[len] = 0;
        at += len + 1;
        span = len;
        for (size_t j = 0; j + 1 < len; j++) /* an X may stand between two equal letters */
            span += idx[j] == idx[j + 1];
        if (span > pf->span)
            pf->span = (unsigned)span;
        if (trie_add(pf, idx, len, (uint32_t)i, err))
            goto fail;
        pf_screen_addword(pf->tri, idx, len);
        for (size_t j = 0; j + 1 < len; j++) {
            unsigned v = (unsigned)idx[j] << 5 | idx[j + 1];
            setbit(pf->gram, GOFF(1) + v);
            if (j + 2 < len) {
                v = v << 5 | idx[j + 2];
                setbit(pf->gram, GOFF(2) + v);
                if (j + 3 < len)
                    setbit(pf->gram, GOFF(3) + (v << 5 | idx[j + 3]));
            }
        }
    }
    if (trie_pack(pf, err))
        goto fail;
    /* The distinct matrices of all keywords, in dictionary order. */
    for (slots = 1024; slots < 2 * n; slots *= 2)
        ;
    if (!(table = malloc(slots * sizeof *table))) {
        sb_error_set(err, SB_ENOMEM, 0, 0, "out of memory");
        goto fail;
    }
    /* rec[] and key[] are charged for n entries; nmat counts up to at most n */
    if (!(pf->recraw = sb_mem_alloc(pf->mem, (n + 16) * 64 + 64, err)))
        goto fail;
    pf->recrawsz = (n + 16) * 64 + 64; /* 16 blank records after the last */
    pf->rec = (uint8_t *)(((uintptr_t)pf->recraw + 63) & ~(uintptr_t)63);
    if (!(pf->key = sb_mem_alloc(pf->mem, n * sizeof *pf->key, err)))
        goto fail;
    memset(table, 0xff, slots * sizeof *table);
    for (size_t i = 0; i < n; i++) {
        uint8_t cell[25], *r = pf->rec + 64 * pf->nmat;
        size_t h;
        pf_square_idx(pf->pool + pf->woff[i], order, cell, NULL);
        pf_screen_record(cell, r);
        for (h = mat_hash(cell) & (slots - 1); table[h] >= 0; h = (h + 1) & (slots - 1))
            if (memcmp(pf->rec + 64 * (size_t)table[h], r, 64) == 0)
                break;
        if (table[h] >= 0)
            continue;
        table[h] = (int32_t)pf->nmat;
        pf->key[pf->nmat++] = (uint32_t)i;
    }
    memset(pf->rec + 64 * pf->nmat, 0, 64);
    free(table);
    table = NULL;
    pf->screen = pf_screen_level();
    pf->threads = sb_pool_threads(0) > 1 ? 2 : 1;
    return pf;
fail:
    free(table);
    sb_playfair_free(pf);
    return NULL;
}

size_t sb_playfair_words(const sb_playfair *pf)
{
    return pf ? pf->nwords : 0;
}

unsigned sb_playfair_span(const sb_playfair *pf)
{
    return pf ? pf->span : 0;
}

int sb_playfair_screen(sb_playfair *pf, int level)
{
    int best;
    if (!pf)
        return SB_EUSAGE;
    best = pf_screen_level();
    pf->screen = level <= SB_PLAYFAIR_SCREEN_OFF      ? PF_SCREEN_OFF
                 : level == SB_PLAYFAIR_SCREEN_SCALAR ? PF_SCREEN_SCALAR
                                                      : best;
    return pf->screen;
}

size_t sb_playfair_matrices(const sb_playfair *pf)
{
    return pf ? pf->nmat : 0;
}

/* Room for a ciphertext of n letters in every scratch array. */
static int scratch(sb_playfair *pf, size_t n, sb_error *err)
{
    size_t old = pf->cap, want, nchunk = (pf->nmat + CHUNK - 1) / CHUNK;
    int32_t **arr[] = {&pf->cost, &pf->kx, &pf->bj, &pf->bw};
    if (n <= old && 2 * n + 2 <= pf->outcap)
        return 0;
    if (!old) {
        /* all or none: a crack that finds the budget short leaves nothing
         * charged that the next one would take again */
        pf->job.nchunk = nchunk;
        if (!(pf->live = sb_mem_alloc(pf->mem, pf->nmat * sizeof *pf->live, err)) ||
            !(pf->job.kept = sb_mem_alloc(pf->mem, nchunk * SLOT * sizeof *pf->job.kept, err)) ||
            !(pf->job.chunk = sb_mem_alloc(pf->mem, 2 * nchunk * sizeof *pf->job.chunk, err)) ||
            !(pf->kept = sb_mem_alloc(pf->mem, (pf->nmat + 16) * sizeof *pf->kept, err)) ||
            !(pf->lower = sb_mem_alloc(pf->mem, pf->nmat + 1, err)) ||
            !(pf->seen = sb_mem_alloc(pf->mem, pf->nmat + 1, err))) {
            free_fixed(pf);
            return SB_ENOMEM;
        }
    }
    for (want = old ? old : 256; want < n; want *= 2)
        ;
    for (size_t i = 0; i < sizeof arr / sizeof *arr; i++) {
        void *q = sb_mem_realloc(pf->mem, *arr[i], old ? (old + 2) * sizeof(int32_t) : 0,
                                 (want + 2) * sizeof(int32_t), err);
        if (!q)
            return SB_ENOMEM;
        *arr[i] = q;
    }
    {
        void *a = sb_mem_realloc(pf->mem, pf->ct, old, want, err);
        if (!a)
            return SB_ENOMEM;
        pf->ct = a;
        a = sb_mem_realloc(pf->mem, pf->pt, old, want, err);
        if (!a)
            return SB_ENOMEM;
        pf->pt = a;
        a = sb_mem_realloc(pf->mem, pf->ways, old ? old + 2 : 0, want + 2, err);
        if (!a)
            return SB_ENOMEM;
        pf->ways = a;
        a = sb_mem_realloc(pf->mem, pf->out, pf->outcap, 2 * want + 2, err);
        if (!a)
            return SB_ENOMEM;
        pf->out = a;
        a = sb_mem_realloc(pf->mem, pf->alt, pf->outcap, 2 * want + 2, err);
        if (!a)
            return SB_ENOMEM;
        pf->alt = a;
        pf->outcap = 2 * want + 2;
    }
    pf->cap = want;
    return 0;
}

/* ---- the exact parse ---------------------------------------------------- */

typedef struct parse {
    sb_playfair *pf;
    const uint8_t *t; /* deciphered letters */
    size_t n;
} parse;

/* May the letter at p be an inserted X (between equal letters, or padding)? */
static inline int removable(const parse *ps, size_t p)
{
    return (p & 1) && ps->t[p] == PF_X && (p + 1 == ps->n || ps->t[p + 1] == ps->t[p - 1]);
}

/* May the letter at p belong to the message?  Not the second letter of a
 * pair of equal letters: preparation never makes one, except XX (the
 * message had X X there and an X was put between them), whose second X is
 * then an inserted one. */
static inline int keepable(const parse *ps, size_t p)
{
    return !((p & 1) && ps->t[p] == ps->t[p - 1]);
}

/* A reading's cost is its number of words c, then its number x of X's that
 * could be inserted ones but are read as letters of words. */
static void relax(sb_playfair *pf, size_t j, int32_t c, int32_t x, unsigned w, int32_t from, int32_t word)
{
    if (c < pf->cost[j] || (c == pf->cost[j] && x < pf->kx[j])) {
        pf->cost[j] = c, pf->kx[j] = x, pf->ways[j] = (uint8_t)(w > 2 ? 2 : w);
        pf->bj[j] = from, pf->bw[j] = word;
    } else if (c == pf->cost[j] && x == pf->kx[j]) {
        unsigned s = pf->ways[j] + w;
        pf->ways[j] = (uint8_t)(s > 2 ? 2 : s);
    }
}

/* Room for need words in both of pf->walks. */
static int walk_room(sb_playfair *pf, size_t need, sb_error *err)
{
    for (int i = 0; i < 2; i++)
        if (grow(pf, (void **)&pf->walks[i], &pf->walkcap[i], need, sizeof(pf_wstate), err))
            return SB_ENOMEM;
    return 0;
}

/* Word w of the reading: the letters of ps->t at p extend it (into next,
 * *nn), after the reading that skips an X at p as an inserted one inside
 * the word (THEXE: the X inside THEE; never as its first or last letter,
 * which the boundary edge covers). */
static inline void step(const parse *ps, pf_wstate w, size_t p, pf_wstate *next, size_t *nn)
{
    sb_playfair *pf = ps->pf;
    const pf_tnode *nd = pf->trie;
    int32_t c;
    if ((size_t)w.j0 < p && removable(ps, p))
        next[(*nn)++] = w;
    if (!keepable(ps, p) || (c = trie_child(nd, w.at, ps->t[p])) < 0)
        return;
    w.x += removable(ps, p);
    if (nd[c].word >= 0)
        relax(pf, p + 1, pf->cost[w.j0] + 1, pf->kx[w.j0] + w.x, pf->ways[w.j0] * nd[c].variants, w.j0,
              nd[c].word);
    w.at = c;
    next[(*nn)++] = w;
}

/* Fewest words for matrix mi's reading of the ciphertext (n letters) into
 * *words, or -1 when no reading has at most cap words; *kept = the fewest
 * X's read as letters that could be inserted ones, among the readings with
 * that many words; *ways = number of readings with both, at most 2.
 * Boundaries reached with cap words or more start no word.  Returns 0, or
 * SB_ENOMEM.
 *
 * The words are read letter by letter, all those open at a letter
 * together: the walks down the trie from different boundaries do not wait
 * on each other's nodes, which are mostly outside the cache (one walk
 * after the other, waiting on each node in turn, took 5% of the crack on
 * long messages).  The order of the relaxations at each boundary is the
 * order of walking one word after the other (boundaries in order, a word
 * with an inserted X skipped before the same word taking it), so that the
 * reading kept among equals is the same. */
static int exact(sb_playfair *pf, size_t mi, size_t n, unsigned *ways, int32_t *kept, int32_t cap, int32_t *words,
                 sb_error *err)
{
    const uint8_t *r = pf->rec + 64 * mi;
    parse ps = {pf, pf->pt, n};
    size_t na = 0;
    for (size_t i = 0; i < n; i += 2) {
        uint16_t d = pf->dec64[(unsigned)r[pf->ct[i]] << 6 | r[pf->ct[i + 1]]];
        pf->pt[i] = r[PF_REC_CELL + (d >> 8)], pf->pt[i + 1] = r[PF_REC_CELL + (d & 255)];
    }
    for (size_t j = 0; j <= n; j++)
        pf->cost[j] = INT32_MAX, pf->ways[j] = 0;
    pf->cost[0] = 0, pf->kx[0] = 0, pf->ways[0] = 1, pf->bj[0] = -1;
    for (size_t p = 0; p < n; p++) {
        const pf_wstate *cur;
        pf_wstate *next;
        size_t nn = 0;
        if (walk_room(pf, 2 * na + 2, err)) /* each word goes on at most twice, one begins */
            return SB_ENOMEM;
        cur = pf->walks[p & 1], next = pf->walks[~p & 1];
        for (size_t q = 0; q < na; q++) /* the words begun before p */
            step(&ps, cur[q], p, next, &nn);
        if (pf->cost[p] <= cap) { /* boundary p: an inserted X, a word */
            if (removable(&ps, p))
                relax(pf, p + 1, pf->cost[p], pf->kx[p], pf->ways[p], (int32_t)p, -1);
            if (pf->cost[p] < cap)
                step(&ps, (pf_wstate){(int32_t)p, 0, 0}, p, next, &nn);
        }
        na = nn;
    }
    *ways = pf->ways[n], *kept = pf->kx[n];
    *words = pf->cost[n] == INT32_MAX ? -1 : pf->cost[n];
    return 0;
}

/* Words of the reading exact() just found, into out, last word first
 * (the back pointers run from the end). */
static void spell(sb_playfair *pf, size_t n, char *out)
{
    size_t total = 0;
    char *o;
    int last = 1;
    for (size_t j = n; j > 0; j = (size_t)pf->bj[j])
        if (pf->bw[j] >= 0)
            total += strlen(pf->pool + pf->woff[pf->bw[j]]) + 1;
    if (total == 0) {
        out[0] = 0;
        return;
    }
    o = out + total - 1;
    *o = 0;
    for (size_t j = n; j > 0; j = (size_t)pf->bj[j]) {
        const char *w;
        size_t l;
        if (pf->bw[j] < 0)
            continue;
        w = pf->pool + pf->woff[pf->bw[j]];
        l = strlen(w);
        if (!last)
            *--o = ' ';
        o -= l;
        memcpy(o, w, l);
        last = 0;
    }
}

/* ---- the search --------------------------------------------------------- */

/* The greedy piece automaton, one letter c, without branches: the window
 * (last letters of the piece, then c) either occurs in the dictionary and
 * the piece grows (keeping its last three letters), or a new piece begins
 * with c.  len 0 uses the all-ones strip, so c simply begins the piece. */
#define FEED(c)                                                                 \
    do {                                                                        \
        unsigned c_ = (c), w_ = win << 5 | c_;                                  \
        unsigned v_ = bit(gram, goff[len] + w_);                                \
        count += v_ ^ 1;                                                        \
        win = v_ ? w_ & 0x7fff : c_;                                            \
        len = v_ ? len + (len < 3) : 1;                                         \
    } while (0)

/* Decipher live matrix e further until its bound passes g or its text ends.
 * Returns the bound, or -1 if the matrix cannot explain the text. */
static int advance(const sb_playfair *pf, pf_live *e, unsigned g, size_t npairs, uint64_t *pairs)
{
    const uint8_t *r = pf->rec + 64 * (size_t)e->mat, *ct = pf->ct, *gram = pf->gram;
    const uint16_t *dec = pf->dec64;
    unsigned k = 0, count = 1, win = 0, len = 0, prev = 0, pend = 0, k0;
    if (e->bound)
        k = e->k, count = e->bound, win = e->win, len = e->len, prev = e->prev, pend = e->pend;
    k0 = k;
    while (k < npairs && count <= g) {
        uint16_t d = dec[(unsigned)r[ct[2 * k]] << 6 | r[ct[2 * k + 1]]];
        unsigned p0 = r[PF_REC_CELL + (d >> 8)], p1 = r[PF_REC_CELL + (d & 255)];
        if (pend) {
            pend = 0;
            if (p0 == prev)
                len = 0, win = 0; /* removable X: free cut */
            else if (prev == PF_X)
                return -1; /* XX pair whose second X cannot be inserted */
            else
                FEED(PF_X);
        }
        if (p0 == p1 && p1 != PF_X)
            return -1; /* a doubled pair no message prepares to */
        FEED(p0);
        if (p1 == PF_X)
            pend = 1;
        else
            FEED(p1);
        prev = p0, k++;
    }
    *pairs += k - k0;
    e->k = (uint16_t)k, e->bound = (uint16_t)count, e->win = (uint16_t)win;
    e->len = (uint8_t)len, e->prev = (uint8_t)prev, e->pend = (uint8_t)pend;
    return (int)count;
}

/* What a sweep knows: its limit, the least words of a finished matrix, the
 * least bound of the matrices it keeps; and the answer so far.  Among the
 * matrices with mindone words, the answer is the first of those whose
 * reading keeps the fewest X's that could be inserted ones (pick, fewest:
 * an X between equal letters or at the end is far more often a filler than
 * a letter of a word, SIMPLE ERROL rather than SIMPLEX ERROL when both have
 * two words), its reading in pf->out; ambiguous when another reading ties
 * on both counts, with its own matrix or another one's letters. */
typedef struct sweep {
    unsigned g, mindone, next;
    size_t n, npairs;
    int32_t pick, fewest;
    int ambiguous;
} sweep;

/* A matrix mat whose reading has c words (and x, ways as exact gives them,
 * its parse still in place) against the answer so far. */
static void answer(sb_playfair *pf, sweep *sw, uint32_t mat, unsigned c, int32_t x, unsigned ways)
{
    char *t;
    if (c > sw->mindone || (c == sw->mindone && x > sw->fewest))
        return;
    spell(pf, sw->n, pf->alt);
    if (c < sw->mindone || x < sw->fewest) {
        sw->mindone = c, sw->fewest = x, sw->ambiguous = ways > 1;
    } else {
        sw->ambiguous |= ways > 1 || strcmp(pf->alt, pf->out) != 0;
        if ((int32_t)mat > sw->pick)
            return;
    }
    sw->pick = (int32_t)mat;
    t = pf->out, pf->out = pf->alt, pf->alt = t;
}

/* One visit of a sweep to live matrix e: advance it if its bound allows.
 * Returns 1 if it stays in the search, 0 if not, or SB_ENOMEM. */
static int visit(sb_playfair *pf, pf_live *e, sweep *sw, sb_playfair_result *res, sb_error *err)
{
    unsigned lim = sw->g < sw->mindone ? sw->g : sw->mindone, w;
    int b;
    int32_t c, x;
    if (e->bound > lim) {
        if (e->bound > sw->mindone)
            return 0;
        if (e->bound < sw->next)
            sw->next = e->bound;
        return 1;
    }
    b = advance(pf, e, lim, sw->npairs, &res->pairs);
    if (b < 0)
        return 0;
    if ((unsigned)b > lim) {
        if ((unsigned)b < sw->next)
            sw->next = (unsigned)b;
        return 1;
    }
    /* A reading of more than lim words does not count in this sweep: the
     * matrix stays, with lim + 1 as its bound. */
    if (exact(pf, e->mat, sw->n, &w, &x, (int32_t)lim, &c, err))
        return SB_ENOMEM;
    res->parsed++;
    if (c < 0 && lim + 1 > UINT16_MAX) { /* no room for lim + 1: parse it all */
        if (exact(pf, e->mat, sw->n, &w, &x, INT32_MAX, &c, err))
            return SB_ENOMEM;
    } else if (c < 0) {
        if (lim >= sw->n) /* no reading has more words than letters */
            return 0;
        e->bound = (uint16_t)(lim + 1);
        if (lim + 1 < sw->next)
            sw->next = lim + 1;
        return 1;
    }
    if (c >= 0)
        answer(pf, sw, e->mat, (unsigned)c, x, w);
    return 0;
}

/* The first sweep's limit for a text of n letters. */
static unsigned first_guess(size_t n)
{
    return (unsigned)(n <= GUESS_LONG ? n / GUESS_DIV + 1 : n / GUESS_DIV_LONG + 1);
}

/* pf_screen_more on the nk matrices in s->alive, shared with the helper
 * by pieces when they are many; the same result in the same order. */
static size_t more_looks(sb_playfair *pf, const pf_screen *s, size_t nk, unsigned *least)
{
    pf_job *jb = &pf->job;
    pf_helper *help;
    size_t out = 0;
    if (nk < 2 * PIECE || jb->nchunk < 16 || !(help = helper(pf)))
        return pf_screen_more(s, pf->screen, nk, least);
    jb->sc = *s, jb->level = pf->screen, jb->more = 1, jb->nmore = nk;
    jb->ntask = (nk + PIECE - 1) / PIECE;
    atomic_store_explicit(&jb->next, 0, memory_order_relaxed);
    for (size_t c = 0; c < jb->ntask; c++)
        atomic_store_explicit(&jb->chunk[c].done, 0, memory_order_relaxed);
    helper_tell(help, HELP_POSTED);
    for (size_t c; (c = atomic_fetch_add(&jb->next, 1)) < jb->ntask;)
        job_task(jb, c);
    for (size_t c = 0; c < jb->ntask; c++) { /* the kept ones of each piece, in order */
        const pf_chunk *ch = &jb->chunk[c];
        await_flag(&jb->chunk[c].done, 1);
        memmove(s->alive + out, s->alive + c * PIECE, ch->nkept * sizeof *s->alive);
        out += ch->nkept;
        if (ch->minout < *least)
            *least = ch->minout;
    }
    helper_end(help);
    return out;
}

int sb_playfair_crack(sb_playfair *pf, const char *cipher, const sb_control *ctl,
                      sb_playfair_result *res, sb_error *err)
{
    size_t n = 0, len, npairs, nalive;
    unsigned minout = UINT_MAX, gin; /* the screen kept the bounds <= gin */
    sweep sw;
    pf_screen sc;
    pf_helper *help = NULL;
    pf_job *jb;
    int32_t best = -1;
    int rc;
    if (!pf || !cipher || !res)
        return sb_error_set(err, SB_EUSAGE, 0, 0, "sb_playfair_crack: %s is NULL",
                            !pf ? "pf" : !cipher ? "cipher" : "res");
    len = strlen(cipher);
    jb = &pf->job;
    memset(res, 0, sizeof *res);
    res->keyword = res->plaintext = "";
    if ((rc = scratch(pf, len + 2, err)))
        return rc;
    for (size_t i = 0; i < len; i++) {
        int x = pf_index(cipher[i]);
        if (x >= 0)
            pf->ct[n++] = (uint8_t)x;
    }
    if (n == 0)
        return sb_error_set(err, SB_ENOTFOUND, 0, 0, "no letters: nothing to decipher");
    if (n % 2)
        return sb_error_set(err, SB_ENOTFOUND, 0, 0,
                            "odd number of letters (%zu): not a Playfair ciphertext", n);
    if (n / 2 > UINT16_MAX)
        return sb_error_set(err, SB_EINPUT, 0, 0, "ciphertext longer than %u letters", 2 * UINT16_MAX);
    npairs = n / 2;
    gin = first_guess(n);
    /* Sweep g advances every matrix whose bound is at most g (bound 0: not
     * started) as far as g allows.  The first g is a guess at the answer
     * (real words average eight letters or so), which lets most matrices be
     * refuted in one visit; later sweeps take the least bound left.
     *
     * The first sweep goes chunk by chunk behind the screen: it screens
     * CHUNK matrices, then visits the ones kept, whose records are still in
     * the cache.  The matrices screened out wait (minout: their least
     * bound) and join the search when its limit reaches their bound. */
    nalive = 0;
    sw = (sweep){gin, UINT_MAX, UINT_MAX, n, npairs, -1, INT32_MAX, 0};
    sc = (pf_screen){pf->rec, pf->nmat, pf->tri, pf->ct, n, gin, pf->kept, pf->lower, pf->screenwork, pf->seen,
                    pf->span, {0}};
    if (pf->screen != PF_SCREEN_OFF)
        pf_screen_prepare(&sc, pf->screen);
    jb->sc = sc, jb->level = pf->screen, jb->more = 0, jb->ntask = jb->nchunk;
    atomic_store_explicit(&jb->next, 0, memory_order_relaxed);
    atomic_store_explicit(&jb->glim, UINT_MAX, memory_order_relaxed);
    for (size_t c = 0; c < jb->nchunk; c++)
        atomic_store_explicit(&jb->chunk[c].done, 0, memory_order_relaxed);
    /* With a second thread, it takes chunks too (posting publishes the
     * job); this thread searches every chunk, in order, once screened. */
    if (pf->screen != PF_SCREEN_OFF && jb->nchunk >= 16 && (help = helper(pf)))
        helper_tell(help, HELP_POSTED);
    for (size_t searched = 0; searched < jb->nchunk;) {
        size_t c;
        if (sb_control_stopped(ctl)) {
            rc = sb_error_set(err, SB_EINTR, 0, 0, "interrupted");
            atomic_store(&jb->next, jb->nchunk); /* the helper takes no more */
            break;
        }
        c = atomic_fetch_add(&jb->next, 1);
        if (c < jb->nchunk)
            job_task(jb, c);
        else /* all taken: the next to search is the helper's, nearly done */
            await_flag(&jb->chunk[searched].done, 1);
        for (; searched < jb->nchunk &&
               atomic_load_explicit(&jb->chunk[searched].done, memory_order_acquire);
             searched++) {
            const pf_chunk *ch = &jb->chunk[searched];
            const uint32_t *kept = jb->kept + searched * SLOT;
            size_t c0 = searched * CHUNK;
            if (ch->minout < minout)
                minout = ch->minout;
            for (size_t j = 0; j < ch->nkept; j++) {
                pf_live *e = &pf->live[nalive];
                if (j + 4 < ch->nkept)
                    __builtin_prefetch(pf->rec + 64 * (c0 + kept[j + 4]));
                *e = (pf_live){.mat = (uint32_t)c0 + kept[j]};
                if ((rc = visit(pf, e, &sw, res, err)) < 0)
                    break;
                nalive += (size_t)rc;
            }
            if (sw.mindone < gin) /* the chunks screened from now on */
                atomic_store_explicit(&jb->glim, sw.mindone, memory_order_relaxed);
            if (rc < 0)
                break;
        }
        if (rc < 0) {
            atomic_store(&jb->next, jb->nchunk);
            break;
        }
    }
    if (help) /* the helper must be done with lower[] and the slots */
        helper_end(help);
    if (rc < 0)
        return rc;
    for (;;) {
        size_t keep = 0;
        if (minout < sw.next)
            sw.next = minout;
        if (sw.mindone < sw.next || sw.next == UINT_MAX) { /* nothing left can beat or tie it */
            best = sw.mindone == UINT_MAX ? -1 : (int32_t)sw.mindone;
            break;
        }
        sw.g = sw.next, sw.next = UINT_MAX;
        if (sw.g == minout) { /* the screened-out matrices with that bound join */
            unsigned least, g0 = gin < 255 ? gin : 255;
            size_t nk;
            sc.rec = pf->rec, sc.nmat = pf->nmat, sc.lower = pf->lower, sc.alive = pf->kept;
            sc.g = sw.g < 255 ? sw.g : 255;
            nk = pf_screen_join(&sc, pf->screen, g0, &least);
            /* their bounds cover only the windows they needed so far (or
             * 16 letters): look on from there (the ones that then fail
             * count in least) */
            sc.g = sw.g;
            nk = more_looks(pf, &sc, nk, &least);
            for (size_t j = 0; j < nk; j++)
                pf->live[nalive++] = (pf_live){.mat = pf->kept[j]};
            gin = sw.g, minout = least < 256 ? least : UINT_MAX;
        }
        if (sb_control_stopped(ctl))
            return sb_error_set(err, SB_EINTR, 0, 0, "interrupted");
        for (size_t j = 0; j < nalive; j++) {
            pf_live e = pf->live[j];
            if (j + 8 < nalive)
                __builtin_prefetch(pf->rec + 64 * (size_t)pf->live[j + 8].mat);
            if ((rc = visit(pf, &e, &sw, res, err)) < 0)
                return rc;
            if (rc)
                pf->live[keep++] = e;
        }
        nalive = keep;
    }
    if (best < 0)
        return sb_error_set(err, SB_ENOTFOUND, 0, 0, "no keyword of the dictionary explains this text");
    res->found = 1;
    res->words = (size_t)best;
    res->ambiguous = sw.ambiguous;
    res->keyword = pf->pool + pf->woff[pf->key[sw.pick]];
    res->plaintext = pf->out;
    return 0;
}
