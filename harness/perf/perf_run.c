/*
 * perf_run.c - the parent's side of a performance profile (perf.h): starts
 * `reshape-conform __perf` workers, reads their lines under a deadline per
 * point, and puts the profile document together.  A worker that dies or
 * passes its deadline costs its point (CRASH or TIMEOUT: SIGKILL, never a
 * signal the candidate could ignore); the next worker starts at the next
 * point.  What the candidate started is killed with its worker and
 * counted.  Depends on perf.h, reaper.h, report.h (host facts), util.h,
 * jansson, POSIX.
 */
#define _GNU_SOURCE     /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/base.h"
#include "engine/engine.h"
#include "report/report.h"
#include "perf.h"

extern char **environ;

#define LOAD_SECONDS 30.0

typedef struct perf_worker {
    pid_t pid;
    int fd;             /* read end of the worker's fd 3 */
    strbuf pending;     /* bytes read past the last whole line */
} perf_worker;

/* The confinement of the workers: the policy as words, the observer. */
typedef struct perf_sandbox {
    char **words;
    int nwords;
    sandbox_watch *watch;
} perf_sandbox;

static int start(perf_worker *w, const char *candidate, const perf_config *c, int first,
                 double deadline_s, const perf_sandbox *sb)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC))
        return -1;
    char ops[16], max[32], secs[32], budget[32], from[16], whole[32], until[32];
    snprintf(ops, sizeof ops, "%u", c->ops);
    snprintf(max, sizeof max, "%llu", (unsigned long long)c->max_bytes);
    snprintf(secs, sizeof secs, "%g", c->point_seconds);
    snprintf(budget, sizeof budget, "%g", c->point_budget_s);
    snprintf(from, sizeof from, "%d", first);
    snprintf(whole, sizeof whole, "%g", c->budget_s);
    snprintf(until, sizeof until, "%.6f", deadline_s);
    char **argv = xcalloc((size_t)sb->nwords + 11, sizeof *argv);
    char *head[] = {"reshape-conform", "__perf", (char *)candidate, ops, max, secs, budget, from,
                    whole, until};
    memcpy(argv, head, sizeof head);
    for (int k = 0; k < sb->nwords; k++)
        argv[10 + k] = sb->words[k];
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 3);
    if (sb->watch)
        posix_spawn_file_actions_adddup2(&fa, sandbox_watch_worker_fd(sb->watch),
                                         SANDBOX_FD_WATCH);
    int rc = posix_spawn(&w->pid, "/proc/self/exe", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    free(argv);
    close(fds[1]);
    if (rc) {
        close(fds[0]);
        errno = rc;
        return -1;
    }
    w->fd = fds[0];
    sb_init(&w->pending);
    return 0;
}

/* Kills what the candidate started below the worker (reaper.h), adding
 * their number to *left, then the worker; reaps it and returns its wait
 * status. */
static int stop(perf_worker *w, int *left)
{
    int st = 0;
    *left += reaper_kill_descendants(w->pid);
    kill(w->pid, SIGKILL);
    while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
        ;
    /* what the worker left when it ended came to us, a subreaper */
    *left += reaper_sweep(NULL, 0);
    close(w->fd);
    free(w->pending.s);
    return st;
}

/* The next line from the worker as JSON, NULL at EOF, or *timed_out set
 * when none came within `timeout_s`.  A line that is not a JSON object
 * counts as the worker's death (the candidate shares the worker's fds). */
