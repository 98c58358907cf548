/*
 * wait.c - waiting for a batch's end (engine.h): the poll loop over the
 * slots' answer pipes and output pipes, output pinned on the request
 * running when it was read, per-request deadlines (deadline.h), deaths
 * and floods, and the completion that describes it.  Depends on
 * engine_int.h.
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
#include "census.h"
#include "census_sleep.h"
#include "engine_int.h"
#include "wire/wire.h"
#include "proc/proc.h"

/* The request slot `s` is running now (n - 1 once all have run). */
static int slot_running_now(slot *s)
{
    int k = __atomic_load_n(&arena_batch(s->ar.pview)->running, __ATOMIC_ACQUIRE);
    return k < 0 ? 0 : k >= s->n ? s->n - 1 : k;
}

/* Reads what the worker wrote to stdout/stderr and pins it on the request
 * running now; keeps the first bytes of each request's. */
static void slot_drain(engine *e, slot *s)
{
    char buf[16384];
    for (;;) {
        ssize_t n = read(s->w.out_r, buf, sizeof buf);
        if (n <= 0)
            return;
        __atomic_store_n(&e->chatty, 1, __ATOMIC_RELAXED);
        int at = slot_running_now(s);
        if (at != s->attr_at) {
            s->attr_at = at;
            s->attr_bytes = s->head_len = 0;
            s->head[0] = '\0';
        }
        if (s->head_len < ENGINE_OUTPUT_HEAD) {
            size_t k = ENGINE_OUTPUT_HEAD - s->head_len;
            if (k > (size_t)n)
                k = (size_t)n;
            memcpy(s->head + s->head_len, buf, k);
            s->head_len += k;
            s->head[s->head_len] = '\0';
        }
        s->attr_bytes += (size_t)n;
        s->out_bytes += (size_t)n;
    }
}

/* Fills `out` for the end of slot `s`'s batch; `pinned` as completion's. */
static void slot_complete(slot *s, int idx, done_kind kind, int at, int wstatus, int pinned,
                          completion *out)
{
    out->pinned = kind == DONE_DIED ? pinned || s->n == 1 : 1;
    s->limit = kind != DONE_OK ? 1 : s->limit < ARENA_CELLS / 2 ? 2 * s->limit : ARENA_CELLS;
    out->fresh = s->fresh_batch && (kind == DONE_OK ? 0 : at) == 0;
    out->strays = 0;
    out->threads = 0;
    out->samples = s->samples;
    out->unproven = NULL;
    out->budget_ms = 0;
    out->sandbox_stop[0] = '\0';
    out->short_budget = 0;
    out->slot = idx;
    out->kind = kind;
    out->n = s->n;
    out->at = kind == DONE_OK ? s->n : at;
    out->wstatus = wstatus;
    out->output_bytes = s->out_bytes;
    if (kind != DONE_OK && s->attr_at != at)
        out->output_head[0] = '\0';
    else
        memcpy(out->output_head, s->head, s->head_len + 1);
    s->busy = 0;
}

/* The response of request `at` (0..n-1) of slot `s`: its cell is the
 * parent's copy, never the batch page's (the worker's word). */
static wire_response *slot_response(slot *s, int at)
{
    return arena_response(&s->ar.cells[s->cells[at]], s->ar.pview);
}

/* The phase (wire_phase) request `at` of slot `s` is in. */
static int slot_phase_of(slot *s, int at)
{
    return __atomic_load_n(&slot_response(s, at)->phase, __ATOMIC_RELAXED);
}

/* When the running request of slot `s` started, as its worker wrote it,
 * within what the parent knows: not before the submit, not after now. */
static int64_t slot_started(slot *s)
{
    int64_t started = __atomic_load_n(&arena_batch(s->ar.pview)->started_ns, __ATOMIC_ACQUIRE);
    int64_t now = engine_mono_ns();
    return started < s->submit_ns ? s->submit_ns : started > now ? now : started;
}

