/* hang_or_slow.c - infer_shape of an OpenVINO request with special_zero
 * ignores SIGTERM, SIGALRM and SIGINT and pause()s for good when dims[0]
 * is 2, and sleeps 300 ms, then answers right, when dims[0] is 3; every
 * other call is right at once (an Arm NN-like kernel: some calls of a
 * kind hang, others of the same kind are slow).  However many hangs of
 * its kind came first, no slow call may be a TIMEOUT. */
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include "reshape_candidate.h"
static _Thread_local int in_execute;
static void hang_or_sleep(const reshape_params *p, const reshape_tensor *src);
#define DEFECT_INFER(p, src, rank, dims) hang_or_sleep(p, src)
#define DEFECT_EXECUTE(p, src, dst) (in_execute = 1)
#include "base.h"
static void hang_or_sleep(const reshape_params *p, const reshape_tensor *src)
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
    if (src->dims[0] == 3) {
        struct timespec t = {0, 300000000};
        while (nanosleep(&t, &t) != 0)
            ;
    }
}
