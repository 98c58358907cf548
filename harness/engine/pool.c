/*
 * pool.c - the engine's processes between their start and their end: the
 * dying ones reaped later and their orphans swept, the spares kept loaded
 * in advance, a slot's zygote (started again when it dies), binding a
 * worker to a slot (a fork of its zygote, or a spare given the arena's
 * memfd over the socket) and waiting until it is warm.  Depends on
 * engine_int.h and spawn.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"
#include "engine_int.h"
#include "wire/wire.h"
#include "proc/proc.h"

/* Leaves a worker that is dying to be reaped later, so that its teardown
 * (slow under a hypervisor) does not hold the run up. */
void proc_leave_dying(engine *e, proc *p)
{
    pthread_mutex_lock(&e->lock);
    if (p->pid > 0) {
        kill(p->pid, SIGKILL);
        if (e->ndying == e->capdying) {
            e->capdying = e->capdying ? 2 * e->capdying : 16;
            e->dying = xrealloc(e->dying, (size_t)e->capdying * sizeof *e->dying);
        }
        e->dying[e->ndying++] = p->pid;
        close(p->req_w);
        close(p->resp_r);
        close(p->out_r);
    }
    p->pid = 0;
    p->ready = 0;
    pthread_mutex_unlock(&e->lock);
}

/* Kills and reaps the children of the harness that are no worker of the
 * engine's: what dead workers' candidates left running (reaper.h).  Under
 * the lock, or from the one thread driving every slot. */
void engine_sweep(engine *e)
{
    pthread_rwlock_wrlock(&e->forks);
    __atomic_store_n(&e->sweep_due, 0, __ATOMIC_RELAXED);
    int nslots = engine_made(e);
    pid_t *known = xmalloc(((size_t)4 * nslots + 1 + (size_t)e->ndying) * sizeof *known);
    int n = 0;
    for (int i = 0; i < nslots; i++) {
        const proc *mine[3] = {&e->slots[i].w, &e->slots[i].z, &e->slots[i].spare};
        for (int k = 0; k < 3; k++)
            if (mine[k]->pid > 0)
                known[n++] = mine[k]->pid;
    }
    for (int k = 0; k < e->nspares; k++)
        if (e->spares[k].pid > 0)
            known[n++] = e->spares[k].pid;
    for (int k = 0; k < e->ndying; k++)
        known[n++] = e->dying[k];
    e->strays += reaper_sweep(known, n);
    pthread_rwlock_unlock(&e->forks);
    free(known);
}

/* Kills what runs below a hung or flooding worker, then the worker, and
 * leaves it to be reaped later (its teardown is slow under a hypervisor);
 * from now on a spare per slot is kept, as more hangs are likely.  Returns
 * how many processes below it ran. */
int engine_kill_late(engine *e, proc *p)
{
    int below = p->pid > 0 ? reaper_kill_descendants(p->pid) : 0;
    if (!e->forkable || e->zygote_lied)
        __atomic_store_n(&e->want_spares, e->nslots, __ATOMIC_RELAXED);
    proc_leave_dying(e, p);
    return below;
}

/* Reaps the dying workers that have ended (all of them with `block`),
 * then sweeps up what they left: at once with `block`, else at most every
 * ENGINE_SWEEP_MS (a sweep reads /proc once per thread of the harness, and
 * a candidate that crashes on every call ends a worker a millisecond). */
#define ENGINE_SWEEP_MS 20
void engine_reap_dying(engine *e, int block)
{
    int n = 0;
    for (int k = 0; k < e->ndying; k++) {
        int st;
        pid_t r;
        while ((r = waitpid(e->dying[k], &st, block ? 0 : WNOHANG)) < 0 && errno == EINTR)
            ;
        if (r == 0) {
            e->dying[n++] = e->dying[k];
        } else {
            groups_remove(e->dying[k]);
            __atomic_store_n(&e->sweep_due, 1, __ATOMIC_RELAXED);
        }
    }
    e->ndying = n;
    int64_t now = engine_mono_ns();
    if (__atomic_load_n(&e->sweep_due, __ATOMIC_RELAXED) &&
        (block || now - e->swept_ns >= (int64_t)ENGINE_SWEEP_MS * 1000000)) {
        engine_sweep(e);
        e->swept_ns = now;
    }
}

