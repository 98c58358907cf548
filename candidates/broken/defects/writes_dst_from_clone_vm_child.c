/*
 * writes_dst_from_clone_vm_child.c - execute leaves dst as the harness
 * staged it and returns OK; a process it started with clone(CLONE_VM)
 * (it shares the worker's memory, but is no thread of it) waits about
 * 200 us (and for the call to have returned), copies the right elements
 * into dst and exits (issue 42).  Raw
 * system calls only in the child: the raw clone leaves the C library's
 * view of the thread stale.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "late.h"

/* A child's copy, and the caller's flag: the child writes only once the
 * call has returned (a slow or preempted caller is waited for). */
struct late_child {
    struct late_copy copy;
    const int *in_execute;
    atomic_int busy;                    /* its child still runs */
};

/* The children's stacks and copies, each taken while no child runs on it;
 * a call that finds none free (the repeat variant's calls come faster
 * than children end) starts none and leaves dst as staged. */
#define LATE_CHILDREN 64
#define LATE_STACK (64 * 1024)
static _Alignas(64) unsigned char stacks[LATE_CHILDREN][LATE_STACK];
static struct late_child copies[LATE_CHILDREN];
static atomic_uint next;

static int child(void *arg)
{
    struct late_child *c = arg;
    struct timespec t = {0, 200 * 1000};
    syscall(SYS_nanosleep, &t, NULL);
    for (int k = 0; k < 10000 && __atomic_load_n(c->in_execute, __ATOMIC_ACQUIRE); k++)
        syscall(SYS_nanosleep, &t, NULL);
    late_copy_now(&c->copy);
    atomic_store(&c->busy, 0);
    syscall(SYS_exit, 0);
    return 0;
}

static void copy_late(const reshape_tensor *src, const int64_t *src_strides,
                      const reshape_tensor *dst, const int64_t *dst_strides, int64_t count,
                      unsigned layout)
{
    for (int tries = 0; tries < LATE_CHILDREN; tries++) {
        unsigned k = atomic_fetch_add(&next, 1) % LATE_CHILDREN;
        int idle = 0;
        if (!atomic_compare_exchange_strong(&copies[k].busy, &idle, 1))
            continue;
        late_keep(&copies[k].copy, src, src_strides, dst, dst_strides, count, layout);
        copies[k].in_execute = &broken_in_execute;     /* the caller's own */
        if (clone(child, stacks[k] + LATE_STACK, CLONE_VM | SIGCHLD, &copies[k]) < 0)
            atomic_store(&copies[k].busy, 0);
        return;
    }
}

const struct broken_defect broken_defect = {
    .name = "writes_dst_from_clone_vm_child",
    .defect = "returns OK with dst as staged; a clone(CLONE_VM) child writes the right bytes 200 us later",
    .expect = "MEMORY_VIOLATION",
    .faults_on_most_cases = 1,
    .hooks = {.copy_elements = copy_late},
};
