/* Running work on threads (library-internal).
 *
 * The library's parallel loops all have one shape: n workers, each with a
 * struct of its own, the caller's thread being worker 0.  sb_pool_run is
 * that shape.  A thread that cannot be created costs only speed: its worker
 * runs on the caller's thread instead, after worker 0, so every worker
 * runs exactly once whatever the system allows.  Workers must therefore not
 * wait for one another (no barriers): they share work through counters or
 * fixed slices, never through a rendezvous. */
#ifndef SBFS_POOL_H
#define SBFS_POOL_H

#include <stddef.h>

/* Most workers one call runs. */
#define SB_POOL_MAX 64

/* How many workers to run: `requested` when it is 1 or more, else the
 * number of processors online (1 when unknown); never more than
 * SB_POOL_MAX. */
int sb_pool_threads(int requested);

/* Run fn on items[0..n-1] (each item_size bytes): items 1..n-1 on threads
 * of their own, item 0 on the caller's thread, then, one after the other
 * and also on the caller's thread, every item whose thread could not be
 * created.  Returns when all are done, with the number of items that ran
 * on threads of their own (n - 1 when every thread started).  n is taken
 * as 1 below 1 and as SB_POOL_MAX above it.  fn's return value is
 * ignored. */
int sb_pool_run(int n, void *(*fn)(void *), void *items, size_t item_size);

#endif
