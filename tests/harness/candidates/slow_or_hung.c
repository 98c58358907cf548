/* slow_or_hung.c - infer_shape ignores SIGTERM, SIGALRM and SIGINT and
 * pause()s for good on inputs of even volume, and takes 30 ms on the
 * others; execute is right but takes 30 ms a call.  The adaptive timeout
 * must give the hangs a short budget and let every slow call pass. */
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include "reshape_candidate.h"
static _Thread_local int in_execute;
static void slow(void)
{
    struct timespec t = {0, 30000000};
    nanosleep(&t, NULL);
}
static void maybe_hang(const reshape_tensor *src);
#define DEFECT_INFER(p, src, rank, dims) maybe_hang(src)
#define DEFECT_EXECUTE(p, src, dst) do { in_execute = 1; slow(); } while (0)
#define DEFECT_AFTER_COPY(p, src, dst) (in_execute = 0)
#include "base.h"
static void maybe_hang(const reshape_tensor *src)
{
    if (in_execute)
        return;
    if (volume(src->rank, src->dims) % 2 == 0) {
        signal(SIGTERM, SIG_IGN);
        signal(SIGALRM, SIG_IGN);
        signal(SIGINT, SIG_IGN);
        for (;;)
            pause();
    }
    slow();
}