/* Spawns spares until there are `want`; a failure only leaves fewer. */
void engine_top_up_spares(engine *e, int want)
{
    while (e->nspares < want) {
        char *err = NULL;
        if (proc_spawn(e, &e->spares[e->nspares], &err) != 0) {
            free(err);
            return;
        }
        e->nspares++;
    }
}

/* Index of a spare that has said it loaded, polling without waiting, or
 * the oldest one (which then has to be waited for). */
static int engine_pick_spare(engine *e)
{
    for (int k = 0; k < e->nspares; k++) {
        proc *p = &e->spares[k];
        if (p->ready)
            return k;
        struct pollfd f = {p->resp_r, POLLIN, 0};
        if (poll(&f, 1, 0) == 1)
            return k;
    }
    return 0;
}

/* A slot's zygote did not answer: reaps it (with what it left running),
 * says so, and leaves the slot without one. */
static void zygote_lost(engine *e, int i, const char *why)
{
    proc *z = &e->slots[i].z;
    int st;
    int below = proc_kill(z, &st);
    pthread_mutex_lock(&e->lock);
    e->strays += below;
    pthread_mutex_unlock(&e->lock);
    char how[96];
    if (WIFSIGNALED(st))
        snprintf(how, sizeof how, "signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
    else
        snprintf(how, sizeof how, "exit status %d", WEXITSTATUS(st));
    warn("%s; it ended with %s: slot %d starts a new one, which loads the candidate again",
         why, how, i);
}

/* A zygote of slot `i` answered a forged pid (`what`, spawn.c): the lie
 * becomes the CRASH of the slot's running or next request, the zygote is
 * killed (its own pid came from posix_spawn) and no zygote is believed
 * again: from now on workers are spawned.  The real worker it forked, a
 * child nobody knows, goes at the next sweep.  `locked`: the caller holds
 * e->lock. */
static void zygote_lied(engine *e, int i, const char *what, int locked)
{
    slot *s = &e->slots[i];
    if (!s->lie[0])
        snprintf(s->lie, sizeof s->lie, "%s", what);
    e->zygote_lied = 1;
    __atomic_store_n(&e->want_spares, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&e->sweep_due, 1, __ATOMIC_RELAXED);
    int below = proc_kill(&s->z, NULL);
    if (!locked)
        pthread_mutex_lock(&e->lock);
    e->strays += below;
    if (!locked)
        pthread_mutex_unlock(&e->lock);
}

/* proc_fork by slot `i`'s zygote.  A zygote is in its slot's pids cgroup,
 * so that its forks are born there (bounds.h); one whose fork fails with
 * EAGAIN (what a worker left fills the slot's bound) moves to the run's
 * cgroup and is asked again: from then on each of its forks is moved into
 * the slot's cgroup before its first batch (census_batch), as a spawned
 * worker is, so that a fork bomb in one worker leaves the next its bound.
 * Returns proc_fork's value (-3 only when the second fork failed so too). */
static int fork_in_room(engine *e, int i, proc *p, char **err)
{
    slot *s = &e->slots[i];
    int rc = proc_fork(e, &s->z, p, err);
    if (rc != -3 || s->zygote_out)
        return rc;
    free(*err);
    *err = NULL;
    bounds_run_join(s->z.pid);
    s->zygote_out = 1;
    return proc_fork(e, &s->z, p, err);
}

/* Gives slot `i` a spare (forking the next one first if there is none):
 * as its zygote, which forks its worker, when it can fork, else as its
 * worker.  Under the lock.  Returns 0, or -1 with *err set. */
static int bind_spare(engine *e, int i, char **err)
{
    slot *s = &e->slots[i];
    engine_top_up_spares(e, 1);
    if (e->nspares == 0) {
        *err = xasprintf("cannot start a worker: %s", strerror(errno));
        return -1;
    }
    int k = engine_pick_spare(e);
    proc p = e->spares[k];
    e->spares[k] = e->spares[--e->nspares];
    if (proc_await_ready(e, &p, err) != 0)
        return -1;
    /* a worker that died after loading is left for the submit's poll to
     * report; a zygote, for the fork below */
    int bind = e->zygote_lied ? i | WORKER_BIND_NO_ZYGOTE : i;
    if (fd_send(p.req_w, &bind, sizeof bind, s->ar.fd) != 0) {
        /* it died: the submit's poll, or the fork below, finds out */
    }
    if (!p.forkable || e->zygote_lied) {
        s->w = p;
        return 0;   /* the next spare is started while the parent would wait anyway */
    }
    e->forkable = 1;
    __atomic_store_n(&e->want_spares, 0, __ATOMIC_RELAXED);
    s->z = p;
    /* its forks are born in the slot's pids cgroup (fork_in_room): moving
     * each worker there took a tenth of a crash's cost (census_batch);
     * not for a slot whose workers filled it */
    if (!s->zygote_out)
        bounds_slot_join(i, s->z.pid);
    int rc = fork_in_room(e, i, &s->w, err);
    if (rc == -2) {
        zygote_lied(e, i, *err, 1);
        free(*err);
        *err = NULL;
        /* a spawned worker instead (e->zygote_lied) */
        return bind_spare(e, i, err);
    }
    return rc;
}

/* Forks a worker of slot `i`'s zygote into *p; a zygote that does not
 * answer is given up.  Returns 0, or -1 with *err set. */
static int fork_or_lose(engine *e, int i, proc *p, char **err)
{
    /* no sweep (under the lock) may take the new worker, a child of the
     * harness, for one a dead worker left behind */
    pthread_rwlock_rdlock(&e->forks);
    int rc = fork_in_room(e, i, p, err);
    pthread_rwlock_unlock(&e->forks);
    if (rc == -2)
        zygote_lied(e, i, *err, 0);
    else if (rc != 0)
        zygote_lost(e, i, *err);
    return rc ? -1 : 0;
}

void engine_fork_spare(engine *e, int i)
{
    slot *s = &e->slots[i];
    char *err = NULL;
    if (s->z.pid > 0 && s->spare.pid == 0 && fork_or_lose(e, i, &s->spare, &err) != 0)
        free(err);
}

int engine_bind_worker(engine *e, int i, char **err)
{
    slot *s = &e->slots[i];
    if (s->spare.pid > 0) {
        s->w = s->spare;
        s->spare.pid = 0;
        return 0;
    }
    if (s->z.pid > 0) {
        if (fork_or_lose(e, i, &s->w, err) == 0)
            return 0;
        free(*err);
        *err = NULL;
    }
    pthread_mutex_lock(&e->lock);
    int rc = bind_spare(e, i, err);
    pthread_mutex_unlock(&e->lock);
    return rc;
}

/* Waits, up to the timeout, for a freshly bound spawned worker to say it
 * is warm (WORKER_BOUND), so that the first batch does not wait for that.  A worker
 * that dies or says nothing meanwhile is left for the first batch's poll
 * to report; a late WORKER_BOUND is skipped there. */
void proc_await_bound(engine *e, proc *p)
{
    if (p->forked)
        return;
    struct pollfd f = {p->resp_r, POLLIN, 0};
    if (poll(&f, 1, e->timeout_ms) != 1)
        return;
    char c;
    if (read(p->resp_r, &c, 1) == 1 && c != WORKER_BOUND) {
        /* EXEC_DYING: the candidate's own thread crashed it; the poll
         * reports the death */
    }
}
