/* perf_hang_in_place.c - ignores SIGTERM and never returns from an
 * in-place execute: the perf profile's in_place points time out. */
#include <signal.h>
#include <unistd.h>
#define DEFECT_EXECUTE(p, src, dst) \
    do { if ((dst)->data == (src)->data) { signal(SIGTERM, SIG_IGN); for (;;) pause(); } } while (0)
#include "base.h"
