/*
 * sandbox_watch.h - the sandbox's observer, in the parent
 * (docs/harness/sandbox.md; proc/sandbox.h says what the four layers
 * are): a thread that takes each confined process's seccomp listener
 * (wire/channel.h's sandbox_hello) and stops the worker that made a
 * refused call (sandbox_watch.c, sandbox_act.c, sandbox_reach.c).
 * Depends on proc/proc.h and wire/wire.h.
 */
#ifndef HARNESS_SANDBOX_WATCH_H
#define HARNESS_SANDBOX_WATCH_H

#include <stddef.h>
#include <sys/types.h>

#include "proc/proc.h"
#include "wire/wire.h"

#define SANDBOX_ACT_BYTES 320   /* the longest act's description */
#define SANDBOX_NOTES 16        /* refused acts kept that stopped no worker */

typedef struct sandbox_watch sandbox_watch;

/* What the observer saw, for the report. */
typedef struct sandbox_summary {
    int known;                  /* a confined process said what it got */
    sandbox_facts facts;        /* the latest one's */
    int nnotes;                 /* the first distinct refused acts that
                                   stopped no worker */
    int more_notes;             /* 1: more distinct ones than those */
    char notes[SANDBOX_NOTES][SANDBOX_ACT_BYTES];
} sandbox_summary;

/* Starts the observer of the processes confined under `p` (which must
 * outlive it): a thread of the parent.  Returns it, or NULL with *err set. */
sandbox_watch *sandbox_watch_start(const sandbox_policy *p, char **err);

/* The socket end a confined process gets as SANDBOX_FD_WATCH. */
int sandbox_watch_worker_fd(const sandbox_watch *w);

/*
 * When the observer stopped process `pid` (a child of the harness: a
 * worker, a zygote while it loaded, a spawned process) for a call it or a
 * process below it made: 1 and what it tried ("tried to open cases/x.yaml
 * for writing") in `buf` (room for `size` bytes), forgotten then; else 0.
 * The record is made before the kill, so a death seen is a death
 * recorded.
 */
int sandbox_watch_take_stop(sandbox_watch *w, pid_t pid, char *buf, size_t size);

/* What the observer saw so far. */
void sandbox_watch_summary(sandbox_watch *w, sandbox_summary *out);

/* Stops the observer's thread and frees it (a NULL `w` is nothing). */
void sandbox_watch_stop(sandbox_watch *w);

#endif
