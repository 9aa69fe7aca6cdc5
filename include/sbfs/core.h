/* SPDX-License-Identifier: MIT; Copyright (c) 2026 the sbfs authors (see LICENSE). */
/* sbfs core: errors, the memory budget, a seeded random generator, and the
 * control block (progress callback, stop flag) that long computations take.
 *
 * Nothing here is global: every function works on objects its caller owns,
 * so two searches can run side by side in one process. */
#ifndef SBFS_CORE_H
#define SBFS_CORE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SBFS_VERSION "0.1.0"

/* Error codes.  A function that can fail returns 0 or one of these (all
 * negative) and fills the sb_error its caller passed.  The CLI exits with
 * status -code, so every class of failure has its own exit status. */
enum {
    SB_OK = 0,
    SB_EINTERNAL = -1,   /* a bug: an invariant did not hold */
    SB_EUSAGE = -2,      /* bad command line or bad argument to a function */
    SB_EIO = -3,         /* a file could not be read or written */
    SB_ENOMEM = -4,      /* the memory budget (or the machine) ran out */
    SB_EINTR = -5,       /* stopped on request (Ctrl-C) */
    SB_EINPUT = -6,      /* malformed input not covered by a code below */
    SB_EBADFILE = -7,    /* a saved table is damaged or does not match */
    SB_EINVALPOS = -8,   /* a position that the puzzle cannot reach */
    SB_ENOTFOUND = -9,   /* nothing matched (e.g. no keyword explains a text) */
    /* SLIDING-format input errors, one code each (see docs/FORMAT.md) */
    SB_EBADSIZE = -10,   /* first line is not "ROWS x COLS" */
    SB_EBIGBOARD = -11,  /* board has more cells than sbfs supports */
    SB_EPIECENAME = -12, /* piece name is not 1..9 or a..f */
    SB_EPATTERN = -13,   /* piece pattern holds a character other than 0 1 / */
    SB_EEMPTYPIECE = -14,/* piece pattern has no 1 */
    SB_EFILLTWICE = -15, /* a configuration fills some cell twice */
    SB_EPASTEND = -16,   /* a configuration runs past the end of the board */
    SB_EBADCHAR = -17,   /* a configuration holds an illegal character */
    SB_ENOPIECES = -18,  /* the start configuration has no pieces */
    SB_EMISMATCH = -19,  /* start and stop do not hold the same pieces */
    SB_EMISSING = -20,   /* the input ends before the start or stop line */
    SB_ELONGLINE = -21,  /* an input line is longer than sbfs accepts */
    SB_EUNDEFINED = -22, /* a configuration names a piece never defined */
    SB_ECODE_MIN = -22
};

/* What went wrong.  line and col are 1-based positions in the input the
 * message is about, or 0 when there is none. */
typedef struct sb_error {
    int code;
    int line, col;
    char msg[240];
} sb_error;

/* Fills *err (if err is not NULL) and returns code, so a caller can write
 * `return sb_error_set(err, SB_EINPUT, line, col, "bad tile %d", t);`.
 * With fmt NULL the message is sb_strerror(code).  sb_error_clear accepts
 * NULL. */
int sb_error_set(sb_error *err, int code, int line, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
void sb_error_clear(sb_error *err);
/* A short fixed name for a code ("memory budget exhausted", ...). */
const char *sb_strerror(int code);

/* The memory budget.  Every large table is taken from an sb_mem so that a
 * user's --memory is a real ceiling: an allocation that would pass the limit
 * fails with SB_ENOMEM instead of being made.  Not thread-safe: allocate
 * from one thread.  limit 0 means "no limit".  Every function here takes
 * a NULL sb_mem for "no budget": nothing is counted and only the machine
 * limits the allocations. */
typedef struct sb_mem {
    size_t limit;  /* bytes allowed in all */
    size_t used;   /* bytes held now */
    size_t peak;   /* largest value `used` has had */
} sb_mem;

/* 0, or SB_EUSAGE when m is NULL. */
int sb_mem_init(sb_mem *m, size_t limit);
/* Bytes still allowed (SIZE_MAX when unlimited). */
size_t sb_mem_left(const sb_mem *m);
/* Physical memory of the machine in bytes, or 0 if unknown. */
size_t sb_mem_physical(void);
/* Parse "512M", "4G", "100000" (bytes), "1.5G"; K/M/G/T are powers of 1024.
 * Returns 0 and sets *out, or SB_EUSAGE. */
/* Only plain decimals are sizes, and at least one byte: "0" is refused
 * rather than read as sb_mem_init's "no limit".  SB_EUSAGE also for out
 * NULL. */
int sb_mem_parse_size(const char *s, size_t *out, sb_error *err);

/* A small fast seeded generator (xoshiro256**).  Same seed, same stream. */
typedef struct sb_rng {
    uint64_t s[4];
} sb_rng;

/* 0, or SB_EUSAGE when r is NULL. */
int sb_rng_seed(sb_rng *r, uint64_t seed);
/* Uniform in 0..n-1 (n >= 1), without modulo bias; 0 when n is 0 or r is
 * NULL. */
uint64_t sb_rng_below(sb_rng *r, uint64_t n);

/* Progress and interruption.  A long computation takes an optional
 * sb_control.  It calls `progress` (if set) now and then, never more than a
 * few hundred times a second, and checks *stop (if set) as often; when *stop
 * becomes nonzero it returns SB_EINTR with its work so far still valid. */
typedef struct sb_progress_info {
    const char *phase;   /* what is being done: "search", "pdb 1/3", ... */
    int level;           /* distance or depth being worked on, -1 if none */
    uint64_t done;       /* states (or items) handled so far */
    uint64_t total;      /* how many there will be, 0 if unknown */
    size_t mem_used;     /* bytes held from the budget */
    uint64_t states;     /* when done counts something else: states found so far, 0 if not told */
    uint64_t disk_used;  /* bytes of files held (levels on disk), 0 for none */
} sb_progress_info;

typedef struct sb_control {
    void (*progress)(void *ud, const sb_progress_info *info);
    void *ud;
    volatile sig_atomic_t *stop;
} sb_control;

#ifdef __cplusplus
}
#endif

#endif
