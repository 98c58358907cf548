/* slow.c - correct, but each execute sleeps 3 ms: a run long enough to be
 * killed in its middle (the journal's resume test). */
#include <time.h>
#define DEFECT_EXECUTE(p, src, dst)                                                   \
    do {                                                                              \
        struct timespec ts = {0, 3000000};                                            \
        nanosleep(&ts, NULL);                                                         \
    } while (0)
#include "base.h"
