/* flaky_internal.c - one successful inference in 50, at random (a seed
 * from the clock and the pid), returns INTERNAL instead: a disagreement
 * that a run of the same request alone almost never shows again.  fuzz
 * must not write it as a case. */
#include <time.h>
#include <unistd.h>
#include "reshape_candidate.h"
static int unlucky(void);
#define DEFECT_INFER(p, src, rank, dims)        \
    do {                                        \
        if (unlucky())                          \
            return RESHAPE_E_INTERNAL;          \
    } while (0)
#include "base.h"
static int unlucky(void)
{
    static _Thread_local uint64_t s;
    if (!s) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        s = ((uint64_t)t.tv_nsec << 20 ^ (uint64_t)getpid() ^ (uint64_t)t.tv_sec) | 1;
    }
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s % 50 == 0;
}
