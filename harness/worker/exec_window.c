/*
 * exec_window.c - a call whose return the worker proves nothing else of
 * the candidate's ran after, until its output was sealed (exec_window.h):
 * the pin to one CPU, and on x86-64 the call and the seal in assembly, the
 * seal inside a restartable sequence (rseq(2)).  Depends on exec_window.h,
 * libseccomp and Linux.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

#include "exec_window.h"

#if defined(__x86_64__)
#include <sys/rseq.h>
#endif

/* Sets (or, with `check`, compares) the affinity of every thread of the
 * worker listed in /proc/self/task to `set`.  1 when each one was set (or
 * matched), 0 otherwise. */
static int each_thread(const cpu_set_t *set, int check)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return 0;
    int ok = 1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        pid_t tid = (pid_t)strtol(e->d_name, NULL, 10);
        cpu_set_t now;
        if (tid <= 0)
            ok = 0;
        else if (!check)
            ok &= sched_setaffinity(tid, sizeof *set, set) == 0;
        else
            ok &= sched_getaffinity(tid, sizeof now, &now) == 0 && CPU_EQUAL(&now, set);
    }
    closedir(d);
    return ok;
}

/* A seccomp filter on every thread (TSYNC) that answers sched_setaffinity
 * with EPERM; calls of another architecture are left to the worker's own
 * filter (sandbox.h).  1 when loaded. */
static int refuse_affinity(void)
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx)
        return 0;
    int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_ALLOW);
    if (rc == 0)
        rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(sched_setaffinity), 0);
    if (rc == 0)
        rc = seccomp_load(ctx);
    seccomp_release(ctx);
    return rc == 0;
}

#if defined(__x86_64__)

/* What the assembly below reads and writes: the offsets are its. */
typedef struct window {
    exec_window_fn fn;
    void *arg[4];
    uint8_t *at;
    size_t len;
    uint64_t *rseq_cs;          /* this thread's struct rseq's rseq_cs */
    int64_t status;             /* fn's return, in the low 32 bits */
    int64_t sealed;             /* mprotect's return; 1 before it ran */
    int64_t quiet;              /* 1: the sequence reached its end */
} window;

_Static_assert(offsetof(window, arg) == 8 && offsetof(window, at) == 40 &&
               offsetof(window, len) == 48 && offsetof(window, rseq_cs) == 56 &&
               offsetof(window, status) == 64 && offsetof(window, sealed) == 72 &&
               offsetof(window, quiet) == 80, "window's offsets are the assembly's");

void exec_window_run(window *w);

/*
 * exec_window_run(w): calls w->fn with w->arg[0..3]; stores its status,
 * then the sequence's descriptor into w->rseq_cs, the first two
 * instructions after the return; then, inside the sequence, mprotect(at,
 * len, PROT_READ) and its result; at its end (the commit) clears rseq_cs
 * and sets quiet.  The kernel clears rseq_cs and jumps to the abort label
 * instead when it switches this thread out, migrates it or delivers it a
 * signal while its instruction pointer is in [start, commit): a return
 * from the mprotect after the thread was switched out inside it lands on
 * the store of its result, which is in there.  The abort label is preceded
 * by the signature glibc registered the area with (RSEQ_SIG).  rbx, r12 and
 * r13 are callee-saved: the candidate's function keeps them; five pushes
 * leave the stack 16-byte aligned at the call.
 */
