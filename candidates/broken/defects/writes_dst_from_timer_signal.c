/*
 * writes_dst_from_timer_signal.c - execute leaves dst as the harness
 * staged it, arms a 300 us interval timer and returns OK; the SIGALRM
 * handler copies the right elements into dst on the worker's own thread,
 * after the return (one that comes while the call still runs arms the
 * timer again) (issue 42).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <sys/time.h>

#include "late.h"

static struct late_copy pending;
static volatile sig_atomic_t armed;

static void on_alarm(int sig)
{
    (void)sig;
    if (broken_in_execute) {
        /* the call has not returned yet (a slow or preempted one): once
         * more, later, so that the bytes always come after the return */
        struct itimerval t = {{0, 0}, {0, 300}};
        setitimer(ITIMER_REAL, &t, NULL);
        return;
    }
    if (armed) {
        late_copy_now(&pending);
        armed = 0;
    }
}

static void copy_late(const reshape_tensor *src, const int64_t *src_strides,
                      const reshape_tensor *dst, const int64_t *dst_strides, int64_t count,
                      unsigned layout)
{
    static int installed;
    if (!installed) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_alarm;
        sa.sa_flags = SA_RESTART;
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGALRM, &sa, NULL) != 0)
            return;
        installed = 1;
    }
    armed = 0;
    late_keep(&pending, src, src_strides, dst, dst_strides, count, layout);
    armed = 1;
    struct itimerval t = {{0, 0}, {0, 300}};
    setitimer(ITIMER_REAL, &t, NULL);
}

const struct broken_defect broken_defect = {
    .name = "writes_dst_from_timer_signal",
    .defect = "returns OK with dst as staged; a SIGALRM handler 300 us later writes the right bytes",
    .expect = "MEMORY_VIOLATION",
    .faults_on_most_cases = 1,
    .hooks = {.copy_elements = copy_late},
};
