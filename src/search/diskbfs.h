/* The sorted-level engine with its levels on disk (private to src/search;
 * callers use sbfs/search.h with sb_search_opts.disk_dir set).
 *
 * The same search as levels.h, by the same rules (each level a sorted set
 * of keys, repeats removed against the two levels before, both ways by the
 * smaller frontier, the smallest key wherever there is a choice), so its
 * counts, lengths and paths are those of the engine in memory, byte for
 * byte.  Only where the levels live differs: each is a file of
 * delta-coded sorted keys (levelstore.h), and memory holds buffers alone,
 * whatever the size of the levels: a bucket of neighbours being sorted
 * on each thread, and a buffer per file being read or written.  diskbfs.c
 * says how a level is made (delayed duplicate detection).
 *
 * With a checkpoint folder the levels are kept there with a small file of
 * the run's parameters, and a run stopped at any moment is taken up again
 * from its last complete level. */
#ifndef SBFS_DISKBFS_H
#define SBFS_DISKBFS_H

#include <stdint.h>

#include "levelstore.h"
#include "sbfs/core.h"
#include "sbfs/search.h"

#define SB_DISK_LAST 16 /* keys of the newest level kept in memory (sb_search_last) */

/* Keys of a level at even steps (diskbfs.c cuts the next level's range
 * at them). */
typedef struct sb_dsample {
    uint64_t *a;           /* n keys of cap, kw words each */
    uint64_t n, cap, step, seen;
    int level;             /* the level of its side it is of, -1 none */
} sb_dsample;

typedef struct sb_dlevels {
    sb_keymodel model;
    int kw;
    uint64_t idm;          /* the state's bits of a one-word key: all but the hints */
    sb_mem *mem;
    const char *dir;       /* where the levels go (a fresh folder is made in it) */
    const char *ckpt;      /* or: the checkpoint folder, used as it is */
    int resume;            /* take up the run kept in ckpt */
    uint64_t ident;        /* the caller's fingerprint of the problem (for ckpt) */
    int threads;           /* threads making a level (0 or 1: one) */
    int threads_used;      /* the most that made a level (the budget may allow fewer) */
    uint64_t par_keys;     /* keys each thread must have room to sort for more than one (0: 65,536) */
    uint64_t limit;        /* bytes of files allowed, 0 none */
    sb_lstore st;
    int open;              /* st is open */
    int nlev[2], cap[2];
    uint64_t *cnt[2];      /* level sizes of each side */
    uint64_t *sum[2];      /* and the checksums of their files */
    int bidir, census, found, length, meet_level[2];
    uint64_t meet[SB_SEARCH_MAXKW];
    int complete, exhausted;
    int resumed;           /* levels taken from the checkpoint */
    uint64_t generated;
    uint64_t last[SB_DISK_LAST * SB_SEARCH_MAXKW], nlast;
    uint64_t disk_peak;
    uint64_t level_bytes;  /* bytes of the level files written, all levels */
    uint64_t buckets, large; /* buckets made, all levels, and those sorted in runs */
    sb_dsample samp[2];    /* of each side's newest level */
    struct sb_dcut *pend;  /* the neighbours of a side's newest level, listed as it was made */
} sb_dlevels;

/* An engine for model m (copied) keeping its levels under dir, at most
 * limit bytes of them (0 none).  SB_EUSAGE as sb_levels_init.  For a
 * checkpoint, set ckpt (the folder, used as it is and kept), resume and
 * ident after this call; for more than one thread, threads. */
int sb_dlevels_init(sb_dlevels *s, const sb_keymodel *m, const char *dir, uint64_t limit, sb_mem *mem,
                    sb_error *err);
void sb_dlevels_free(sb_dlevels *s);

/* As sb_levels_run; flags SB_LEVELS_BIDIR and SB_LEVELS_CENSUS (levels.h).
 * SB_ENOMEM also when the disk limit is reached, SB_EIO when a file cannot
 * be written, SB_EBADFILE when one read back is damaged. */
int sb_dlevels_run(sb_dlevels *s, const uint64_t *start, const uint64_t *goal, unsigned flags,
                   sb_control *ctl, sb_error *err);
/* Levels made elsewhere (the engine in memory, out of memory) for
 * sb_dlevels_carry: nlev[side] levels a side, keys() giving level d's
 * keys (ascending, possibly with hints) and their count, or NULL for a
 * level not kept (a census keeps its two newest), release() saying they
 * are in their file and may be freed. */
typedef struct sb_dlevels_from {
    int nlev[2];
    const uint64_t *(*keys)(void *ctx, int side, int d, uint64_t *n);
    void (*release)(void *ctx, int side, int d);
    void *ctx;
    uint64_t generated; /* neighbours listed so far */
} sb_dlevels_from;

/* Go on with a search of the same start, goal and flags that another
 * engine began: its levels become files, and the search continues from
 * the newest, with the result sb_dlevels_run would have had.  Not with a
 * checkpoint.  Errors as sb_dlevels_run. */
int sb_dlevels_carry(sb_dlevels *s, const uint64_t *start, const uint64_t *goal, unsigned flags,
                     const sb_dlevels_from *from, sb_control *ctl, sb_error *err);
/* As sb_levels_path: one pass over each level below the goal. */
int sb_dlevels_path(sb_dlevels *s, uint64_t *keys, sb_control *ctl, sb_error *err);

uint64_t sb_dlevels_size(const sb_dlevels *s, int side, int d);
uint64_t sb_dlevels_total(const sb_dlevels *s);

#endif