/* The deadline of the request slot `s` is running (deadline.h), at most
 * its cap: the submit time and the full budgets of it and of the requests
 * before it, whatever the batch page says. */
static int64_t slot_deadline_of(const engine *e, slot *s)
{
    int64_t started = slot_started(s);
    int at = slot_running_now(s);
    int64_t d = started + deadline_budget_ns(&e->dl, &s->req[at], slot_phase_of(s, at),
                                             engine_mono_ns() - started);
    return d < s->cap_ns[at] ? d : s->cap_ns[at];
}

/* The first look at the running request of slot `s` (deadline.h), from
 * now, when it is still to be taken: its time, else INT64_MAX. */
static int64_t slot_first_look(const engine *e, slot *s)
{
    int64_t started = slot_started(s);
    if (s->looked_ns == started)
        return INT64_MAX;
    int64_t look = deadline_first_look_ns(&e->dl, &s->req[slot_running_now(s)]);
    return look == INT64_MAX ? look : started + look;
}

/* Checks what slot `s`'s worker may write of the batch page against the
 * parent's copy: the count, the cells and the running index (0..n).
 * Returns 1 and says what it found in s->lie when the page was changed
 * (or s->lie already holds a lie), else 0. */
static int slot_caught_lying(slot *s)
{
    if (s->lie[0])
        return 1;
    const wire_batch *b = arena_batch(s->ar.pview);
    int n = __atomic_load_n(&b->n, __ATOMIC_RELAXED);
    int run = __atomic_load_n(&b->running, __ATOMIC_RELAXED);
    if (n != s->n) {
        snprintf(s->lie, sizeof s->lie, "changed the count of requests in the batch page "
                 "from %d to %d", s->n, n);
        return 1;
    }
    if (run < 0 || run > s->n) {
        snprintf(s->lie, sizeof s->lie, "wrote running request %d into the batch page of "
                 "a batch of %d", run, s->n);
        return 1;
    }
    for (int k = 0; k < s->n; k++) {
        int c = __atomic_load_n(&b->cells[k], __ATOMIC_RELAXED);
        if (c != s->cells[k]) {
            snprintf(s->lie, sizeof s->lie, "wrote cell %d for request %d into the batch "
                     "page (the harness staged it in cell %d)", c, k, s->cells[k]);
            return 1;
        }
    }
    return 0;
}

/* When the parent looks at slot `s` again: the running request's
 * deadline, or sooner, when the batch's running or later requests may get
 * a short budget meanwhile (deadline_recheck_ns). */
static int64_t slot_look_at(const engine *e, slot *s)
{
    int at = slot_running_now(s);
    int64_t d = slot_deadline_of(e, s), look = slot_first_look(e, s);
    int64_t again = engine_mono_ns() + deadline_recheck_ns(&e->dl, &s->req[at], s->n - at);
    d = look < d ? look : d;
    return again < d ? again : d;
}

/* Checks slot `i` after a poll; returns 1 and fills `out` when its batch
 * ended. */
