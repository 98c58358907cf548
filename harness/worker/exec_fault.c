/*
 * exec_fault.c - the worker's fault handler (exec.h): on SIGSEGV, SIGBUS,
 * SIGFPE, SIGILL or SIGABRT it records the signal and the fault address in
 * the running request's response, tells the parent, and dies with the
 * signal; a fault in device memory is named by the arena offset it
 * mirrors (exec_device.h); a write into pages sealed after a call returned
 * (exec_seal.h) is recorded in that call's response too, and ends only the
 * process that made it when that is not the worker (a clone(CLONE_VM)
 * child).  Depends on exec_int.h, exec_device.h and exec_seal.h.
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "exec_device.h"
#include "exec_int.h"
#include "exec_seal.h"

static uint8_t *fault_view;
static size_t fault_size;
static wire_response *volatile fault_resp;   /* the request being carried out */
static int fault_notify = -1;

void exec_fault_track(wire_response *r)
{
    fault_resp = r;
}

/* A write into pages sealed after their call returned (exec_seal.h): the
 * first is recorded in that call's response.  Returns 1 when the task that
 * made it is another process than the worker (sharing its memory). */
static int late_write(int sig, siginfo_t *info, void *uctx)
{
    uintptr_t addr = (uintptr_t)info->si_addr, base = (uintptr_t)fault_view;
    if ((sig != SIGSEGV && sig != SIGBUS) || addr < base || addr >= base + fault_size)
        return 0;
#if defined(__x86_64__)
    if (sig == SIGSEGV && !(((ucontext_t *)uctx)->uc_mcontext.gregs[REG_ERR] & 2))
        return 0;   /* a read: sealed pages stay readable */
#else
    (void)uctx;
#endif
    int who;
    wire_response *late = exec_seal_owner(addr - base, &who);
    if (!late)
        return 0;
    if (!__atomic_load_n(&late->late_write, __ATOMIC_RELAXED)) {
        late->late_addr = addr - base;
        __atomic_store_n(&late->late_write, who, __ATOMIC_RELEASE);
    }
    return who == WIRE_LATE_PROCESS;
}

static void on_fault(int sig, siginfo_t *info, void *uctx)
{
    if (late_write(sig, info, uctx))
        syscall(SYS_exit_group, 128 + sig);     /* not the worker: it alone ends */
    wire_response *r = fault_resp;
    if (r && !r->fault_signal) {
        uintptr_t addr = (uintptr_t)info->si_addr, base = (uintptr_t)fault_view;
        r->fault_signal = sig;
        r->fault_write = -1;
#if defined(__x86_64__)
        if (sig == SIGSEGV)
            r->fault_write = (((ucontext_t *)uctx)->uc_mcontext.gregs[REG_ERR] & 2) ? 1 : 0;
#else
        (void)uctx;
#endif
        uint64_t dev_off;
        if ((sig == SIGSEGV || sig == SIGBUS) &&
            exec_device_fault(addr, r->fault_write, &dev_off) == 1) {
            /* the candidate's device faulted near a mirrored region */
            r->fault_in_arena = 1;
            r->fault_addr = dev_off;
        } else if (sig == SIGSEGV || sig == SIGBUS) {
            r->fault_in_arena = addr >= base && addr < base + fault_size;
            r->fault_addr = r->fault_in_arena ? addr - base : addr;
        }
    }

    exec_record_death(0, 0);
    /* let the signal do what it would have done without us: a fault the
     * kernel raised happens again when the handler returns, one that was
     * sent (abort, raise) is sent again */
    signal(sig, SIG_DFL);
    if (info->si_code <= 0 || sig == SIGABRT)
        raise(sig);
}

void exec_record_death(int sig, uint64_t code)
{
    wire_response *r = fault_resp;
    if (r && sig && !r->fault_signal) {
        r->fault_signal = sig;
        r->fault_write = -1;
        r->fault_addr = code;
    }
    if (r && fault_notify >= 0) {
        char c = EXEC_DYING;
        if (write(fault_notify, &c, 1) != 1) {
            /* the parent is gone or reads the death from the pipe's end */
        }
    }
}

void exec_install_fault_handler(const arena *a, uint8_t *view, int notify_fd)
{
    fault_notify = notify_fd;
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    static char altstack[1 << 16];
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0};
    sigaltstack(&ss, NULL);
    fault_view = view;
    fault_size = a->size;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
        sigaction(sigs[i], &sa, NULL);
}
