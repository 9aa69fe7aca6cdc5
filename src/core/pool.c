/* Worker threads: see pool.h. */
#include "pool.h"

#include <pthread.h>
#include <unistd.h>

int sb_pool_threads(int requested)
{
    long n = requested;
    if (n < 1) {
        n = sysconf(_SC_NPROCESSORS_ONLN);
        if (n < 1)
            n = 1;
    }
    return n > SB_POOL_MAX ? SB_POOL_MAX : (int)n;
}

int sb_pool_run(int n, void *(*fn)(void *), void *items, size_t item_size)
{
    pthread_t th[SB_POOL_MAX];
    _Bool started[SB_POOL_MAX] = {0};
    char *base = items;
    int nstarted = 0;
    n = n < 1 ? 1 : n > SB_POOL_MAX ? SB_POOL_MAX : n;
    for (int i = 1; i < n; i++) {
        started[i] = pthread_create(&th[i], NULL, fn, base + (size_t)i * item_size) == 0;
        nstarted += started[i];
    }
    fn(base);
    for (int i = 1; i < n; i++) {
        if (started[i])
            pthread_join(th[i], NULL);
        else
            fn(base + (size_t)i * item_size);
    }
    return nstarted;
}