static int engine_check_slot(engine *e, int i, const struct pollfd *po, const struct pollfd *pr,
                             completion *out)
{
    slot *s = &e->slots[i];
    if (po->revents)
        slot_drain(e, s);
    if (slot_caught_lying(s)) {
        /* the candidate's side wrote what the parent knows to be false:
         * the running request's CRASH, named as the sandbox's stops are */
        int at = slot_running_now(s);
        int below = engine_kill_late(e, &s->w);
        slot_complete(s, i, DONE_DIED, at, SIGKILL, 1, out);
        snprintf(out->sandbox_stop, sizeof out->sandbox_stop, "%s", s->lie);
        /* no accident of an earlier request in the process: a lie is the
         * candidate's act, not to be run again in a fresh one (which a
         * zygote no longer believed would not tell) */
        out->fresh = 1;
        out->strays = below;
        s->lie[0] = '\0';
        return 1;
    }
    if (s->attr_bytes > ENGINE_FLOOD_BYTES) {
        int at = s->attr_at;
        int below = engine_kill_late(e, &s->w);
        slot_complete(s, i, DONE_FLOOD, at, 0, 1, out);
        out->strays = below;
        return 1;
    }
    if (pr->revents) {
        char c;
        ssize_t r = read(s->w.resp_r, &c, 1);
        /* what the worker wrote before answering was in the pipe when
         * poll looked (po->revents); a death may leave last words after */
        if (r != 1 || c == EXEC_DYING)
            slot_drain(e, s);
        if (r == 1 && c == EXEC_SAMPLE) {
            /* a repeat request's sampling point: measured from here */
            census_sample(s, slot_running_now(s));
            return 0;
        }
        if (r == 1 && c == WORKER_BOUND) {
            /* a worker bound during the run says it is warm: no answer */
            return 0;
        }
        if (r == 1 && c == EXEC_DYING) {
            /* the fault handler recorded the signal in the response and
             * said so: the death is known without waiting for the end */
            int at = slot_running_now(s);
            int sig = slot_response(s, at)->fault_signal;
            proc_leave_dying(e, &s->w);
            slot_complete(s, i, DONE_DIED, at, sig > 0 && sig < 128 ? sig : SIGKILL, 1, out);
        } else if (r == 1 && c == WORKER_EXITING) {
            /* the candidate called exit(): its status comes at once */
            int st, at = slot_running_now(s);
            slot_drain(e, s);
            proc_reap(&s->w, &st);
            __atomic_store_n(&e->sweep_due, 1, __ATOMIC_RELAXED);
            slot_complete(s, i, DONE_DIED, at, st, 1, out);
        } else if (r == 1) {
            if (s->attr_bytes > ENGINE_FLOOD_BYTES) {
                int at = s->attr_at;
                proc_kill(&s->w, NULL);
                slot_complete(s, i, DONE_FLOOD, at, 0, 1, out);
            } else {
                /* what it left running, counted from outside (census.h);
                 * from then on every batch is one request, so the next
                 * finding is pinned exactly */
                slot_complete(s, i, DONE_OK, s->n, 0, 1, out);
                census_after_batch(e, s, c == WORKER_STRAYS, out);
            }
        } else {
            /* its answer pipe closed: it died unannounced, or the candidate
             * closed the pipe and goes on; it gets the running request's
             * deadline to end, and what it printed last (a worker that lost
             * its channel says so as it exits) is read once it has */
            int st, at = slot_running_now(s);
            pid_t pid = s->w.pid;
            int64_t by = slot_deadline_of(e, s);
            int late = proc_await_end(&s->w, by);
            slot_drain(e, s);
            if (late) {
                int64_t started = slot_started(s);
                int below = engine_kill_late(e, &s->w);
                slot_complete(s, i, DONE_TIMEOUT, at, 0, 1, out);
                out->budget_ms = (by - started) / 1000000;
                out->short_budget = by - started < deadline_full_ns(&e->dl, &s->req[at]);
                out->strays = below;
                return 1;
            }
            proc_reap(&s->w, &st);
            __atomic_store_n(&e->sweep_due, 1, __ATOMIC_RELAXED);
            slot_complete(s, i, DONE_DIED, at, st, 0, out);
            /* the observer records before it kills: a death it caused is
             * known by now, and came during the running request */
            if (e->watch && sandbox_watch_take_stop(e->watch, pid, out->sandbox_stop,
                                                    sizeof out->sandbox_stop))
                out->pinned = 1;
        }
        return 1;
    }
    int64_t started = slot_started(s);
    int64_t now = engine_mono_ns();
    int asleep = 0;
    if (now >= slot_first_look(e, s) && now < slot_deadline_of(e, s)) {
        /* a hang asleep is a suspect now; anything else keeps its budget */
        s->looked_ns = started;
        asleep = census_asleep(s->w.pid) == 1;
    }
    if (asleep || now >= slot_deadline_of(e, s)) {
        int at = slot_running_now(s), phase = slot_phase_of(s, at);
        int64_t budget = asleep ? now - started
                                : deadline_budget_ns(&e->dl, &s->req[at], phase, now - started);
        int below = engine_kill_late(e, &s->w);
        deadline_timed_out(&e->dl, &s->req[at], phase);
        slot_complete(s, i, DONE_TIMEOUT, at, 0, 1, out);
        out->budget_ms = budget / 1000000;
        out->short_budget = budget < deadline_full_ns(&e->dl, &s->req[at]);
        out->strays = below;
        return 1;
    }
    return 0;
}