__asm__(
    "    .text\n"
    "    .globl exec_window_run\n"
    "    .type exec_window_run, @function\n"
    "exec_window_run:\n"
    "    push %rbx\n"
    "    push %r12\n"
    "    push %r13\n"
    "    push %r14\n"
    "    push %r15\n"
    "    mov %rdi, %r12\n"
    "    lea exec_window_cs(%rip), %rbx\n"
    "    mov 56(%r12), %r13\n"
    "    mov 0(%r12), %rax\n"
    "    mov 8(%r12), %rdi\n"
    "    mov 16(%r12), %rsi\n"
    "    mov 24(%r12), %rdx\n"
    "    mov 32(%r12), %rcx\n"
    "    call *%rax\n"
    "    mov %rax, 64(%r12)\n"
    "    mov %rbx, (%r13)\n"
    ".Lexec_window_start:\n"
    "    mov 40(%r12), %rdi\n"
    "    mov 48(%r12), %rsi\n"
    "    mov $1, %edx\n"                    /* PROT_READ */
    "    mov $10, %eax\n"                   /* SYS_mprotect */
    "    syscall\n"
    "    mov %rax, 72(%r12)\n"
    ".Lexec_window_commit:\n"
    "    movq $0, (%r13)\n"
    "    movq $1, 80(%r12)\n"
    "    jmp .Lexec_window_done\n"
    "    .long 0x53053053\n"                /* RSEQ_SIG, x86 */
    ".Lexec_window_abort:\n"
    "    movq $0, 80(%r12)\n"
    ".Lexec_window_done:\n"
    "    pop %r15\n"
    "    pop %r14\n"
    "    pop %r13\n"
    "    pop %r12\n"
    "    pop %rbx\n"
    "    ret\n"
    "    .size exec_window_run, .-exec_window_run\n"
    "    .pushsection .data\n"
    "    .p2align 5\n"
    "exec_window_cs:\n"                     /* struct rseq_cs */
    "    .long 0, 0\n"
    "    .quad .Lexec_window_start\n"
    "    .quad .Lexec_window_commit - .Lexec_window_start\n"
    "    .quad .Lexec_window_abort\n"
    "    .popsection\n");

_Static_assert(RSEQ_SIG == 0x53053053, "the signature before the abort label is glibc's");

/* This thread's restartable sequence area, when glibc registered one and
 * nothing inhibits its restarts; else NULL. */
static struct rseq *rseq_area(void)
{
    if (__rseq_size < offsetof(struct rseq, flags) + sizeof(uint32_t))
        return NULL;
    struct rseq *rs = (struct rseq *)((char *)__builtin_thread_pointer() + __rseq_offset);
    if ((int32_t)__atomic_load_n(&rs->cpu_id, __ATOMIC_RELAXED) < 0 || rs->flags != 0)
        return NULL;
    return rs;
}

int exec_window_call(exec_window_fn fn, void *a0, void *a1, void *a2, void *a3, uint8_t *at,
                     size_t len, int *quiet)
{
    struct rseq *rs = rseq_area();
    window w = {fn, {a0, a1, a2, a3}, at, len, NULL, 0, 1, 0};
    if (!rs) {
        /* only after exec_window_pin, which asked the same: an area the
         * candidate unregistered or flagged since proves nothing */
        uint64_t none;
        w.rseq_cs = &none;          /* no area: a store nothing reads */
        exec_window_run(&w);
        *quiet = 0;
        return (int)w.status;
    }
    w.rseq_cs = (uint64_t *)&rs->rseq_cs;
    exec_window_run(&w);
    *quiet = w.quiet == 1 && w.sealed == 0;
    return (int)w.status;
}

static int have_rseq(void)
{
    return rseq_area() != NULL;
}

#else

int exec_window_call(exec_window_fn fn, void *a0, void *a1, void *a2, void *a3, uint8_t *at,
                     size_t len, int *quiet)
{
    (void)fn, (void)a0, (void)a1, (void)a2, (void)a3, (void)at, (void)len;
    *quiet = 0;
    return -1;  /* exec_window_pin returned 0 here: the caller called directly */
}

static int have_rseq(void)
{
    return 0;
}

#endif

int exec_window_pin(void)
{
    int cpu = sched_getcpu();
    if (cpu < 0 || cpu >= CPU_SETSIZE || !have_rseq())
        return 0;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    /* pinned, then no thread may change it, then each one checked: one
     * started meanwhile by a thread not yet pinned is found there */
    int ok = each_thread(&one, 0);
    ok &= refuse_affinity();
    return ok && each_thread(&one, 1);
}
