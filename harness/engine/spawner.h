/*
 * spawner.h - starting processes from one thread that lives as long as
 * the engine.
 *
 * A worker asks the kernel to SIGKILL it when its parent dies
 * (PR_SET_PDEATHSIG, worker_proc.c), so that a harness killed outright
 * leaves no candidate running.  The kernel's "parent" is the thread that
 * created the process, not the process: a worker started by one of
 * schedule.c's slot threads would be killed when that thread ends, at the
 * end of its schedule_run, and the next request sent to it would look
 * like a candidate killed by SIGKILL.  `fuzz` calls schedule_run once per
 * batch of requests, so it saw such deaths, one run in three with
 * --jobs 2.  The engine therefore starts its workers on the thread that
 * created it, or through a spawner: a thread of its own that runs the
 * start function on request.  Depends on POSIX threads.
 */
#ifndef SPAWNER_H
#define SPAWNER_H

#include <pthread.h>

typedef struct spawner {
    pthread_mutex_t call;       /* one caller at a time */
    pthread_mutex_t lock;       /* guards the fields below */
    pthread_cond_t cv;
    pthread_t thread;
    int started, stop;
    int (*fn)(void *);          /* the request: fn(arg), result in rc */
    void *arg;
    int rc, pending;
} spawner;

/* A spawner with no thread yet: the thread starts on the first call. */
void spawner_init(spawner *s);

/* Runs fn(arg) on the spawner's thread and returns what it returned; the
 * caller waits.  If the thread cannot be started, runs fn(arg) on the
 * calling thread instead (a worker may then die with its thread, as
 * before). */
int spawner_call(spawner *s, int (*fn)(void *), void *arg);

/* Ends the spawner's thread (no call may be under way) and frees what
 * spawner_init set up. */
void spawner_destroy(spawner *s);

#endif /* SPAWNER_H */
