/* A monotonic clock for rates and progress displays. */
#include "sbfs/core.h"
#include "internal.h"

#include <time.h>

double sb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