static json_t *next_line(perf_worker *w, double timeout_s, int *timed_out)
{
    double deadline = now_s() + timeout_s;
    *timed_out = 0;
    for (;;) {
        char *nl = w->pending.s ? memchr(w->pending.s, '\n', w->pending.len) : NULL;
        if (nl) {
            *nl = '\0';
            json_t *o = json_loads(w->pending.s, 0, NULL);
            size_t used = (size_t)(nl - w->pending.s) + 1;
            memmove(w->pending.s, nl + 1, w->pending.len - used + 1);
            w->pending.len -= used;
            if (json_is_object(o))
                return o;
            json_decref(o);
            return NULL;
        }
        double left = deadline - now_s();
        if (left <= 0) {
            *timed_out = 1;
            return NULL;
        }
        struct pollfd pfd = {w->fd, POLLIN, 0};
        if (poll(&pfd, 1, (int)(left * 1000) + 1) < 0 && errno != EINTR)
            return NULL;
        if (!(pfd.revents & (POLLIN | POLLHUP)))
            continue;
        char buf[4096];
        ssize_t n = read(w->fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return NULL;
        sb_addf(&w->pending, "%.*s", (int)n, buf);
    }
}

/* The point `i` with the outcome of a worker that never reported it
 * (`stopped`: what the sandbox stopped it for, or ""). */
static json_t *lost_point(const perf_config *c, int i, int timed_out, int st, double timeout_s,
                          const char *stopped)
{
    perf_point p;
    perf_plan_point(c, i, &p);
    json_t *o = json_pack("{s:i, s:s, s:s, s:i, s:s, s:I}", "index", i, "op",
                          reshape_op_name(p.op), "dtype", reshape_dtype_name(p.dtype), "bits",
                          (int)reshape_dtype_bits(p.dtype), "layout", perf_layout_name(p.layout),
                          "bytes", (json_int_t)p.bytes);
    char *why = timed_out ? xasprintf("no answer within %g s; killed", timeout_s)
                : *stopped ? xasprintf("the sandbox stopped the candidate: it %s", stopped)
                : WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS
                ? xasprintf("signal %d (%s): the sandbox stopped a system call", SIGSYS,
                            strsignal(SIGSYS))
                : WIFSIGNALED(st) ? xasprintf("signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)))
                : xasprintf("exit %d", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    json_object_set_new(o, "status", json_string(timed_out ? "TIMEOUT" : "CRASH"));
    json_object_set_new(o, "detail", json_string(why));
    free(why);
    return o;
}

static void show_progress(int quiet, int done, int total, json_t *point)
{
    if (quiet)
        return;
    fprintf(stderr, "perf: %d/%d %s %s %s %lld bytes: ", done, total,
            json_string_value(json_object_get(point, "op")),
            json_string_value(json_object_get(point, "dtype")),
            json_string_value(json_object_get(point, "layout")),
            (long long)json_integer_value(json_object_get(point, "bytes")));
    char *what = perf_point_text(point);
    fprintf(stderr, "%s\n", what);
    free(what);
}

/* What the observer saw into `seen` (when not NULL), then it ends. */
static void perf_sandbox_end(perf_sandbox *sb, sandbox_summary *seen)
{
    if (seen) {
        memset(seen, 0, sizeof *seen);
        if (sb->watch)
            sandbox_watch_summary(sb->watch, seen);
    }
    sandbox_watch_stop(sb->watch);
    sandbox_words_free(sb->words);
    sb->watch = NULL;
    sb->words = NULL;
}

/* The host's 1-minute load average, or -1 when it cannot be read: a
 * profile taken on a busy machine says so (candidates with a thread pool,
 * such as oneDNN 2.6's OpenMP team, pay a scheduler slice per call there). */
static double load_average(void)
{
    double l[1];
    return getloadavg(l, 1) == 1 ? l[0] : -1.0;
}

json_t *perf_profile(const char *candidate, const perf_config *c, double timeout_s, int quiet,
                     const sandbox_policy *policy, sandbox_summary *seen, char **err)
{
    int total = perf_plan_count(c), next = 0, nfixed = 0, wanted_fixed = 0, left = 0;
    for (int op = 1; op <= RESHAPE_OP_COUNT; op++)
        wanted_fixed += (c->ops >> op) & 1;
    json_t *points = json_array(), *fixed = json_array(), *loaded = NULL;
    char when[32];
    utc_now(when);
    double load_start = load_average();
    /* the budget runs from here: loading the candidate is part of it */
    double deadline_s = c->budget_s > 0 ? now_s() + c->budget_s : 0;
    *err = NULL;
    if (reaper_become_subreaper() != 0)
        die(EXIT_HARNESS, "cannot become a child subreaper: %s", strerror(errno));
    /* a worker's working folder is its scratch folder: the path it loads
     * must not be relative */
    char real[PATH_MAX];
    const char *load = realpath(candidate, real) ? real : candidate;
    perf_sandbox sb = {NULL, 0, NULL};
    if (policy) {
        sb.watch = sandbox_watch_start(policy, err);
        if (!sb.watch)
            die(EXIT_HARNESS, "%s", *err);
        sb.words = sandbox_policy_words(policy, &sb.nwords);
    }
    while (next < total || nfixed < wanted_fixed) {
        perf_worker w;
        if (start(&w, load, c, next, deadline_s, &sb))
            die(EXIT_HARNESS, "cannot start a perf worker: %s", strerror(errno));
        int timed_out = 0, said_loaded = 0;
        json_t *o, *v;
        /* loading (a sanitized harness, a big library) is not a point:
         * it gets LOAD_SECONDS at least */
        while (!*err && (o = next_line(&w, said_loaded || timeout_s > LOAD_SECONDS
                                               ? timeout_s : LOAD_SECONDS, &timed_out))) {
            if ((v = json_object_get(o, "load_error"))) {
                *err = xstrdup(json_is_string(v) ? json_string_value(v) : "unknown");
            } else if ((v = json_object_get(o, "loaded"))) {
                said_loaded = 1;
                if (!loaded)
                    loaded = json_incref(v);
            } else if ((v = json_object_get(o, "fixed"))) {
                json_array_append(fixed, v);
                nfixed++;
            } else if (json_integer_value(json_object_get(o, "index")) == next && next < total) {
                show_progress(quiet, next + 1, total, o);
                json_array_append(points, o);
                next++;
            }
            json_decref(o);
            /* every line is in: what the candidate started may hold the
             * pipe open, so no end of it is waited for */
            if (next == total && nfixed == wanted_fixed)
                break;
        }
        pid_t pid = w.pid;
        int st = stop(&w, &left);
        char stopped[SANDBOX_ACT_BYTES] = "";
        if (sb.watch)
            sandbox_watch_take_stop(sb.watch, pid, stopped, sizeof stopped);
        json_t *lost = next < total ? lost_point(c, next, timed_out, st, timeout_s, stopped)
                                    : NULL;
        if (!*err && !said_loaded)
            *err = xasprintf("the candidate died while loading: %s",
                             lost ? json_string_value(json_object_get(lost, "detail")) : "");
        if (*err) {
            perf_sandbox_end(&sb, seen);
            json_decref(lost);
            json_decref(points);
            json_decref(fixed);
            json_decref(loaded);
            return NULL;
        }
        if (!lost)
            break;      /* died in the fixed costs, which stay missing */
        show_progress(quiet, next + 1, total, lost);
        json_array_append_new(points, lost);
        next++;
    }
    perf_sandbox_end(&sb, seen);
    char sha[65] = "";
    sha256_file(candidate, sha);
    json_t *cand = loaded ? loaded : json_object();
    json_object_set_new(cand, "path", json_string(candidate));
    json_object_set_new(cand, "sha256", json_string(sha));
    json_t *ops = json_array();
    for (int op = 1; op <= RESHAPE_OP_COUNT; op++)
        if ((c->ops >> op) & 1)
            json_array_append_new(ops, json_string(reshape_op_name((reshape_op)op)));
    if (left)
        warn("perf: the candidate left %d process%s running; killed", left, left == 1 ? "" : "es");
    json_t *host = host_info();
    json_object_set_new(host, "load_average", json_pack("[f, f]", load_start, load_average()));
    json_t *summary = perf_summarize(points);
    return json_pack("{s:s, s:o, s:o, s:s, s:{s:o, s:I, s:f, s:f, s:f, s:f}, s:o, s:o, s:o, "
                     "s:i}",
                     "schema", "reshape-conform-perf/1", "candidate", cand, "host", host,
                     "started", when, "config", "ops", ops, "max_bytes", (json_int_t)c->max_bytes,
                     "point_seconds", c->point_seconds, "point_budget_s", c->point_budget_s,
                     "timeout_s", timeout_s, "budget_s", c->budget_s, "summary", summary,
                     "points", points, "fixed", fixed, "processes_left_running", left);
}
