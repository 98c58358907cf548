/* naps_then_crashes.c - sleeps 5 ms, then dereferences NULL, in every
 * infer_shape and execute call: a run whose workers keep dying while its
 * slots use little CPU, on any machine (test_widen.c). */
#include <time.h>

#define NAP_THEN_CRASH()                                                    \
    do {                                                                    \
        struct timespec nap = {0, 5 * 1000 * 1000};                         \
        nanosleep(&nap, NULL);                                              \
        *(volatile int *)(uintptr_t)0 = 1;                                  \
    } while (0)
#define DEFECT_INFER(p, src, rank, dims) NAP_THEN_CRASH()
#define DEFECT_EXECUTE(p, src, dst) NAP_THEN_CRASH()
#include "base.h"