int engine_wait(engine *e, completion *out)
{
    if (e->mode == ISO_NONE) {
        if (e->ndone == 0)
            return -1;
        int i = e->done[--e->ndone];
        memset(out, 0, sizeof *out);
        out->slot = i;
        out->kind = DONE_OK;
        out->n = out->at = e->slots[i].n;
        return 0;
    }
    struct pollfd p[2 * 256];
    int map[256], forked = 0;
    for (;;) {
        int n = 0, busy = 0;
        int64_t now = engine_mono_ns(), next = now + (int64_t)3600 * 1000000000;
        for (int i = 0; i < e->nslots; i++) {
            slot *s = &e->slots[i];
            if (!s->busy)
                continue;
            int64_t d = slot_look_at(e, s);
            next = d < next ? d : next;
            map[busy++] = i;
            p[n++] = (struct pollfd){s->w.out_r, POLLIN, 0};
            p[n++] = (struct pollfd){s->w.resp_r, POLLIN, 0};
        }
        if (!busy)
            return -1;
        /* about to wait: the moment to start spares and reap the dead
         * (locked: full-budget slots have threads of their own) */
        if (!forked) {
            forked = 1;
            for (int k = 0; k < busy; k++)
                engine_fork_spare(e, map[k]);
            if (e->nspares < e->want_spares) {
                pthread_mutex_lock(&e->lock);
                engine_top_up_spares(e, e->want_spares);
                pthread_mutex_unlock(&e->lock);
            }
            continue;
        }
        if (e->ndying || __atomic_load_n(&e->sweep_due, __ATOMIC_RELAXED)) {
            pthread_mutex_lock(&e->lock);
            engine_reap_dying(e, 0);
            pthread_mutex_unlock(&e->lock);
        }
        int64_t left = (next - now) / 1000000 + 1;
        if (poll(p, (nfds_t)n, left < 0 ? 0 : (int)left) < 0 && errno != EINTR)
            die(EXIT_HARNESS, "cannot poll the workers: %s", strerror(errno));
        for (int k = 0; k < busy; k++)
            if (engine_check_slot(e, map[k], &p[2 * k], &p[2 * k + 1], out))
                return 0;
    }
}

int engine_wait_slot(engine *e, int i, completion *out)
{
    slot *s = &e->slots[i];
    if (e->mode == ISO_NONE)
        return engine_wait(e, out);
    if (!s->busy)
        return -1;
    engine_fork_spare(e, i);
    for (;;) {
        /* about to wait: the moment to start a spare and reap the dead,
         * unless another slot's thread is at it (a contended lock would
         * cost a futex call each way) */
        if (pthread_mutex_trylock(&e->lock) == 0) {
            int want = __atomic_load_n(&e->want_spares, __ATOMIC_RELAXED);
            if (e->nspares < want)
                engine_top_up_spares(e, want);
            if (e->ndying || __atomic_load_n(&e->sweep_due, __ATOMIC_RELAXED))
                engine_reap_dying(e, 0);
            pthread_mutex_unlock(&e->lock);
        }
        struct pollfd p[2] = {{s->w.out_r, POLLIN, 0}, {s->w.resp_r, POLLIN, 0}};
        int64_t left = (slot_look_at(e, s) - engine_mono_ns()) / 1000000 + 1;
        if (poll(p, 2, left < 0 ? 0 : (int)left) < 0 && errno != EINTR)
            die(EXIT_HARNESS, "cannot poll a worker: %s", strerror(errno));
        if (engine_check_slot(e, i, &p[0], &p[1], out))
            return 0;
    }
}
