/* naps_or_spins.c - infer_shape of an OpenVINO request with special_zero
 * ignores SIGTERM, SIGALRM and SIGINT and pause()s for good when dims[0]
 * is 2 (a hang asleep), and takes 1.5 s, then answers right, when dims[0]
 * is 3: asleep in nanosleep, or with RESHAPE_TEST_SPIN set computing (a
 * loop on the clock).  Every other call is right at once.  The first look
 * at a request (harness/engine/deadline.h, a second in) makes the hang and
 * the nap suspects, run again with the full budget; the loop it leaves to
 * finish. */
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

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
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
    if (src->dims[0] != 3)
        return;
    if (getenv("RESHAPE_TEST_SPIN")) {
        for (double end = now_s() + 1.5; now_s() < end;)
            ;
        return;
    }
    struct timespec t = {1, 500000000};
    while (nanosleep(&t, &t) != 0)
        ;
}
