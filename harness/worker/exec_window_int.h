/*
 * exec_window_int.h - the record exec_window_run (exec_window_x86.c, in
 * assembly) reads and writes, private to exec_window.c and it: the field
 * offsets are the assembly's.  Depends on exec_window.h.
 */
#ifndef HARNESS_EXEC_WINDOW_INT_H
#define HARNESS_EXEC_WINDOW_INT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "exec_window.h"

typedef struct window {
    exec_window_fn fn;
    void *arg[4];
    uint8_t *at;                /* the pages to seal read-only */
    size_t len;
    uint64_t *rseq_cs;          /* this thread's struct rseq's rseq_cs, or
                                   a word nothing reads */
    int64_t status;             /* fn's return, in the low 32 bits */
    int64_t sealed;             /* mprotect's return; 1 before it ran */
    int64_t quiet;              /* 1: the sequence reached its end */
    const uint8_t *head;        /* copied into snap right after the return: */
    size_t head_len;            /*   head_len bytes from head, */
    uint8_t *snap;
    const uint8_t *tail;        /*   then tail_len from tail */
    size_t tail_len;
    int64_t snapped;            /* 1: both copies were made */
    int64_t task_fd;            /* newfstatat(task_fd, task_path, task_st, */
    struct stat *task_st;       /*   task_flags) */
    int64_t task_rc;            /* its return; 1 before it ran */
    const char *task_path;
    int64_t task_flags;
} window;

_Static_assert(offsetof(window, arg) == 8 && offsetof(window, at) == 40 &&
               offsetof(window, len) == 48 && offsetof(window, rseq_cs) == 56 &&
               offsetof(window, status) == 64 && offsetof(window, sealed) == 72 &&
               offsetof(window, quiet) == 80 && offsetof(window, head) == 88 &&
               offsetof(window, head_len) == 96 && offsetof(window, snap) == 104 &&
               offsetof(window, tail) == 112 && offsetof(window, tail_len) == 120 &&
               offsetof(window, snapped) == 128 && offsetof(window, task_fd) == 136 &&
               offsetof(window, task_st) == 144 && offsetof(window, task_rc) == 152 &&
               offsetof(window, task_path) == 160 && offsetof(window, task_flags) == 168,
               "window's offsets are the assembly's");

/*
 * Calls w->fn with w->arg[0..3]; stores its status, then arms the
 * restartable sequence (its descriptor into *w->rseq_cs), the first two
 * instructions after the return; then, inside the sequence, copies the
 * head and tail of dst into w->snap (snapped), stats the worker's
 * /proc/self/task into task_st (task_rc), seals [at, at + len) with
 * mprotect(PROT_READ) and stores its result; at its end (the commit)
 * disarms the sequence and sets quiet.  The kernel disarms it and jumps to
 * the abort label instead (quiet 0) when it switches the thread out,
 * migrates it or delivers it a signal in there.  x86-64 only.
 */
void exec_window_run(window *w);

#endif
