/*
 * test_window.c - worker/exec_window.h: a call whose return the worker
 * proves quiet.  A thread of the test's spins until the call has stored
 * its last value and then asks the kernel to write one byte into the page
 * the window seals (a read from /dev/zero into it: EFAULT once the page is
 * read-only, never a fault).  Pinned to one CPU, no call the window calls
 * quiet may let that write land; unpinned, on two CPUs or more, it does
 * land while the window says quiet, which shows the probe can say no and
 * that the pin is what the proof rests on.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "worker/exec_window.h"

static int returning;           /* 1: the call is returning, not yet probed */
static int probe_wrote;         /* the probe's write landed */
static int stop;
static uint8_t *page;
static int zero_fd;

/* The call: its last store says it is returning. */
static int call(void *a, void *b, void *c, void *d)
{
    (void)a, (void)b, (void)c, (void)d;
    __atomic_store_n(&returning, 1, __ATOMIC_RELEASE);
    return 7;
}

static void *probe(void *arg)
{
    (void)arg;
    for (unsigned spins = 0; !__atomic_load_n(&stop, __ATOMIC_ACQUIRE); spins++) {
        if (!__atomic_load_n(&returning, __ATOMIC_ACQUIRE)) {
            if (spins % 64 == 63)
                sched_yield();  /* the call's turn, on one CPU */
            continue;
        }
        if (pread(zero_fd, page, 1, 0) == 1)
            __atomic_store_n(&probe_wrote, 1, __ATOMIC_RELEASE);
        __atomic_store_n(&returning, 0, __ATOMIC_RELEASE);
    }
    return NULL;
}

/* `n` calls through the window with the probe thread beside them; into
 * *quiet the calls proven quiet, into *landed those of them whose page the
 * probe wrote after the call's last store. */
static void calls(int n, long *quiet, long *landed)
{
    long size = sysconf(_SC_PAGESIZE);
    page = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    cr_assert(page != MAP_FAILED);
    zero_fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
    cr_assert(zero_fd >= 0);
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, probe, NULL), 0);
    *quiet = *landed = 0;
    for (int i = 0; i < n; i++) {
        cr_assert_eq(mprotect(page, (size_t)size, PROT_READ | PROT_WRITE), 0);
        __atomic_store_n(&probe_wrote, 0, __ATOMIC_RELEASE);
        int q = -1;
        int st = exec_window_call((exec_window_fn)call, NULL, NULL, NULL, NULL, page,
                                  (size_t)size, &q);
        cr_assert_eq(st, 7, "the call's status, %d, did not come back", st);
        cr_assert(q == 0 || q == 1);
        while (__atomic_load_n(&returning, __ATOMIC_ACQUIRE))
            sched_yield();      /* the probe's turn, on the one CPU too */
        *quiet += q;
        *landed += q && __atomic_load_n(&probe_wrote, __ATOMIC_ACQUIRE);
    }
    __atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
    pthread_join(t, NULL);
    close(zero_fd);
    munmap(page, (size_t)size);
}

Test(window, on_one_cpu_no_write_lands_between_a_quiet_return_and_the_seal, .timeout = 120)
{
    cr_assert_eq(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
    if (!exec_window_pin())
        cr_skip_test("no restartable sequence area here (not x86-64, or glibc did not register "
                     "one): the worker calls the candidate directly and proves nothing");
    long quiet, landed;
    calls(20000, &quiet, &landed);
    cr_expect_eq(landed, 0, "%ld of %ld quiet calls let the probe's write land", landed, quiet);
    cr_expect_gt(quiet, 20000 / 2, "only %ld of 20,000 calls were quiet", quiet);
    /* the pin holds: the filter refuses to move a thread */
    cpu_set_t all;
    CPU_ZERO(&all);
    for (int c = 0; c < CPU_SETSIZE && c < 64; c++)
        CPU_SET(c, &all);
    cr_expect_neq(sched_setaffinity(0, sizeof all, &all), 0, "sched_setaffinity was allowed");
}

Test(window, unpinned_on_two_cpus_the_probe_lands_while_the_window_says_quiet, .timeout = 120)
{
    cpu_set_t now;
    cr_assert_eq(sched_getaffinity(0, sizeof now, &now), 0);
    if (CPU_COUNT(&now) < 2)
        cr_skip_test("one CPU: the probe never runs beside the call");
    long quiet = 0, landed = 0, q, l;
    /* two threads on two CPUs meet within a few thousand calls unless the
     * machine is full; up to 200,000 */
    for (int k = 0; k < 10 && landed == 0; k++) {
        __atomic_store_n(&stop, 0, __ATOMIC_RELEASE);
        calls(20000, &q, &l);
        quiet += q;
        landed += l;
    }
    cr_expect_gt(landed, 0, "the probe never landed in %ld quiet calls: it cannot tell", quiet);
}
