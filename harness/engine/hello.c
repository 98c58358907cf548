/*
 * hello.c - waiting for a spawned process's hello (wire/channel.h, step 1):
 * loaded (and whether it can be the slot's zygote) or refused, with what
 * it printed while loading and how it died if it did.  Depends on
 * engine_int.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/base.h"
#include "engine_int.h"
#include "wire/wire.h"
#include "proc/proc.h"

static char *proc_describe_status(int st)
{
    if (WIFSIGNALED(st))
        return xasprintf("signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
    return xasprintf("exit status %d", WEXITSTATUS(st));
}

/* Reads what a worker printed before it was bound, keeping the last
 * ENGINE_OUTPUT_HEAD bytes in e->load_tail. */
static void proc_discard_output(engine *e, proc *p)
{
    char buf[4096];
    ssize_t n;
    while ((n = read(p->out_r, buf, sizeof buf)) > 0) {
        size_t have = strlen(e->load_tail), k = (size_t)n, cap = ENGINE_OUTPUT_HEAD;
        if (k >= cap) {
            memcpy(e->load_tail, buf + k - cap, cap);
            e->load_tail[cap] = '\0';
            continue;
        }
        if (have + k > cap) {
            memmove(e->load_tail, e->load_tail + (have + k - cap), cap - k);
            have = cap - k;
        }
        memcpy(e->load_tail + have, buf, k);
        e->load_tail[have + k] = '\0';
    }
}

/* Appends the end of what a loading worker printed to *err, each of its
 * lines prefixed "candidate: ": quoted on the harness's stderr, none of
 * them reads as a line of the harness's own (a forged "conformant: ..."). */
static void engine_add_load_tail(engine *e, char **err)
{
    char *t = e->load_tail;
    size_t n = strlen(t);
    while (n > 0 && (t[n - 1] == '\n' || t[n - 1] == '\r'))
        t[--n] = '\0';
    if (!n)
        return;
    strbuf b;
    sb_init(&b);
    sb_addf(&b, "%s; its output ended with:", *err);
    for (char *line = t, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        for (char *c = line; *c; c++)
            if ((unsigned char)*c < 32 || (unsigned char)*c == 0x7f)
                *c = ' ';
        sb_addf(&b, "\ncandidate: %s", line);
    }
    free(*err);
    *err = sb_take(&b);
}

/* The hello is written by a process that ran the candidate's constructors
 * (which may have patched its write()): its strings end inside their
 * arrays whatever it sent (ARCHITECTURE.md, "Trust boundary"). */
static void hello_bound(worker_hello *h)
{
    wire_probe *pr = &h->probe;
    pr->name[sizeof pr->name - 1] = '\0';
    pr->version[sizeof pr->version - 1] = '\0';
    pr->message[sizeof pr->message - 1] = '\0';
    pr->device_name[sizeof pr->device_name - 1] = '\0';
}

/* Waits until worker `p` has loaded the candidate.  Returns 0, or -1 with
 * *err set and the worker gone; e->hello.probe.state is then 2 when it is
 * the candidate's doing (it refused, died or hung while loading). */
int proc_await_ready(engine *e, proc *p, char **err)
{
    e->load_tail[0] = '\0';
    char stage = 0;
    /* loading is not a request: a short --timeout-ms must not make a busy
     * machine's slow spawn a failure */
    int load_ms = e->timeout_ms > ENGINE_LOAD_MIN_MS ? e->timeout_ms : ENGINE_LOAD_MIN_MS;
    int64_t deadline = engine_mono_ns() + (int64_t)load_ms * 1000000;
    while (!p->ready) {
        struct pollfd f[2] = {{p->resp_r, POLLIN, 0}, {p->out_r, POLLIN, 0}};
        int64_t left = (deadline - engine_mono_ns()) / 1000000;
        if (left < 0) {
            proc_discard_output(e, p);
            proc_kill(p, NULL);
            *err = xasprintf("candidate '%s' did not load within %d ms (killed)", e->path,
                             load_ms);
            e->hello.probe.state = 2;
            engine_add_load_tail(e, err);
            return -1;
        }
        if (poll(f, 2, (int)left + 1) < 0 && errno != EINTR) {
            proc_kill(p, NULL);
            *err = xasprintf("cannot poll a worker: %s", strerror(errno));
            return -1;
        }
        if (f[1].revents)
            proc_discard_output(e, p);
        if (!f[0].revents)
            continue;
        char first;
        int got = engine_read_full(p->resp_r, &first, 1) == 0;
        if (got && (first == EXEC_STAGE_DLOPEN || first == EXEC_STAGE_ENTRY)) {
            stage = first;
            continue;
        }
        e->hello.state = first;
        got = got && engine_read_full(p->resp_r, (char *)&e->hello + 1, sizeof e->hello - 1) == 0;
        hello_bound(&e->hello);
        if (got && e->hello.state == 'r') {
            p->ready = 1;
            p->forkable = e->hello.forkable;
            /* what the constructors left running */
            if (e->hello.strays > 0)
                e->strays += reaper_kill_descendants(p->pid);
            break;
        }
        int st;
        pid_t pid = p->pid;
        proc_discard_output(e, p);
        proc_kill(p, &st);
        if (got && e->hello.state == 's') {
            e->hello.probe.state = 0;   /* the harness's failure, not the candidate's */
            *err = xstrdup(e->hello.probe.message);
        } else if (got) {
            *err = xstrdup(e->hello.probe.state == 2 ? e->hello.probe.message
                                                     : "candidate refused to load");
            e->hello.probe.state = 2;
        } else {
            char *how = proc_describe_status(st);
            char what[SANDBOX_ACT_BYTES];
            const char *at = stage == EXEC_STAGE_ENTRY ? "in " RESHAPE_CANDIDATE_ENTRY "()"
                             : stage == EXEC_STAGE_DLOPEN ? "in dlopen (its constructors)"
                                                          : "before dlopen";
            if (e->watch && sandbox_watch_take_stop(e->watch, pid, what, sizeof what))
                *err = xasprintf("the sandbox stopped candidate '%s' while loading, %s: it %s",
                                 e->path, at, what);
            else
                *err = xasprintf("candidate '%s' died while loading, %s: %s", e->path, at, how);
            free(how);
            e->hello.probe.state = 2;
        }
        engine_add_load_tail(e, err);
        return -1;
    }
    proc_discard_output(e, p);
    return 0;
}
