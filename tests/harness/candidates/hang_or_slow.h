/* hang_or_slow.h - the defect of hang_or_slow.c and naps_or_spins.c:
 * infer_shape of an OpenVINO request with special_zero ignores SIGTERM,
 * SIGALRM and SIGINT and pause()s for good when dims[0] is 2, and is slow,
 * then answers right, when dims[0] is 3; every other call is right at once.
 * The including file defines SLOW_CALL_NS, the slow call's length in
 * nanoseconds (asleep in nanosleep), and may define SLOW_CALL_SPINS: then,
 * with RESHAPE_TEST_SPIN set in the environment, the slow call computes (a
 * loop on the clock) instead of sleeping. */
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "reshape_candidate.h"
static _Thread_local int in_execute;
static void hang_or_slow(const reshape_params *p, const reshape_tensor *src);
#define DEFECT_INFER(p, src, rank, dims) hang_or_slow(p, src)
#define DEFECT_EXECUTE(p, src, dst) (in_execute = 1)
#include "base.h"

#ifdef SLOW_CALL_SPINS
static long long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}
#endif

static void slow_call(void)
{
#ifdef SLOW_CALL_SPINS
    if (getenv("RESHAPE_TEST_SPIN")) {
        for (long long end = now_ns() + SLOW_CALL_NS; now_ns() < end;)
            ;
        return;
    }
#endif
    struct timespec t = {SLOW_CALL_NS / 1000000000LL, SLOW_CALL_NS % 1000000000LL};
    while (nanosleep(&t, &t) != 0)
        ;
}

static void hang_or_slow(const reshape_params *p, const reshape_tensor *src)
{
    if (in_execute) {
        in_execute = 0;     /* execute's own inference, right after the flag */
        return;
    }
    if (p->op != RESHAPE_OP_OPENVINO_RESHAPE_1 || !p->special_zero || src->rank < 1)
        return;
    if (src->dims[0] == 2) {
        signal(SIGTERM, SIG_IGN);
        signal(SIGALRM, SIG_IGN);
        signal(SIGINT, SIG_IGN);
        for (;;)
            pause();
    }
    if (src->dims[0] == 3)
        slow_call();
}
